"""In-place samplers: uniform_, normal_, random_, exponential_, geometric_, log_normal_,
cauchy_ (bernoulli_ lives in `sampling.py`).

Each fills `self` with draws from `generator` (or `torch.default_generator`), taking
exactly the raw words torch's CPU kernels take, in the same order, so seeded
programs see torch's numbers (`random_bits.py` has the transformations). The meta
rule checks the arguments first, with torch's messages, so a refused call neither
writes nor draws. None of them is differentiable: the result does not depend on
the old values of `self` (derivatives.yaml: ``self: zeros_like(grad)``).
"""
from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ....c10.generator import generator_or_default
from ...meta.shape import check_no_internal_overlap
from ...backends import register_meta
from ...registry import TensorMeta, op
from . import bits
from .normal import normal_fill

FLOATING = (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)
INTEGRAL = (dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64)
ZERO_GRAD = {"self": "zeros_like(grad)"}


def number(value: float) -> str:
    """A double as C++'s ostream prints it (6 significant digits): torch's messages."""
    return f"{value:g}"


def not_implemented(kernel: str, dtype) -> NotImplementedError:
    """torch's refusal of a dtype its kernel was not compiled for."""
    return NotImplementedError(f'"{kernel}" not implemented for \'{scalar_type_name(dtype)}\'')


def python_float(value: float) -> str:
    """A float as Python prints it (``-1.0``), as torch's meta-tensor checks do."""
    return repr(float(value))


def same_as_self(self, *args, **options) -> TensorMeta:
    """`self` as it is: the Meta registration of the samplers whose meta functions (torch's
    meta kernels for random ops are Python decompositions) check nothing."""
    return TensorMeta(self._size, self._dtype, self._stride)


def sampler_meta(self, kernel: str, accepted: tuple) -> TensorMeta:
    """Shared by every in-place sampler: `self` unchanged in shape, dtype and strides,
    of a dtype the kernel handles, with no element written twice."""
    if self._dtype not in accepted:
        raise not_implemented(kernel, self._dtype)
    check_no_internal_overlap(self)
    return TensorMeta(self._size, self._dtype, self._stride)


def largest_value(dtype) -> float:
    """The largest finite value of a floating dtype (ml_dtypes knows bfloat16's too)."""
    return float(ml_dtypes.finfo(dtype._np).max)


def real_view(out: np.ndarray) -> np.ndarray:
    """A complex array as real pairs (torch's view_as_real), any other array as is."""
    if out.dtype.kind != "c" and out.dtype != dtypes.COMPLEX32_PAIR:
        return out
    # complex32's pairs: Note [complex32 as float16 pairs]
    real = out["real"] if out.dtype == dtypes.COMPLEX32_PAIR else out.real
    return np.lib.stride_tricks.as_strided(real, real.shape + (2,),
                                           real.strides + (real.itemsize,))


def dtype_of(array: np.ndarray):
    return dtypes.from_numpy_dtype(array.dtype)


# ----------------------------------------------------------------------------------
# uniform_
# ----------------------------------------------------------------------------------
def _uniform_meta(self, from_=0.0, to=1.0, generator=None):
    dtype = self._dtype.to_real() if self._dtype.is_complex else self._dtype
    if dtype not in FLOATING:
        raise not_implemented("check_uniform_bounds", dtype)
    largest = largest_value(dtype)
    for name, value in (("from", from_), ("to", to)):
        if not -largest <= value <= largest:
            raise RuntimeError(f"{name} is out of bounds for {type_meta_name(dtype)}")
    if from_ > to:
        raise RuntimeError(f"uniform_ expects to return a [from, to) range, but found "
                           f"from={number(from_)} > to={number(to)}")
    if to - from_ > largest:
        raise RuntimeError(f"uniform_ expects to-from <= std::numeric_limits<"
                           f"{scalar_type_name(dtype)}>::max(), but found to={number(to)} and "
                           f"from={number(from_)} which result in to-from to exceed the limit")
    check_no_internal_overlap(self)
    return TensorMeta(self._size, self._dtype, self._stride)


@op("uniform_(Tensor(a!) self, float from=0, float to=1, *, Generator? generator=None) "
    "-> Tensor(a!)", meta=_uniform_meta, method=True, function=False, grad=ZERO_GRAD)
