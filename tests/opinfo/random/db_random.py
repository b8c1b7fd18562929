"""OpInfo entries for the random operators (`aten/native/random/fill*.py`, `sampling.py`).

Random results cannot be compared with a NumPy reference, nor between two calls, nor
with torch's unseeded default generator: the entries check shapes, dtypes, strides,
out=, meta and errors (`values_defined=False`), and `tests/test_random.py` compares
the draws themselves with torch's, bit for bit, from equal seeds. The in-place
samplers' references are seeded: they run the sampler's own kernel on a fresh
array from a copy of the default generator's state, which `test_inplace` then
checks the in-place call reproduces (same draws, written in self's memory order).
"""
import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.registry import DECLARATIONS

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor, numpy_dtype, tensors

FLOATING = (gt.float16, gt.bfloat16, gt.float32, gt.float64)
INTEGRAL = (gt.uint8, gt.int8, gt.int16, gt.int32, gt.int64)
DIFFERENT_DRAWS = {"test_noncontiguous": pytest.mark.skip(
    reason="two calls draw different numbers; test_random.py compares draws with torch")}
_OVERLAP = (r"^unsupported operation: more than one element of the written-to tensor refers "
            r"to a single memory location\. Please clone\(\) the tensor before performing "
            r"the operation\.$")
_SIZES = ((), (0,), (5,), (3, 4), (2, 17), (4, 0, 2))


def _writable(dtype):
    """The standard tensors without expanded ones (torch refuses to write those)."""
    for x in tensors(dtype):
        if not any(st == 0 and n > 1 for n, st in zip(x.shape, x.stride())):
            yield x
    yield make_tensor((3, 20), dtype, "transposed")      # 60 elements: the block path


def _seeded(name: str, *defaults):
    """The reference of in-place sampler `name`: its kernel on a fresh array laid out
    as self, drawing from a copy of the default generator (so the call that follows
    draws the same numbers)."""
    kernel = DECLARATIONS[name].kernel

    def reference(self, *args):
        out = _layout_twin(self)
        arguments = args + defaults[len(args):]
        kernel(out, *arguments, gt.default_generator.clone_state(), out=out)
        return out
    reference.__name__ = f"seeded_{name}"
    return reference


def _layout_twin(a: np.ndarray) -> np.ndarray:
    """A fresh array with `a`'s memory order, contiguous only if `a` is (the samplers
    take another path on contiguous tensors)."""
    twin = np.empty_like(a)
    if twin.flags.c_contiguous and not a.flags.c_contiguous:
        twin = np.empty(a.shape + (2,), a.dtype)[..., 0]
    return twin


def _like(shape_of=None, dtype=None):
    """A reference that only says the result's shape and dtype (values are random):
    the dtype asked for, else `dtype`, else that of the first array argument."""
    def reference(*args, **kwargs):
        shape = shape_of(*args, **kwargs) if shape_of else args[0].shape
        wanted = kwargs.get("dtype") or dtype
        if wanted is not None:
            return np.zeros(shape, numpy_dtype(wanted))
        return np.zeros(shape, next(a for a in args if isinstance(a, np.ndarray)).dtype)
    return reference


def _in_place(name, variant, dtypes, samples, errors=lambda: (), defaults=()):
    return OpInfo(name, variants=(variant,), ref=_seeded(name, *defaults),
                  sample_inputs=samples, error_inputs=errors, dtypes=dtypes,
                  mutates_input=True, values_defined=False, marks=DIFFERENT_DRAWS)


# ----- in-place samplers -----------------------------------------------------------
def _sample_self(*argument_lists):
    def samples(dtype):
        for x in _writable(dtype):
            for arguments in argument_lists:
                yield SampleInput(x, *arguments)
    return samples


def _error(sample, message, kind=RuntimeError):
    return ErrorInput(sample, kind, message)


