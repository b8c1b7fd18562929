"""Samplers that read tensors: bernoulli, normal with tensor mean/std, poisson, multinomial.

As in `random.py`, each draws exactly the raw words torch's CPU kernel draws, in its
order: results are filled in memory order (a TensorIterator's), and a tensor of
probabilities or rates is read at the element each draw lands on. Probabilities and
rates are checked by the kernels (the values are theirs: the Meta key has none) before
anything is drawn or written (torch checks them while it fills, so a refused call of
torch has already consumed draws: glasstorch does not).
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.generator import generator_or_default
from ....c10.promotion import promote_types
from ...allocation import resize_tensor
from ...backends import register_meta
from ...meta.shape import broadcast_shapes, check_no_internal_overlap
from ...registry import TensorMeta, check_castable, op
from . import bits
from .fill import (FLOATING, INTEGRAL, ZERO_GRAD, check_std, check_std_on_meta, dtype_of,
                   fill_normal, not_implemented, number, same_as_self, sampler_meta)
from .multinomial import check_probabilities, draw_multinomial
from .poisson import sample_poisson
from .factories import TENSOR_OPTIONS, randn_meta
from ..shape.view import expand

_BERNOULLI_SELF = (dtypes.bool,) + INTEGRAL + FLOATING
_P_RANGE_ERROR = ("Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could this "
                  "error message be improved?  If so, please report an enhancement request "
                  "to PyTorch.)")


def _values_checked(values: np.ndarray, message: str, valid) -> None:
    """A kernel's check: refuse an element failing `valid`."""
    if values.size and not valid(values).all():
        raise RuntimeError(message)


# ----------------------------------------------------------------------------------
# bernoulli
# ----------------------------------------------------------------------------------
def _check_bernoulli_dtypes(self, p) -> None:
    if self._dtype not in _BERNOULLI_SELF:
        raise not_implemented("bernoulli_tensor_cpu_self_", self._dtype)
    expand.call(p, self._size, False)
    if p._dtype not in FLOATING:
        raise not_implemented("bernoulli_tensor_cpu_p_", p._dtype)


def _bernoulli_tensor_meta(self, p, generator=None):
    _check_bernoulli_dtypes(self, p)
    check_no_internal_overlap(self)
    return TensorMeta(self._size, self._dtype, self._stride)


def fill_bernoulli_tensor(out: np.ndarray, p: np.ndarray, generator) -> None:
    """1 where a uniform draw falls below p (broadcast to `out`), element by element in
    memory order. A double p is compared with a 53-bit double draw, any other p (as a
    float) with a 24-bit float draw."""
    _values_checked(p, _P_RANGE_ERROR, lambda a: (a >= 0) & (a <= 1))
    generator = generator_or_default(generator)
    view, axes = bits.memory_order_with_axes(out)
    probabilities = np.broadcast_to(p, out.shape).transpose(axes).reshape(-1)
    if p.dtype == np.float64:
        draws = bits.uniform_double(generator, out.size)
    else:
        draws = bits.unit_uniform(generator, out.size, dtypes.float32)
        probabilities = probabilities.astype(np.float32)
    view[...] = (draws < probabilities).reshape(view.shape)


@op("bernoulli_.Tensor(Tensor(a!) self, Tensor p, *, Generator? generator=None) -> Tensor(a!)",
    meta=_bernoulli_tensor_meta, method=True, function=False,
    grad={"self": "zeros_like(grad)", "p": "zeros_like(p)"})
def bernoulli_tensor_(self, p, generator, *, out):
    """Fill `self` with 1 (probability p, broadcast to `self`) or 0, element by element.

    Example::

        >>> torch.manual_seed(0)
        >>> torch.empty(4).bernoulli_(torch.tensor([0.1, 0.9, 0.5, 0.5]))
        tensor([0., 1., 1., 1.])
    """
    fill_bernoulli_tensor(out, p, generator)


register_meta(bernoulli_tensor_, same_as_self)      # torch's meta function checks nothing


def _bernoulli_float_meta(self, p=0.5, generator=None):
    if not 0 <= p <= 1:
        raise RuntimeError(f"bernoulli_ expects p to be in [0, 1], but got p={number(p)}")
    return sampler_meta(self, "bernoulli_scalar_cpu_", _BERNOULLI_SELF)


def fill_bernoulli_scalar(out: np.ndarray, p: float, generator) -> None:
    """1 where a uniform double falls below `p`, in memory order (the kernel torch uses
    on non-Intel CPUs; on Intel ones it samples through MKL instead)."""
    kept = bits.uniform_double_below(generator_or_default(generator), out.size, p)
    bits.fill_in_memory_order(out, kept)