def uniform_(self, from_, to, generator, *, out):
    """Fill `self` with numbers drawn uniformly from [from, to).

    Args:
        from: the lower bound (included).
        to: the upper bound (excluded).
        generator: the source of randomness (default: `torch.default_generator`).

    Returns:
        `self`. Complex tensors get independent real and imaginary parts.

    Example::

        >>> torch.manual_seed(0)
        >>> torch.empty(3).uniform_(-1, 1)
        tensor([-0.0075,  0.5364, -0.8230])
    """
    fill_uniform(out, from_, to, generator)


register_meta(uniform_, same_as_self)


def fill_uniform(out: np.ndarray, from_: float, to: float, generator) -> None:
    """Uniform draws from [from, to) into `out` (complex: real and imaginary parts)."""
    target = real_view(out)
    values = bits.uniform_real(generator_or_default(generator), target.size,
                               dtype_of(target), from_, to)
    bits.fill_in_memory_order(target, values)


# ----------------------------------------------------------------------------------
# normal_
# ----------------------------------------------------------------------------------
def check_std(std: float, show=number) -> None:
    """`show` prints the number: as torch's kernel (C++), or its meta function (Python)."""
    if not std >= 0.0:
        raise RuntimeError(f"normal expects std >= 0.0, but found std {show(std)}")


def check_std_on_meta(std: float, dtype) -> None:
    """normal's checks as torch words them for meta tensors."""
    check_std(std, python_float)
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"expected a floating-point or complex dtype, but got dtype={dtype}")


def _normal_meta(self, mean=0.0, std=1.0, generator=None):
    check_std(std)
    dtype = self._dtype.to_real() if self._dtype.is_complex else self._dtype
    if dtype not in FLOATING:
        raise not_implemented("normal_kernel_cpu", dtype)
    check_no_internal_overlap(self)
    return TensorMeta(self._size, self._dtype, self._stride)


def fill_normal(out: np.ndarray, mean: float, std: float, generator) -> None:
    """ATen's normal kernel: blocks of 16 for contiguous tensors of 16 or more elements,
    one at a time (in memory order, with the cached sample) otherwise. A complex `out`
    is filled as real pairs, each part of standard deviation std / sqrt(2)."""
    generator = generator_or_default(generator)
    if out.dtype.kind == "c" or out.dtype == dtypes.COMPLEX32_PAIR:
        out, std = real_view(out), std / math.sqrt(2)
    if out.size >= 16 and out.flags.c_contiguous:
        out.reshape(-1)[...] = normal_fill(generator, out.size, mean, std, dtype_of(out))
    else:
        bits.fill_in_memory_order(out, bits.normal_scalar_path(generator, out.size, mean, std))


@op("normal_(Tensor(a!) self, float mean=0, float std=1, *, Generator? generator=None) "
    "-> Tensor(a!)", meta=_normal_meta, method=True, function=False, grad=ZERO_GRAD)
def normal_(self, mean, std, generator, *, out):
    """Fill `self` with draws from the normal distribution N(mean, std**2).

    Args:
        mean: the mean.
        std: the standard deviation (>= 0). A complex tensor gets real and
            imaginary parts of standard deviation std / sqrt(2) each.
        generator: the source of randomness (default: `torch.default_generator`).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.empty(3).normal_()
        tensor([ 1.5410, -0.2934, -2.1788])
    """
    fill_normal(out, mean, std, generator)


@register_meta(normal_)
def _normal_meta_key(self, mean=0.0, std=1.0, generator=None):
    check_std_on_meta(std, self._dtype)
    return same_as_self(self)


# ----------------------------------------------------------------------------------
# random_
# ----------------------------------------------------------------------------------
def _round_trip(value: int, dtype) -> int:
    """int64 -> dtype -> int64, as C++'s casts do (saturating where C++ is undefined)."""
    with np.errstate(over="ignore"):            # float16: beyond its range is inf
        converted = float(np.array(value, np.int64).astype(dtype._np).astype(np.float64))
    return int(max(min(converted, 2.0 ** 63 - 1024), -2.0 ** 63))