def errors_uniform():
    x = make_tensor((3,), gt.float32)
    yield _error(SampleInput(x, 2.0, 1.0),
                 r"^uniform_ expects to return a \[from, to\) range, but found from=2 > to=1$")
    yield _error(SampleInput(x, -3e38, 3e38), r"^uniform_ expects to-from <= std::numeric_"
                 r"limits<Float>::max\(\), but found to=3e\+38 and from=-3e\+38 which result "
                 r"in to-from to exceed the limit$")
    yield _error(SampleInput(x, 0.0, float("inf")), r"^to is out of bounds for float$")
    yield _error(SampleInput(make_tensor((3,), gt.int64)),
                 r"^\"check_uniform_bounds\" not implemented for 'Long'$", NotImplementedError)
    yield _error(SampleInput(make_tensor((3,), gt.float32, "expanded")), _OVERLAP)


def errors_normal():
    x = make_tensor((3,), gt.float32)
    yield _error(SampleInput(x, 0.0, -1.0), r"^normal expects std >= 0\.0, but found std -1$")
    yield _error(SampleInput(make_tensor((3,), gt.int32)),
                 r"^\"normal_kernel_cpu\" not implemented for 'Int'$", NotImplementedError)


def errors_random_from():
    yield _error(SampleInput(make_tensor((3,), gt.int64), 5, 5),
                 r"^random_ expects 'from' to be less than 'to', but got from=5 >= to=5$")
    yield _error(SampleInput(make_tensor((3,), gt.int8), 0, 1000),
                 r"^to - 1 is out of bounds for signed char$")
    yield _error(SampleInput(make_tensor((3,), gt.uint8), -1, 5),
                 r"^from is out of bounds for unsigned char$")
    yield _error(SampleInput(make_tensor((3,), gt.bool), 0, 3),
                 r"^to - 1 is out of bounds for bool$")
    yield _error(SampleInput(make_tensor((3,), gt.float16), 0, 2 ** 20),
                 r"^to - 1 is out of bounds for c10::Half$")
    yield _error(SampleInput(make_tensor((3,), gt.complex64), 0, 3),
                 r"^check_random_bounds handles only integral, floating-point and boolean "
                 r"types$")


def errors_random():
    yield _error(SampleInput(make_tensor((3,), gt.uint32)),
                 r"^\"random_kernel_cpu\" not implemented for 'UInt32'$", NotImplementedError)


def errors_exponential():
    x = make_tensor((3,), gt.float32)
    yield _error(SampleInput(x, 0.0), r"^exponential_ expects lambda > 0\.0, but found "
                 r"lambda=0$")
    yield _error(SampleInput(make_tensor((3,), gt.int64)),
                 r"^Exponential distribution is a continuous probability distribution\. dtype "
                 r"must be a floating point but you specified Long$")


def errors_geometric():
    yield _error(SampleInput(make_tensor((3,), gt.float32), 1.0),
                 r"^geometric_ expects p to be in \(0, 1\), but got p=1$")
    yield _error(SampleInput(make_tensor((3,), gt.bool), 0.5),
                 r"^\"geometric_cpu\" not implemented for 'Bool'$", NotImplementedError)


def errors_log_normal():
    yield _error(SampleInput(make_tensor((3,), gt.float32), 1.0, 0.0),
                 r"^log_normal_ expects std > 0\.0, but found std=0$")


def errors_cauchy():
    yield _error(SampleInput(make_tensor((3,), gt.float32), 0.0, -1.0),
                 r"^cauchy_ expects sigma > 0\.0, but found sigma=-1$")
    yield _error(SampleInput(make_tensor((3,), gt.int8)),
                 r"^Cauchy distribution is a continuous probability distribution\. dtype must "
                 r"be a floating point but you specified signed char$")


def errors_bernoulli_float():
    yield _error(SampleInput(make_tensor((3,), gt.float32), 2.0),
                 r"^bernoulli_ expects p to be in \[0, 1\], but got p=2$")
    yield _error(SampleInput(make_tensor((3,), gt.complex64), 0.5),
                 r"^\"bernoulli_scalar_cpu_\" not implemented for 'ComplexFloat'$",
                 NotImplementedError)


_P_RANGE = (r"^Expected p_in >= 0 && p_in <= 1 to be true, but got false\.  \(Could this "
            r"error message be improved\?  If so, please report an enhancement request to "
            r"PyTorch\.\)$")