@op("bernoulli_.float(Tensor(a!) self, float p=0.5, *, Generator? generator=None) "
    "-> Tensor(a!)", meta=_bernoulli_float_meta, method=True, function=False, grad=ZERO_GRAD)
def bernoulli_float_(self, p, generator, *, out):
    """Fill `self` with 1 (probability `p`) or 0.

    Example::

        >>> torch.manual_seed(0)
        >>> torch.empty(4).bernoulli_(0.5)
        tensor([0., 0., 1., 0.])
    """
    fill_bernoulli_scalar(out, p, generator)


register_meta(bernoulli_float_, same_as_self)


def _bernoulli_meta(self, generator=None, out=None):
    _check_bernoulli_dtypes(self, self)        # the draws go to a fresh tensor: any layout
    return _bernoulli_result(self, generator, out)


def _bernoulli_result(self, generator=None, out=None):
    """An out= tensor of any dtype bernoulli_ fills is taken as it is, resized quietly."""
    if out is not None:
        check_no_internal_overlap(out)
        if self.numel() and out._dtype not in _BERNOULLI_SELF:
            raise not_implemented("bernoulli_tensor_cpu_self_", out._dtype)
    return _resized_quietly(out, self._size, self._dtype)


def _resized_quietly(out, size: tuple, dtype) -> TensorMeta:
    """The result of an op whose out= torch resizes itself (``resize_``, no warning),
    in the out= tensor's own dtype."""
    if out is None:
        return TensorMeta(size, dtype)
    if out._size != size:
        resize_tensor(out, size)
    return TensorMeta(size, out._dtype)


@op("bernoulli(Tensor self, *, Generator? generator=None) -> Tensor", meta=_bernoulli_meta,
    method=True, out=True, grad=ZERO_GRAD)
def bernoulli(self, generator, *, out):
    """0/1 draws, 1 with the probability held in each element of `input`.

    Args:
        input: probabilities in [0, 1]; the result has its shape and dtype.
        p: one probability for every element instead (``torch.bernoulli(input, p)``).
        generator: the source of randomness (default: `torch.default_generator`).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.bernoulli(torch.tensor([0.1, 0.9, 0.5, 0.5]))
        tensor([0., 1., 1., 1.])
    """
    fill_bernoulli_tensor(out, self, generator)


register_meta(bernoulli, _bernoulli_result)


def _bernoulli_p_meta(self, p, generator=None):
    _bernoulli_float_meta(self, p)
    return _bernoulli_p_result(self, p)


def _bernoulli_p_result(self, p, generator=None):
    return TensorMeta(self._size, self._dtype)


@op("bernoulli.p(Tensor self, float p, *, Generator? generator=None) -> Tensor",
    meta=_bernoulli_p_meta, method=True, grad=ZERO_GRAD)
def bernoulli_p(self, p, generator, *, out):
    """0/1 draws shaped like `input`, 1 with probability `p`; see `bernoulli`."""
    fill_bernoulli_scalar(out, p, generator)


register_meta(bernoulli_p, _bernoulli_p_result)


# ----------------------------------------------------------------------------------
# normal: tensor mean and/or std (normal_(0, std or 1), then scale and shift), or numbers
# and a size. Declared in the order torch's bindings try them: tensors first.
# ----------------------------------------------------------------------------------
def _check_std_tensor(std) -> None:
    """torch's kernel check (its meta function has none); the values are the kernels'
    (`_check_std_values`)."""
    if std._dtype.is_complex:
        raise RuntimeError("normal expects standard deviation to be non-complex")


def _check_std_values(std: np.ndarray) -> None:
    _values_checked(std, "normal expects all elements of std >= 0.0", lambda a: a >= 0)


def _normal_result(shape: tuple, dtype, out, operand) -> TensorMeta:
    """The result of normal: `shape`, in the out= tensor's dtype if there is one (the
    sampler fills whatever it is given, refusing dtypes it has no kernel for). An empty
    result draws nothing, so torch's first refusal is then the in-place scale or shift
    by the tensor `operand`."""
    dtype = out._dtype if out is not None else dtype
    if 0 in shape:
        check_castable(operand._dtype, dtype)
    if 0 not in shape and dtype not in FLOATING and not dtype.is_complex:
        raise not_implemented("normal_kernel_cpu", dtype)
    return TensorMeta(shape, dtype)