def _update_from(from_: int, dtype) -> int:
    """The smallest `from` representable in a float dtype (ATen's update_from)."""
    rounded = _round_trip(from_ + 1, dtype)
    if rounded < from_:
        n = abs(from_ + 1).bit_length() - 1
        from_ = rounded + (1 << (n - bits.MANTISSA_DIGITS[dtype] + 1))
    return from_


def _update_to(to: int, dtype) -> int:
    """The largest `to` representable in a float dtype (ATen's update_to)."""
    rounded = _round_trip(to - 1, dtype)
    if rounded >= to:
        n = abs(to - 1).bit_length() - 1
        to = rounded - (1 << (n - bits.MANTISSA_DIGITS[dtype] + 1))
    return to


def _dtype_limits(dtype) -> tuple:
    if dtype is dtypes.bool:
        return 0, 1
    if dtype.is_floating_point:
        return -largest_value(dtype), largest_value(dtype)
    if dtype is dtypes.uint64:
        return 0, 2 ** 63 - 1
    info = np.iinfo(dtype._np)
    return int(info.min), int(info.max)


def _check_in_range(from_: int, to_inclusive: int, dtype) -> None:
    """ATen's check_from_to_in_range (and its precision warning for float dtypes)."""
    if dtype.is_complex:
        raise RuntimeError("check_random_bounds handles only integral, floating-point and "
                           "boolean types")
    low, high = _dtype_limits(dtype)
    for name, value in (("from", from_), ("to - 1", to_inclusive)):
        if not low <= value <= high:
            raise RuntimeError(f"{name} is out of bounds for {type_meta_name(dtype)}")
    if dtype.is_floating_point:
        import warnings
        digits = bits.MANTISSA_DIGITS[dtype]
        for name, value in (("from", from_), ("to - 1", to_inclusive)):
            if value < -(1 << digits) or value > (1 << digits):
                warnings.warn(
                    f"{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision "
                    f"limitations {type_meta_name(dtype)} can support discrete uniform "
                    f"distribution only within this range. This warning will become an error "
                    f"in version 1.7 release, please fix the code in advance", UserWarning,
                    stacklevel=5)


def random_plan(dtype, from_: int, to) -> tuple:
    """(range, base) of the integers random_(from, to) draws, checked as ATen checks them.

    `range` is None for the full int64 range (from = -2**63, no `to`).
    """
    int64_min = -(1 << 63)
    if to is not None:
        if from_ >= to:
            raise RuntimeError(f"random_ expects 'from' to be less than 'to', but got "
                               f"from={from_} >= to={to}")
        if dtype.is_floating_point:
            from_, to = _update_from(from_, dtype), _update_to(to, dtype)
            if from_ >= to:
                raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than "
                                   f"'to' casted to dtype, but got from={from_} >= to={to}")
        _check_in_range(from_, to - 1, dtype)
        return to - from_, from_
    if from_ == int64_min:
        return None, from_
    if dtype.is_floating_point:
        to_inclusive = 1 << bits.MANTISSA_DIGITS[dtype]
        from_ = _update_from(from_, dtype)
        if from_ >= to_inclusive:
            raise RuntimeError(f"random_ expects 'from' casted to dtype to be less than or equal "
                               f"to 'to_inc' casted to dtype, but got from={from_} > "
                               f"to_inc={to_inclusive}")
    elif dtype.is_complex:
        raise RuntimeError("random_from_to_impl handles only integral, floating-point and "
                           "boolean types")
    else:
        to_inclusive = _dtype_limits(dtype)[1]
    _check_in_range(from_, to_inclusive, dtype)
    return to_inclusive - from_ + 1, from_


_RANDOM_DTYPES = (dtypes.bool,) + INTEGRAL + FLOATING
_FROM_TO_DTYPES = _RANDOM_DTYPES + (dtypes.uint16, dtypes.uint32, dtypes.uint64)


def _random_from_meta(self, from_, to, generator=None):
    random_plan(self._dtype, from_, to)
    if self._dtype not in _FROM_TO_DTYPES:
        raise not_implemented("random_from_to_kernel_cpu", self._dtype)
    check_no_internal_overlap(self)
    return TensorMeta(self._size, self._dtype, self._stride)


