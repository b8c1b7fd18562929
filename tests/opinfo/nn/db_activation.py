"""OpInfo entries for the piecewise-linear activations (`aten/native/nn/activation.py`):
threshold, hardtanh, relu6, leaky_relu, hardshrink, softshrink, prelu, and their backward
operators. Shared helpers for `db_activation_smooth.py` live here too."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import (FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, make_tensor, tensors)

NAN, INF = float("nan"), float("inf")
# out= of the backward operators is named grad_input (torch's schemas): the generic out=
# tests pass out=, so they are skipped, and tests/nn/test_activation.py writes grad_input=.
GRAD_INPUT = {test: pytest.mark.skip(reason="out= is named grad_input (torch's schema): "
                                            "tests/nn/test_activation.py writes it")
              for test in ("test_out", "test_out_matches_torch")}
NOT_FLOATING = ((gt.int64, "Long"), (gt.uint8, "Byte"), (gt.bool, "Bool"),
                (gt.complex64, "ComplexFloat"))


# ----- references and samples shared by the activation files -------------------------
def ref(function):
    """A reference computing `function` in float64 (complex128), cast to the input dtype."""
    def run(x, *args, **kwargs):
        wide = x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)
        with np.errstate(all="ignore"):
            value = np.asarray(function(wide, *args, **kwargs))
        return value.astype(x.dtype)
    return run


def backward_ref(function):
    """A reference for a backward operator ``f(grad, x, *args)``, in float64."""
    def run(grad, x, *args, **kwargs):
        with np.errstate(all="ignore"):
            value = np.asarray(function(grad.astype(np.float64), x.astype(np.float64), *args,
                                        **kwargs))
        return value.astype(np.result_type(grad.dtype, x.dtype))
    return run


def special(dtype, nan: bool = True):
    """NaN, infinities, zeros and the kinks of the activations (0, ±0.5, ±1, ±3, ±6).

    `nan=False` leaves NaN out where torch's own answer depends on the dtype and length
    (hardtanh_backward's vectorized float64 loop gives 0 for NaN, its other loops
    `grad`)."""
    values = [INF, -INF, 0.0, -0.0, 0.5, -0.5, 1.0, -1.0, 3.0, -3.0, 6.0, -6.0, 2.5, -7.5, 25.0]
    return gt.tensor(([NAN] if nan else [1.5]) + values).to(dtype)


def unary_samples(*extra_args, low=-8, high=8, known=None, nan=True):
    """Every standard tensor, then the special values, with each tuple of `extra_args`.
    `known(x)`: the known deviation of a sample tensor, or None."""
    def sample(dtype):
        choices = extra_args or ((),)
        for i, x in enumerate(tensors(dtype, low=low, high=high)):
            sample = SampleInput(x, *choices[i % len(choices)])
            reason = known and known(x)
            yield sample.known(reason) if reason else sample
        if dtype.is_floating_point:
            for args in choices:
                yield SampleInput(special(dtype, nan), *args)
    return sample


def _expanded(x) -> bool:
    return any(stride == 0 and size > 1 for size, stride in zip(x.shape, x.stride()))


def backward_samples(*extra_args, low=-8, high=8, before=False, nan=True):
    """(grad_output, self, *args) over the standard tensors (grad contiguous); with
    `before`, the extra arguments come between grad_output and self (elu_backward)."""
    def sample(dtype):
        choices = extra_args or ((),)
        inputs = list(tensors(dtype, low=low, high=high)) + [special(dtype, nan)]
        for i, x in enumerate(inputs):
            grad = make_tensor(tuple(x.shape), dtype, low=-2, high=2, seed=5)
            args = choices[i % len(choices)]
            yield SampleInput(grad, *args, x) if before else SampleInput(grad, x, *args)
    return sample


META_PYTHON = ("torch's meta kernel for this op is a Python decomposition that words this "
               "check differently, or skips it")


def refused_dtypes(kernel: str, *head, tail=(), dtypes=NOT_FLOATING, on_meta=()):
    """torch's kernel-only refusal of non-floating inputs (Note [Kernel-only dtype errors]):
    ``op(*head, x, *tail)`` for an x of each dtype. `on_meta`: the dtypes torch's Python
    meta kernel treats otherwise (known_bug_on_meta)."""
    def errors():
        for dtype, spelled in dtypes:
            x = make_tensor((3, 4), dtype)
            yield ErrorInput(SampleInput(*[x if h is None else h for h in head], x, *tail),
                             NotImplementedError,
                             rf'^"{kernel}" not implemented for \'{spelled}\'$',
                             known_bug_on_meta=META_PYTHON if dtype in on_meta else None)
    return errors


# ----- threshold ---------------------------------------------------------------------
def _threshold(x, threshold, value):
    return np.where(x <= threshold, value, x)


def _zero_where_inside(grad, x, low, high):
    return np.where((x >= low) & (x <= high), 0.0, grad)


# ----- hardtanh ----------------------------------------------------------------------
def _hardtanh_ref(x, min_val=-1, max_val=1):
    if x.dtype.kind in "iu":
        return np.clip(x, int(min_val), int(max_val)).astype(x.dtype)
    return ref(lambda w: np.minimum(np.maximum(w, min_val), max_val))(x)


def _empty_expanded(x):
    if x.numel() == 0 and x.dim() and 0 in x.stride():
        return ("activation: torch's hardtanh allocates with empty_like, which keeps an empty "
                "expanded input's zero strides")
    return None


def sample_hardtanh(dtype):
    yield from unary_samples((), (-2.0, 3.0), (0, 6), (0.5, 0.5), known=_empty_expanded,
                             nan=False)(dtype)


def inplace_samples(nan: bool = True):
    """unary_samples without expanded tensors, which no in-place operator may write."""
    def sample(dtype):
        for each in unary_samples(nan=nan)(dtype):
            if not _expanded(each.input) or not each.input.numel():
                yield each
    return sample


THRESHOLD_INPLACE = {"test_inplace_matches_torch": pytest.mark.xfail(strict=True, reason=(
    "activation: torch's threshold_ writes an expanded self without the overlap check; "
    "glasstorch refuses it as other in-place operators do"))}


def errors_threshold():
    yield from refused_dtypes("threshold_cpu", tail=(0.5, 1.0), dtypes=NOT_FLOATING[2:])()
    for dtype, spelled, args in ((gt.uint8, "uint8_t", (0.5, -2.0)),
                                 (gt.int8, "int8_t", (200, 0)),
                                 (gt.float16, "c10::Half", (0.5, 1e6))):
        yield ErrorInput(SampleInput(make_tensor((3,), dtype), *args), RuntimeError,
                         rf"^value cannot be converted to type {spelled} without overflow$")


def errors_hardtanh():
    x = make_tensor((3,), gt.bool)
    yield ErrorInput(SampleInput(x), RuntimeError, r"^Bool inputs not supported for hardtanh$")
    y = make_tensor((3,), gt.uint8)
    yield ErrorInput(SampleInput(y), RuntimeError,
                     r"^cannot do hardtanh on an unsigned type with negative limits$",
                     known_bug_on_meta=META_PYTHON)
    z = make_tensor((3,), gt.complex64)
    yield ErrorInput(SampleInput(z), NotImplementedError,
                     r"^clamp is not supported for complex types$",
                     known_bug_on_meta=META_PYTHON)


def _leaky_relu_backward(grad, x, slope, self_is_result):
    return np.where(x > 0, grad, grad * slope)


def errors_leaky_relu_backward():
    x = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(x, x, -0.5, True), RuntimeError,
                     r"^In-place leakyReLu backward calculation is triggered with a negative "
                     r"slope which is not supported\.")


def _softshrink(x, lambd=0.5):
    return np.where(x > lambd, x - lambd, np.where(x < -lambd, x + lambd, 0.0 * x))


def errors_softshrink():
    x = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(x, -1.0), RuntimeError,
                     r"^lambda must be in range \[0, 3\.40282e\+38\] for input dtype Float, "
                     r"but found -1$", known_bug_on_meta=META_PYTHON)
    yield from refused_dtypes("softshrink_check", dtypes=NOT_FLOATING[:2],
                              on_meta=(gt.int64, gt.uint8))()


INTEGRAL_AND_FLOATING = INTEGRAL + FLOATING


# ----- prelu -------------------------------------------------------------------------
PRELU_SHAPES = (((2, 3, 4), (3,)), ((2, 3, 4), (1,)), ((5,), (1,)), ((5, 3), (3,)), ((), ()),
                ((), (1,)), ((2, 3, 2, 2), (3,)))


def _prelu_ref(x, w):
    if x.ndim != w.ndim:             # one slope per channel (dim 1), as torch reshapes it
        w = w.reshape(tuple(w.size if d == 1 else 1 for d in range(x.ndim)))
    return ref(lambda v: np.where(v > 0, v, v * w.astype(np.float64)))(x)


def sample_prelu(dtype):
    for i, (shape, weight_shape) in enumerate(PRELU_SHAPES):
        layout = "transposed" if i % 2 and len(shape) > 1 and 0 not in shape else "contiguous"
        yield SampleInput(make_tensor(shape, dtype, layout, low=-4, high=4),
                          make_tensor(weight_shape, dtype, low=0, high=1, seed=3))


def sample_prelu_kernel(dtype):
    for sample in sample_prelu(dtype):
        x, w = sample.args
        if x.dim() > 1 and w.numel() > 1:
            w = w.reshape((1, -1) + (1,) * (x.dim() - 2))
        if x.dim() < w.dim():
            yield SampleInput(x, w).known(
                "activation: torch's _prelu_kernel allocates its result like self and resizes "
                "it to the broadcast shape (warning); glasstorch broadcasts without a warning")
        else:
            yield SampleInput(x, w)


def sample_prelu_kernel_backward(dtype):
    for sample in sample_prelu_kernel(dtype):
        x, w = sample.args
        grad = make_tensor(tuple(np.broadcast_shapes(tuple(x.shape), tuple(w.shape))), dtype,
                           low=-2, high=2, seed=6)
        yield SampleInput(grad, x, w)


def _prelu_backward_ref(grad, x, w):
    g, v, s = (a.astype(np.float64) for a in (grad, x, w))
    return [np.where(v > 0, g, s * g).astype(grad.dtype),
            np.broadcast_to(np.where(v > 0, 0.0, v * g), g.shape).astype(grad.dtype)]


def errors_prelu():
    x = make_tensor((2, 3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, make_tensor((4,), gt.float32)), RuntimeError,
                     r"^Mismatch of parameter numbers and input channel size\. Found parameter "
                     r"numbers = 4 and channel size = 3\.$")
    yield ErrorInput(SampleInput(x, make_tensor((3, 1), gt.float32)), RuntimeError,
                     r"^prelu: Expected `weight` to be a scalar or 1D tensor, but got: ndim = 2$")
    yield ErrorInput(SampleInput(x, make_tensor((3,), gt.float64)), RuntimeError,
                     r"^prelu: Type promoting not supported\. Got Float and Double$")
    yield ErrorInput(SampleInput(make_tensor((), gt.float32), make_tensor((3,), gt.float32)),
                     RuntimeError, r"^Not allow zero-dim input tensor\.$")
    y = make_tensor((3,), gt.int64)
    yield ErrorInput(SampleInput(y, y[:1]), NotImplementedError,
                     r'^"prelu_cpu" not implemented for \'Long\'$')

OPS = [
    OpInfo("threshold", variants=("threshold", "nn.functional.threshold"),
           ref=lambda x, threshold, value: _threshold(x, threshold, value).astype(x.dtype),
           sample_inputs=unary_samples((0.5, 2.0), (0, 7), (1.0, 0.25)),
           error_inputs=errors_threshold,
           dtypes=INTEGRAL_AND_FLOATING, inplace="threshold_", out="threshold",
           marks=THRESHOLD_INPLACE),
    OpInfo("threshold_backward", variants=("ops.aten.threshold_backward",),
           ref=backward_ref(lambda g, x, t: np.where(x <= t, 0.0, g)),
           sample_inputs=backward_samples((0.5,), (0,), (-1.0,)), dtypes=FLOATING,
           out="ops.aten.threshold_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("hardtanh", variants=("nn.functional.hardtanh",), ref=_hardtanh_ref,
           sample_inputs=sample_hardtanh, error_inputs=errors_hardtanh,
           dtypes=(gt.int8, gt.int16, gt.int32, gt.int64) + FLOATING,
           inplace="nn.functional.hardtanh_", out="ops.aten.hardtanh.out"),
    OpInfo("hardtanh_backward", variants=("ops.aten.hardtanh_backward",),
           ref=backward_ref(lambda g, x, lo, hi: np.where((x <= lo) | (x >= hi), 0.0, g)),
           sample_inputs=backward_samples((-1, 1), (0.0, 6.0), (-2.5, 0.5), nan=False),
           dtypes=FLOATING,
           out="ops.aten.hardtanh_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("relu6", variants=("nn.functional.relu6",),
           ref=lambda x: _hardtanh_ref(x, 0, 6),
           sample_inputs=unary_samples(known=_empty_expanded, nan=False),
           dtypes=INTEGRAL_AND_FLOATING),
    OpInfo("relu6_", variants=("ops.aten.relu6_",), ref=lambda x: _hardtanh_ref(x, 0, 6),
           sample_inputs=inplace_samples(nan=False), dtypes=INTEGRAL_AND_FLOATING,
           mutates_input=True),
    OpInfo("leaky_relu", variants=("nn.functional.leaky_relu",),
           ref=ref(lambda x, slope=0.01: np.where(x > 0, x, x * slope)),
           sample_inputs=unary_samples((), (0.2,), (-1.5,), (0,)),
           error_inputs=refused_dtypes("leaky_relu_cpu", on_meta=(gt.int64, gt.uint8, gt.bool)),
           dtypes=FLOATING,
           inplace="nn.functional.leaky_relu_", out="ops.aten.leaky_relu.out"),
    OpInfo("leaky_relu_backward", variants=("ops.aten.leaky_relu_backward",),
           ref=backward_ref(_leaky_relu_backward),
           sample_inputs=backward_samples((0.01, False), (0.3, True), (-2.0, False)),
           error_inputs=errors_leaky_relu_backward, dtypes=FLOATING,
           out="ops.aten.leaky_relu_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("hardshrink", variants=("hardshrink", "Tensor.hardshrink",
                                   "nn.functional.hardshrink"),
           ref=ref(lambda x, lambd=0.5: np.where((x >= -lambd) & (x <= lambd), 0.0 * x, x)),
           sample_inputs=unary_samples((), (1.0,), (0,), (-1.0,), nan=False),
           error_inputs=refused_dtypes("hardshrink_cpu", on_meta=(gt.bool,)), dtypes=FLOATING,
           out="hardshrink"),
    OpInfo("hardshrink_backward", variants=("ops.aten.hardshrink_backward",),
           ref=backward_ref(lambda g, x, lambd: _zero_where_inside(g, x, -lambd, lambd)),
           sample_inputs=backward_samples((0.5,), (1.0,), (0,), nan=False), dtypes=FLOATING,
           out="ops.aten.hardshrink_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("softshrink", variants=("nn.functional.softshrink",), ref=ref(_softshrink),
           sample_inputs=unary_samples((), (1.0,), (0,), (2.5,), nan=False),
           error_inputs=errors_softshrink, dtypes=FLOATING, out="ops.aten.softshrink.out"),
    OpInfo("softshrink_backward", variants=("ops.aten.softshrink_backward",),
           ref=backward_ref(lambda g, x, lambd: _zero_where_inside(g, x, -lambd, lambd)),
           sample_inputs=backward_samples((0.5,), (1.0,), (0,), nan=False), dtypes=FLOATING,
           out="ops.aten.softshrink_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("prelu", variants=("prelu", "Tensor.prelu", "nn.functional.prelu"), ref=_prelu_ref,
           sample_inputs=sample_prelu, error_inputs=errors_prelu, dtypes=FLOATING),
    OpInfo("_prelu_kernel", variants=("_prelu_kernel",),
           ref=lambda x, w: ref(lambda v: np.where(v > 0, v, v * w.astype(np.float64)))(x),
           sample_inputs=sample_prelu_kernel, dtypes=FLOATING),
    OpInfo("_prelu_kernel_backward", variants=("ops.aten._prelu_kernel_backward",),
           ref=_prelu_backward_ref, sample_inputs=sample_prelu_kernel_backward,
           dtypes=FLOATING),
]


# ----- rrelu (aten/native/nn/activation_rrelu.py) ----------------------------------------
# Training samples use lower == upper: every draw is that slope, so the values are
# defined; tests/nn/test_activation.py compares real draws with torch's, bit for bit.
TRAINED = (gt.bfloat16, gt.float32, gt.float64)         # torch's training kernel's dtypes


def _rrelu_ref(x, *args):
    """rrelu / rrelu_with_noise (a noise array may come second): training with equal
    bounds multiplies by that bound, eval by the middle slope."""
    args = args[1:] if args and isinstance(args[0], np.ndarray) else args
    lower, upper, training = (tuple(args) + (0.125, 1 / 3, False)[len(args):])[:3]
    slope = np.float32(lower) if training and x.dtype != np.float64 else \
        lower if training else (lower + upper) / 2
    return ref(lambda v: np.where(v > 0, v, v * np.float64(slope)))(x)


def _rrelu_args(dtype, i):
    choices = [(0.125, 1 / 3, False), (0.1, 0.4, False), (0.0, 0.5, False)]
    if dtype in TRAINED:
        choices += [(0.25, 0.25, True), (0.0, 0.0, True)]
    return choices[i % len(choices)]


def sample_rrelu(dtype, writable=False):
    for i, x in enumerate(list(tensors(dtype, low=-4, high=4)) + [special(dtype)]):
        if not writable or not _expanded(x) or not x.numel():
            yield SampleInput(x, *_rrelu_args(dtype, i))


def sample_rrelu_with_noise(dtype, writable=False):
    for sample in sample_rrelu(dtype, writable):
        x = sample.input
        yield SampleInput(x, gt.zeros(tuple(x.shape), dtype=x.dtype), *sample.args[1:])


def sample_rrelu_backward(dtype):
    for i, (grad, x) in enumerate((s.args[0], s.args[1])
                                  for s in backward_samples()(dtype)):
        noise = make_tensor(tuple(x.shape), dtype, low=0, high=1, seed=9)
        lower, upper, training = _rrelu_args(gt.float64, i)
        yield SampleInput(grad, x, noise, lower, upper, training, i % 2 == 0 and lower >= 0)


def _rrelu_backward_ref(grad, x, noise, lower, upper, training, self_is_result):
    slope = (lower + upper) / 2
    chosen = noise.astype(np.float64) if training else np.where(x > 0, 1.0, slope)
    return backward_ref(lambda g, _: g * chosen)(grad, x)


def errors_rrelu():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0.5, 0.1), RuntimeError,
                     r"^Lower bound should be less than or equal to the upper bound$")
    yield from refused_dtypes("leaky_relu_cpu")()
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float16), 0.1, 0.3, True),
                     NotImplementedError,
                     r"^\"rrelu_with_noise_out_cpu\" not implemented for 'Half'$")


def errors_rrelu_with_noise():
    x = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(x, gt.zeros(2), 0.1, 0.3, True), RuntimeError,
                     r"^noise tensor shape must match self tensor shape\. Got self\.shape = "
                     r"\[3\] noise\.shape = \[2\]$")
    yield ErrorInput(SampleInput(x, gt.zeros(3, dtype=gt.float64), 0.1, 0.3, True),
                     RuntimeError, r"^expected scalar type Float but found Double$")


OPS += [
    OpInfo("rrelu", variants=("rrelu", "nn.functional.rrelu"), ref=_rrelu_ref,
           sample_inputs=sample_rrelu, error_inputs=errors_rrelu, dtypes=FLOATING),
    OpInfo("rrelu_", variants=("rrelu_", "nn.functional.rrelu_"), ref=_rrelu_ref,
           sample_inputs=lambda d: sample_rrelu(d, writable=True), dtypes=FLOATING,
           mutates_input=True),
    OpInfo("rrelu_with_noise", variants=("ops.aten.rrelu_with_noise",), ref=_rrelu_ref,
           sample_inputs=sample_rrelu_with_noise, error_inputs=errors_rrelu_with_noise,
           dtypes=FLOATING, inplace="ops.aten.rrelu_with_noise_"),
    OpInfo("rrelu_with_noise_backward", variants=("ops.aten.rrelu_with_noise_backward",),
           ref=_rrelu_backward_ref, sample_inputs=sample_rrelu_backward, dtypes=FLOATING),
]