def sample_bernoulli_tensor(dtype):
    for x in _writable(dtype):
        for p_dtype in (gt.float32, gt.float64):
            yield SampleInput(x, make_tensor(tuple(x.shape), p_dtype, low=0, high=1))
        if x.dim():
            yield SampleInput(x, make_tensor(tuple(x.shape[1:]), gt.float32, low=0, high=1))


def errors_bernoulli_tensor():
    x = make_tensor((3,), gt.float32)
    yield _error(SampleInput(x, gt.full((3,), 2.0)), _P_RANGE)
    yield _error(SampleInput(x, gt.ones(3, dtype=gt.int64)),
                 r"^\"bernoulli_tensor_cpu_p_\" not implemented for 'Long'$", NotImplementedError)
    yield _error(SampleInput(x, gt.full((2, 3), 0.5)),
                 r"^expand\(torch\.FloatTensor\{\[2, 3\]\}, size=\[3\]\): the number of sizes "
                 r"provided \(1\) must be greater or equal to the number of dimensions in the "
                 r"tensor \(2\)$")


# ----- factories -----------------------------------------------------------------
def _sample_sizes(*leading, generator=False):
    def samples(dtype):
        extra = {"generator": None} if generator else {}
        for size in _SIZES:
            yield SampleInput(*leading, size, dtype=dtype, **extra)
        yield SampleInput(*leading, (2, 3), **extra)
    return samples


def _factory(name, variant, ref_shape, samples, dtypes, errors=lambda: (), default=None):
    return OpInfo(name, variants=(variant,), ref=_like(ref_shape, default or gt.float32),
                  sample_inputs=samples,
                  dtypes=dtypes, error_inputs=errors, is_factory=True, values_defined=False,
                  out=variant, out_warns_on_resize=False)


def _sized(*args, **kwargs):
    return args[-1]


def errors_rand():
    yield _error(SampleInput((3,), dtype=gt.int64),
                 r"^\"check_uniform_bounds\" not implemented for 'Long'$", NotImplementedError)


def errors_randn():
    yield _error(SampleInput((3,), dtype=gt.int64),
                 r"^\"normal_kernel_cpu\" not implemented for 'Long'$", NotImplementedError)


def errors_randint():
    yield _error(SampleInput(0, (3,)),
                 r"^random_ expects 'from' to be less than 'to', but got from=0 >= to=0$")
    yield _error(SampleInput(5, (-1,)),
                 r"^Trying to create tensor with negative dimension -1: \[-1\]$")
    yield _error(SampleInput(3, (3,), dtype=gt.bool), r"^to - 1 is out of bounds for bool$")


def errors_randint_low():
    yield _error(SampleInput(5, 5, (3,)),
                 r"^random_ expects 'from' to be less than 'to', but got from=5 >= to=5$")


def sample_randperm(dtype, generator=False):
    extra = {"generator": None} if generator else {}
    for n in (0, 1, 2, 10, 100):
        yield SampleInput(n, dtype=dtype, **extra)
    yield SampleInput(7, **extra)


def errors_randperm():
    yield _error(SampleInput(-1), r"^Trying to create tensor with negative dimension -1: "
                 r"\[-1\]$")
    yield _error(SampleInput(200, dtype=gt.int8),
                 r"^value cannot be converted to type int8_t without overflow$")
    yield _error(SampleInput(3000, dtype=gt.float16),
                 r"^n cannot be greater than 2049 for Half type\.$")
    yield _error(SampleInput(3, dtype=gt.bool), r"^\"randperm\" not implemented for 'Bool'$",
                 NotImplementedError)


def _sample_normal_sizes(dtype):
    for size in _SIZES:
        yield SampleInput(0.5, 2.0, size, dtype=dtype)
    yield SampleInput(-1.0, 0.5, (20,))


def errors_normal_sizes():
    yield _error(SampleInput(0.0, -1.0, (3,)), r"^normal expects std >= 0\.0, but found "
                 r"std -1$")


# ----- samplers reading tensors --------------------------------------------------
def sample_probabilities(dtype):
    for x in tensors(dtype):
        yield SampleInput(make_tensor(tuple(x.shape), dtype, low=0, high=1))
    yield SampleInput(make_tensor((4, 5), dtype, "transposed", low=0, high=1))