def fill_random(out: np.ndarray, from_: int, to, generator) -> None:
    """Integers in [from, to) (or the dtype's whole range when `to` is None) into `out`."""
    dtype = dtype_of(out)
    range_, base = random_plan(dtype, from_, to)
    generator = generator_or_default(generator)
    if range_ is None:
        values = bits.uniform_int_full_range(generator, out.size)
    else:
        values = bits.uniform_int_from_to(generator, out.size, range_, base)
    bits.fill_in_memory_order(out, values)


@op("random_.from(Tensor(a!) self, int from, int? to, *, Generator? generator=None) "
    "-> Tensor(a!)", meta=_random_from_meta, method=True, function=False, grad=ZERO_GRAD)
def random_from(self, from_, to, generator, *, out):
    """Fill `self` with integers drawn uniformly from [from, to).

    Args:
        from: the lowest value (included).
        to: one past the highest value; None means up to the largest value the dtype
            holds exactly (2**mantissa bits for floating dtypes).
        generator: the source of randomness (default: `torch.default_generator`).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.empty(4, dtype=torch.int64).random_(3, 10)
        tensor([7, 6, 3, 5])
    """
    fill_random(out, from_, to, generator)


@op("random_.to(Tensor(a!) self, int to, *, Generator? generator=None) -> Tensor(a!)",
    meta=lambda self, to, generator=None: _random_from_meta(self, 0, to, generator),
    method=True, function=False, grad=ZERO_GRAD)
def random_to(self, to, generator, *, out):
    """Fill `self` with integers drawn uniformly from [0, to); see `random_.from`."""
    fill_random(out, 0, to, generator)


register_meta(random_from, same_as_self)
register_meta(random_to, same_as_self)


def _random_meta(self, generator=None):
    return sampler_meta(self, "random_kernel_cpu", _RANDOM_DTYPES)


@op("random_(Tensor(a!) self, *, Generator? generator=None) -> Tensor(a!)",
    meta=_random_meta, method=True, function=False, grad=ZERO_GRAD)
def random_(self, generator, *, out):
    """Fill `self` with integers from [0, max]: the dtype's largest value for integer
    dtypes, 2**mantissa bits for floating ones (every integer they hold exactly).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.empty(2, dtype=torch.int16).random_()
        tensor([ 2732, 10799], dtype=torch.int16)
    """
    values = bits.uniform_int(generator_or_default(generator), out.size, dtype_of(out))
    bits.fill_in_memory_order(out, values)


register_meta(random_, same_as_self)


# ----------------------------------------------------------------------------------
# exponential_, geometric_, log_normal_, cauchy_: one uniform double per element
# ----------------------------------------------------------------------------------
def _continuous_only(self, name: str) -> None:
    """exponential_ and cauchy_ word their dtype refusal themselves."""
    if self._dtype not in FLOATING:
        shown = type_meta_name(self._dtype) if name == "Cauchy" else \
            scalar_type_name(self._dtype)
        raise RuntimeError(f"{name} distribution is a continuous probability distribution. "
                           f"dtype must be a floating point but you specified {shown}")


def _continuous_only_on_meta(self, name: str) -> None:
    """The refusal in the words of torch's meta functions."""
    if self._dtype not in FLOATING:
        raise RuntimeError(f"{name} distribution is a continuous probability distribution."
                           f"         dtype must be a floating point but you specified "
                           f"{self._dtype}")


def _check_lambd(lambd: float, show=number) -> None:
    if not (lambd > 0.0 and not math.isnan(lambd)):
        raise RuntimeError(f"exponential_ expects lambda > 0.0, but found lambda={show(lambd)}")


def _exponential_meta(self, lambd=1.0, generator=None):
    _check_lambd(lambd)
    _continuous_only(self, "Exponential")
    return sampler_meta(self, "exponential_cpu", FLOATING)


@op("exponential_(Tensor(a!) self, float lambd=1, *, Generator? generator=None) -> Tensor(a!)",
    meta=_exponential_meta, method=True, function=False, grad=ZERO_GRAD)
def exponential_(self, lambd, generator, *, out):
    """Fill `self` with draws from the exponential distribution of rate `lambd`.

    Example::

        >>> torch.manual_seed(0)
        >>> torch.empty(3).exponential_()
        tensor([3.5083, 1.2304, 0.6150])
    """
    values = bits.exponential(generator_or_default(generator), out.size, lambd)
    bits.fill_in_memory_order(out, values)