def _broadcast_on_meta(shape: tuple, other: tuple) -> tuple:
    """Broadcast as torch's meta decomposition does, with its message."""
    common = [1] * max(len(other) - len(shape), 0) + list(shape)
    for index in range(-1, -len(other) - 1, -1):
        if common[index] == 1:
            common[index] = other[index]
        elif other[index] not in (1, common[index]):
            raise RuntimeError(f"Attempting to broadcast a dimension of length {other[index]} "
                               f"at {index}! Mismatching argument at index 1 had "
                               f"torch.Size({list(other)}); but expected shape should be "
                               f"broadcastable to {common}")
    return tuple(common)


def _in_dtype(result: np.ndarray, other: np.ndarray, operation) -> None:
    """result = operation(result, other), computed as an in-place torch op computes it:
    in the promoted dtype (float for half/bfloat16), rounded once to `result`'s dtype."""
    compute = promote_types(dtype_of(result), dtype_of(np.asarray(other)))
    if compute in (dtypes.float16, dtypes.bfloat16):
        compute = dtypes.float32
    value = operation(result.astype(compute._np), np.asarray(other).astype(compute._np))
    result[...] = value


def _normal_tensor_tensor_meta(mean, std, generator=None, out=None):
    _check_std_tensor(std)
    shape = broadcast_shapes(mean._size, std._size)
    return _normal_result(shape, mean._dtype, out, std)


@op("normal.Tensor_Tensor(Tensor mean, Tensor std, *, Generator? generator=None) -> Tensor",
    meta=_normal_tensor_tensor_meta, out=True,
    grad={"mean": "grad.new_zeros(mean.shape)", "std": "grad.new_zeros(std.shape)"})
def normal_tensor_tensor(mean, std, generator, *, out):
    """Draws from normal distributions: element-wise means and standard deviations.

    Args:
        mean: a tensor of means, or one number.
        std: a tensor of standard deviations (>= 0), or one number.
        size: the result's size, when both are numbers.
        generator: the source of randomness (default: `torch.default_generator`).

    Tensor arguments broadcast together; the result has `mean`'s dtype (`std`'s when
    `mean` is a number). The draws are those of ``normal_()`` scaled by `std` and
    shifted by `mean` (``normal_(0, std)`` when `std` is a number).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.normal(torch.tensor([0., 10., 100.]), 1.0)
        tensor([ 1.5410,  9.7066, 97.8212])
    """
    _check_std_values(std)
    fill_normal(out, 0.0, 1.0, generator)
    _in_dtype(out, std, np.multiply)
    _in_dtype(out, mean, np.add)


@register_meta(normal_tensor_tensor)
def _normal_tensor_tensor_meta_key(mean, std, generator=None, out=None):
    return _normal_result(_broadcast_on_meta(mean._size, std._size), mean._dtype, out, std)


def _normal_tensor_float_meta(mean, std=1.0, generator=None, out=None):
    check_std(std)
    # torch sizes out= as mean broadcast with out's own shape
    shape = mean._size if out is None else broadcast_shapes(mean._size, out._size)
    return _normal_result(shape, mean._dtype, out, mean)


@op("normal.Tensor_float(Tensor mean, float std=1, *, Generator? generator=None) -> Tensor",
    meta=_normal_tensor_float_meta, out=True,
    grad={"mean": "grad.new_zeros(mean.shape)"})
def normal_tensor_float(mean, std, generator, *, out):
    """Normal draws, one per element of `mean`, all with standard deviation `std`."""
    fill_normal(out, 0.0, std, generator)
    _in_dtype(out, mean, np.add)


@register_meta(normal_tensor_float)
def _normal_tensor_float_meta_key(mean, std=1.0, generator=None, out=None):
    check_std_on_meta(std, mean._dtype)
    return _normal_tensor_float_meta(mean, std, generator, out)


def _normal_float_tensor_meta(mean, std, generator=None, out=None):
    _check_std_tensor(std)
    return _normal_float_tensor_result(mean, std, generator, out)


def _normal_float_tensor_result(mean, std, generator=None, out=None):
    return _normal_result(std._size, std._dtype, out, std)


@op("normal.float_Tensor(float mean, Tensor std, *, Generator? generator=None) -> Tensor",
    meta=_normal_float_tensor_meta, out=True, grad={"std": "grad.new_zeros(std.shape)"})
def normal_float_tensor(mean, std, generator, *, out):
    """Normal draws with mean `mean` and one standard deviation per element of `std`."""
    _check_std_values(std)
    fill_normal(out, 0.0, 1.0, generator)
    _in_dtype(out, std, np.multiply)
    _in_dtype(out, np.asarray(mean).astype(out.dtype), np.add)