def sample_bernoulli_p(dtype):
    for x in _writable(dtype):
        yield SampleInput(x, 0.25)


def errors_bernoulli():
    yield _error(SampleInput(gt.full((3,), 2.0)), _P_RANGE)
    yield _error(SampleInput(gt.ones(3, dtype=gt.int64)),
                 r"^\"bernoulli_tensor_cpu_p_\" not implemented for 'Long'$", NotImplementedError)


def errors_bernoulli_p():
    yield _error(SampleInput(gt.zeros(3), 1.5),
                 r"^bernoulli_ expects p to be in \[0, 1\], but got p=1\.5$")


def sample_normal_tensor_float(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, 2.0)
    yield SampleInput(make_tensor((40,), dtype))


def sample_normal_float_tensor(dtype):
    for x in tensors(dtype, low=0, high=3):
        yield SampleInput(1.5, x)


def sample_normal_tensor_tensor(dtype):
    for shape, other in (((3, 4), (3, 4)), ((3, 4), (4,)), ((4,), (2, 1, 4)), ((), (5,)),
                         ((0, 3), (3,))):
        yield SampleInput(make_tensor(shape, dtype), make_tensor(other, dtype, low=0, high=2))


def errors_normal_tensors():
    yield _error(SampleInput(gt.zeros(3), -gt.ones(3)),
                 r"^normal expects all elements of std >= 0\.0$")
    yield _error(SampleInput(gt.zeros(3), gt.ones(4)), r"^The size of tensor a \(3\) must "
                 r"match the size of tensor b \(4\) at non-singleton dimension 0$")


def errors_normal_tensor_float():
    yield _error(SampleInput(gt.zeros(3), -1.0), r"^normal expects std >= 0\.0, but found "
                 r"std -1$")
    yield _error(SampleInput(gt.zeros(3, dtype=gt.int64), 1.0),
                 r"^\"normal_kernel_cpu\" not implemented for 'Long'$", NotImplementedError)


def sample_poisson(dtype):
    for x in tensors(dtype, low=0, high=30):
        yield SampleInput(x)


def errors_poisson():
    yield _error(SampleInput(gt.tensor([-1.0])),
                 r"^invalid Poisson rate, expected rate to be non-negative$")
    yield _error(SampleInput(gt.tensor([1])), r"^\"poisson_cpu\" not implemented for 'Long'$",
                 NotImplementedError)


def sample_multinomial(dtype):
    weights = make_tensor((3, 6), dtype, low=0.1, high=1)
    for rows in (weights, weights[0], weights.t().contiguous().t()):
        yield SampleInput(rows, 1)
        yield SampleInput(rows, 3)
        yield SampleInput(rows, 9, True)
        yield SampleInput(rows, 1, replacement=True)
    yield SampleInput(make_tensor((0, 3), dtype), 2)


def errors_multinomial():
    ones = gt.ones(3)
    for sample, message in (
            (SampleInput(gt.tensor(1.0), 1), r"^prob_dist must be 1 or 2 dim$"),
            (SampleInput(gt.ones(3, dtype=gt.int64), 1),
             r"^multinomial only supports floating-point dtypes for input, got: Long$"),
            (SampleInput(ones, 0), r"^cannot sample n_sample <= 0 samples$"),
            (SampleInput(ones, 4), r"^cannot sample n_sample > prob_dist\.size\(-1\) samples "
                                   r"without replacement$"),
            (SampleInput(gt.tensor([1.0, -1.0]), 1),
             r"^probability tensor contains either `inf`, `nan` or element < 0$"),
            (SampleInput(gt.tensor([1.0, -1.0]), 2, True),
             r"^invalid multinomial distribution \(encountering probability entry < 0\)$"),
            (SampleInput(gt.tensor([1.0, float("inf")]), 2, True),
             r"^invalid multinomial distribution \(encountering probability entry = "
             r"infinity or NaN\)$"),
            (SampleInput(gt.zeros(2, 2), 1),
             r"^invalid multinomial distribution \(sum of probabilities <= 0\)$")):
        yield _error(sample, message)