@register_meta(exponential_)
def _exponential_meta_key(self, lambd=1.0, generator=None):
    _check_lambd(lambd, python_float)
    _continuous_only_on_meta(self, "Exponential")
    return same_as_self(self)


def _check_p(p: float, show=number) -> None:
    if not 0 < p < 1:
        raise RuntimeError(f"geometric_ expects p to be in (0, 1), but got p={show(p)}")


def _geometric_meta(self, p, generator=None):
    _check_p(p)
    return sampler_meta(self, "geometric_cpu", INTEGRAL + FLOATING)


def _meta_dtype_check(self, name: str, accepted: tuple) -> TensorMeta:
    if self._dtype not in accepted:
        raise RuntimeError(f"{name} not implemented for {self._dtype}")
    return same_as_self(self)


@op("geometric_(Tensor(a!) self, float p, *, Generator? generator=None) -> Tensor(a!)",
    meta=_geometric_meta, method=True, function=False, grad=ZERO_GRAD)
def geometric_(self, p, generator, *, out):
    """Fill `self` with the number of Bernoulli(p) trials up to the first success.

    Example::

        >>> torch.manual_seed(0)
        >>> torch.empty(4).geometric_(0.5)
        tensor([1., 1., 2., 1.])
    """
    values = bits.geometric(generator_or_default(generator), out.size, p)
    bits.fill_in_memory_order(out, values)


@register_meta(geometric_)
def _geometric_meta_key(self, p, generator=None):
    _check_p(p, python_float)
    return _meta_dtype_check(self, "geometric", INTEGRAL + FLOATING)


def _check_log_normal_std(std: float, show=number) -> None:
    if not std > 0.0:
        raise RuntimeError(f"log_normal_ expects std > 0.0, but found std={show(std)}")


def _log_normal_meta(self, mean=1.0, std=2.0, generator=None):
    _check_log_normal_std(std)
    return sampler_meta(self, "log_normal_cpu", FLOATING)


@op("log_normal_(Tensor(a!) self, float mean=1, float std=2, *, Generator? generator=None) "
    "-> Tensor(a!)", meta=_log_normal_meta, method=True, function=False, grad=ZERO_GRAD)
def log_normal_(self, mean, std, generator, *, out):
    """Fill `self` with exp(N(mean, std**2)) draws (one at a time, as normal_'s small path).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.empty(2).log_normal_(0, 0.5)
        tensor([2.1608, 0.8635])
    """
    values = bits.log_normal(generator_or_default(generator), out.size, mean, std)
    bits.fill_in_memory_order(out, values)


@register_meta(log_normal_)
def _log_normal_meta_key(self, mean=1.0, std=2.0, generator=None):
    _check_log_normal_std(std, python_float)
    return _meta_dtype_check(self, "log_normal", FLOATING)


def _check_sigma(sigma: float, show=number) -> None:
    if not sigma > 0.0:
        raise RuntimeError(f"cauchy_ expects sigma > 0.0, but found sigma={show(sigma)}")


def _cauchy_meta(self, median=0.0, sigma=1.0, generator=None):
    _check_sigma(sigma)
    _continuous_only(self, "Cauchy")
    return sampler_meta(self, "cauchy_cpu", FLOATING)


@op("cauchy_(Tensor(a!) self, float median=0, float sigma=1, *, Generator? generator=None) "
    "-> Tensor(a!)", meta=_cauchy_meta, method=True, function=False, grad=ZERO_GRAD)
def cauchy_(self, median, sigma, generator, *, out):
    """Fill `self` with draws from the Cauchy distribution (location `median`, scale `sigma`).

    Example::

        >>> torch.manual_seed(0)
        >>> torch.empty(2).cauchy_()
        tensor([10.5977,  0.7648])
    """
    values = bits.cauchy(generator_or_default(generator), out.size, median, sigma)
    bits.fill_in_memory_order(out, values)


@register_meta(cauchy_)
def _cauchy_meta_key(self, median=0.0, sigma=1.0, generator=None):
    _check_sigma(sigma, python_float)
    _continuous_only_on_meta(self, "Cauchy")
    return same_as_self(self)