register_meta(normal_float_tensor, _normal_float_tensor_result)


def _normal_size_meta(mean, std, size, generator=None, dtype=None, layout=None, device=None,
                      pin_memory=None, out=None):
    check_std(std)
    return randn_meta(size, dtype, layout, device, pin_memory, out)


@op("normal.float_float(float mean, float std, SymInt[] size, *, Generator? generator=None, "
    f"{TENSOR_OPTIONS}) -> Tensor", meta=_normal_size_meta, out=True)
def normal_float_float(mean, std, size, generator, dtype, layout, device, pin_memory, *, out):
    """Draws from N(mean, std**2) in a new tensor of `size`; see `torch.normal`."""
    fill_normal(out, mean, std, generator)


# ----------------------------------------------------------------------------------
# poisson
# ----------------------------------------------------------------------------------
def _poisson_meta(self, generator=None):
    if self._dtype not in FLOATING:
        raise not_implemented("poisson_cpu", self._dtype)
    return _poisson_result(self)


def _poisson_result(self, generator=None):
    return TensorMeta(self._size, self._dtype)


@op("poisson(Tensor self, Generator? generator=None) -> Tensor", meta=_poisson_meta,
    grad={"self": "zeros_like(self)"})
def poisson(self, generator, *, out):
    """Draws from Poisson distributions, one per element of `input` (the rates).

    Rates below 10 multiply uniforms until the product drops below exp(-rate);
    larger ones use Hoermann's transformed rejection (PTRS), as torch's CPU kernel.

    Example::

        >>> torch.manual_seed(0)
        >>> torch.poisson(torch.tensor([1., 4., 20.]))
        tensor([ 2.,  5., 17.])
    """
    _values_checked(self, "invalid Poisson rate, expected rate to be non-negative",
                    lambda a: a >= 0)
    rates = np.ascontiguousarray(self, dtype=np.float64).reshape(-1)
    counts = sample_poisson(generator_or_default(generator), rates)
    out.reshape(-1)[...] = bits.narrowed(counts, out.dtype)


register_meta(poisson, _poisson_result)


# ----------------------------------------------------------------------------------
# multinomial
# ----------------------------------------------------------------------------------
def _multinomial_meta(self, num_samples, replacement=False, generator=None, out=None):
    _check_long_out(out)
    if self.dim() not in (1, 2):
        raise RuntimeError("prob_dist must be 1 or 2 dim")
    if not self._dtype.is_floating_point:
        raise RuntimeError(f"multinomial only supports floating-point dtypes for input, got: "
                           f"{dtypes.scalar_type_name(self._dtype)}")
    if num_samples <= 0:
        raise RuntimeError("cannot sample n_sample <= 0 samples")
    categories = self._size[-1]
    if not replacement and num_samples > categories:
        raise RuntimeError("cannot sample n_sample > prob_dist.size(-1) samples without "
                           "replacement")
    if categories > 2 ** 24:
        raise RuntimeError("number of categories cannot exceed 2^24")
    return _resized_quietly(out, self._size[:-1] + (num_samples,), dtypes.int64)


def _check_long_out(out) -> None:
    if out is not None and out._dtype is not dtypes.int64:
        raise RuntimeError(f"multinomial expects Long tensor out, got: "
                           f"{dtypes.scalar_type_name(out._dtype)}")


@op("multinomial(Tensor self, SymInt num_samples, bool replacement=False, *, "
    "Generator? generator=None) -> Tensor", meta=_multinomial_meta, method=True, out=True)
def multinomial(self, num_samples, replacement, generator, *, out):
    """Indices drawn from the categorical distributions in the rows of `input`.

    Args:
        input: non-negative weights (1-D, or 2-D: one distribution per row); they need
            not sum to 1.
        num_samples: how many indices to draw per row.
        replacement: whether an index may be drawn more than once.
        generator: the source of randomness (default: `torch.default_generator`).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.multinomial(torch.tensor([0.1, 0.2, 0.7]), 2)
        tensor([2, 1])
    """
    check_probabilities(self, num_samples, replacement)
    draw_multinomial(self, num_samples, replacement, generator_or_default(generator), out)


@register_meta(multinomial)
def _multinomial_meta_key(self, num_samples, replacement=False, generator=None, out=None):
    _check_long_out(out)
    if self.dim() not in (1, 2):
        raise RuntimeError(f"The probability distributions dimensions must be 1 or 2, but "
                           f"got {self.dim()}")
    return TensorMeta(self._size[:-1] + (num_samples,), dtypes.int64)