def _multinomial_shape(self, num_samples, replacement=False):
    return self.shape[:-1] + (num_samples,)


# ----- *_like --------------------------------------------------------------------
def _sample_like(*arguments, generator=False):
    def samples(dtype):
        extra = {"generator": None} if generator else {}
        for x in tensors(dtype):
            yield SampleInput(x, *arguments, **extra)
        yield SampleInput(make_tensor((2, 3), dtype), *arguments, dtype=gt.float64, **extra)
    return samples


# torch sizes normal.Tensor_float's out= as mean broadcast with out's own shape: a
# too-long out is kept (no resize, no warning), a too-short one grows, which the torch
# copies of test_differential (over fixed storages) cannot do.
OUT_BROADCASTS = {name: pytest.mark.skip(reason="out= is broadcast with mean, not resized to it")
                  for name in ("test_out", "test_out_matches_torch")}


def _like_op(name, variant, samples, dtypes, marks=None):
    return OpInfo(name, variants=(variant,), ref=_like(), sample_inputs=samples, dtypes=dtypes,
                  values_defined=False, marks={**DIFFERENT_DRAWS, **(marks or {})})


META_HIGH = {"test_meta": pytest.mark.skip(
    reason="torch refuses a meta `high` too: 'high must be a scalar tensor and on CPU'")}


def _sample_randint_like_tensor(dtype):
    for x in tensors(dtype):
        yield SampleInput(x, gt.tensor(7))


NUMBERS = INTEGRAL + FLOATING
OPS = [
    _in_place("uniform_", "Tensor.uniform_", FLOATING + (gt.complex64,),
              _sample_self((), (-2.0, 3.5)), errors_uniform, defaults=(0.0, 1.0)),
    _in_place("normal_", "Tensor.normal_", FLOATING + (gt.complex128,),
              _sample_self((), (1.0, 0.5)), errors_normal, defaults=(0.0, 1.0)),
    _in_place("random_", "Tensor.random_", (gt.bool,) + NUMBERS, _sample_self(()),
              errors_random),
    _in_place("random_.from", "Tensor.random_", (gt.bool,) + NUMBERS, _sample_self((0, 2)),
              errors_random_from),
    _in_place("random_.to", "Tensor.random_", NUMBERS, _sample_self((100,))),
    _in_place("exponential_", "Tensor.exponential_", FLOATING, _sample_self((), (0.5,)),
              errors_exponential, defaults=(1.0,)),
    _in_place("geometric_", "Tensor.geometric_", NUMBERS, _sample_self((0.3,)),
              errors_geometric),
    _in_place("log_normal_", "Tensor.log_normal_", FLOATING, _sample_self((), (0.0, 0.5)),
              errors_log_normal, defaults=(1.0, 2.0)),
    _in_place("cauchy_", "Tensor.cauchy_", FLOATING, _sample_self((), (1.0, 2.0)),
              errors_cauchy, defaults=(0.0, 1.0)),
    _in_place("bernoulli_.float", "Tensor.bernoulli_", (gt.bool,) + NUMBERS,
              _sample_self((), (0.3,)), errors_bernoulli_float, defaults=(0.5,)),
    _in_place("bernoulli_.Tensor", "Tensor.bernoulli_", (gt.bool,) + NUMBERS,
              sample_bernoulli_tensor, errors_bernoulli_tensor),
    _factory("rand", "rand", _sized, _sample_sizes(), FLOATING, errors_rand),
    _factory("rand.generator", "rand", _sized, _sample_sizes(generator=True), FLOATING),
    _factory("randn", "randn", _sized, _sample_sizes(), FLOATING, errors_randn),
    _factory("randn.generator", "randn", _sized, _sample_sizes(generator=True), FLOATING),
    _factory("randint", "randint", _sized, _sample_sizes(10), NUMBERS, errors_randint,
             gt.int64),
    _factory("randint.generator", "randint", _sized, _sample_sizes(10, generator=True),
             NUMBERS, default=gt.int64),
    _factory("randint.low", "randint", _sized, _sample_sizes(-3, 10), INTEGRAL[1:] + FLOATING,
             errors_randint_low, gt.int64),
    _factory("randint.low_generator", "randint", _sized,
             _sample_sizes(-3, 10, generator=True), INTEGRAL[1:] + FLOATING, default=gt.int64),
    _factory("randperm", "randperm", lambda n, **k: (n,), sample_randperm, NUMBERS,
             errors_randperm, gt.int64),
    _factory("randperm.generator", "randperm", lambda n, **k: (n,),
             lambda dtype: sample_randperm(dtype, generator=True), NUMBERS, default=gt.int64),
    _factory("normal.float_float", "normal", _sized, _sample_normal_sizes, FLOATING,
             errors_normal_sizes),
    OpInfo("bernoulli", variants=("bernoulli", "Tensor.bernoulli"), ref=_like(),
           sample_inputs=sample_probabilities, error_inputs=errors_bernoulli, dtypes=FLOATING,
           out="bernoulli", values_defined=False, marks={**DIFFERENT_DRAWS, "test_out": (
               pytest.mark.skip(reason="torch fills an out= of any dtype bernoulli_ takes "
                                       "(int, bool), resized quietly: test_differential "
                                       "compares that with torch"))}),
    OpInfo("bernoulli.p", variants=("bernoulli", "Tensor.bernoulli"), ref=_like(),
           sample_inputs=sample_bernoulli_p, error_inputs=errors_bernoulli_p,
           dtypes=(gt.bool,) + NUMBERS, values_defined=False, marks=DIFFERENT_DRAWS),
    OpInfo("normal.Tensor_float", variants=("normal",), ref=_like(), out="normal",
           sample_inputs=sample_normal_tensor_float, error_inputs=errors_normal_tensor_float,
           dtypes=FLOATING, values_defined=False, marks={**DIFFERENT_DRAWS, **OUT_BROADCASTS}),
    OpInfo("normal.float_Tensor", variants=("normal",), ref=_like(lambda m, s: s.shape),
           out="normal", sample_inputs=sample_normal_float_tensor, dtypes=FLOATING,
           values_defined=False, marks=DIFFERENT_DRAWS),
    OpInfo("normal.Tensor_Tensor", variants=("normal",),
           ref=_like(lambda m, s: np.broadcast_shapes(m.shape, s.shape)), out="normal",
           sample_inputs=sample_normal_tensor_tensor, error_inputs=errors_normal_tensors,
           dtypes=FLOATING, values_defined=False, marks=DIFFERENT_DRAWS),
    OpInfo("poisson", variants=("poisson",), ref=_like(), sample_inputs=sample_poisson,
           error_inputs=errors_poisson, dtypes=FLOATING, values_defined=False,
           marks=DIFFERENT_DRAWS),
    OpInfo("multinomial", variants=("multinomial", "Tensor.multinomial"),
           ref=_like(_multinomial_shape, gt.int64), sample_inputs=sample_multinomial,
           error_inputs=errors_multinomial, dtypes=FLOATING, out="multinomial",
           out_warns_on_resize=False, values_defined=False, marks=DIFFERENT_DRAWS),
    _like_op("rand_like", "rand_like", _sample_like(), FLOATING),
    _like_op("rand_like.generator", "rand_like", _sample_like(generator=True), FLOATING),
    _like_op("randn_like", "randn_like", _sample_like(), FLOATING),
    _like_op("randn_like.generator", "randn_like", _sample_like(generator=True), FLOATING),
    _like_op("randint_like", "randint_like", _sample_like(9), NUMBERS),
    _like_op("randint_like.generator", "randint_like", _sample_like(9, generator=True),
             NUMBERS),
    _like_op("randint_like.low_dtype", "randint_like", _sample_like(2, 9), NUMBERS),
    _like_op("randint_like.low_generator_dtype", "randint_like",
             _sample_like(2, 9, generator=True), NUMBERS),
    _like_op("randint_like.Tensor", "randint_like", _sample_randint_like_tensor, NUMBERS,
             META_HIGH),
    _like_op("randint_like.Tensor_generator", "randint_like",
             lambda dtype: (SampleInput(s.args[0], s.args[1], generator=None)
                            for s in _sample_randint_like_tensor(dtype)), NUMBERS, META_HIGH),
]
