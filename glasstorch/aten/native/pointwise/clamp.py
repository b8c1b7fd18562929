"""Limits and the floating-point representation: clamp/clip, clamp_min, clamp_max, relu,
nan_to_num, nextafter, frexp, ldexp.

`clamp` has two families of overloads, as in torch, and they promote differently:
  * ``clamp.Tensor`` (tensor bounds) is an ordinary elementwise operator over three
    operands: the bounds take part in promotion as tensors do.
  * ``clamp`` (number bounds) promotes like TensorIterator's "unary op on a converted
    self": a number bound lifts the result only to its own category (an integer tensor
    clamped by 0.5 gives the default float; a bool one clamped by 1 gives int64), never
    above floating (complex is refused). Bounds are then converted to the result dtype
    with torch's overflow check, and out= must be of exactly that dtype.
Python calls with tensor bounds reach the Tensor overload (declared first; it takes no
numbers); a number among the bounds selects the number overload, as in torch.

Semantics shared by every clamp: the input is kept unless strictly beyond a bound (so
-0.0 stays -0.0), a NaN input stays NaN, a NaN bound gives NaN, and when min > max
every element becomes max.
"""
from __future__ import annotations

import functools
import math
import types

import ml_dtypes
import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import from_numpy_dtype, scalar_type_name, type_meta_name
from ....c10.promotion import result_type_of
from ....c10.tensor_impl import TensorBase
from ...derivatives import derivative_helper
from ...meta.pointwise import Promotion, elementwise_meta, result_and_compute
from ...parallel import SPLIT_SIZE
from ...pointwise import DtypeRefusal, pointwise, to_compute_scalar, zero_where
from ...registry import TensorMeta, op
from ..creation.conversion import real_part
from ..creation.copy import checked_scalar
from .special import check_writable
from .unary import BOOL, COMPLEX, INTEGRAL, refuse
from .zeroing import zero_where_in_bands

_NOT_COMPLEX = "clamp is not supported for complex types"
# c10's overflow check of a float bound: beyond the largest finite value (inf is fine)
_FLOAT_LIMITS = {d: float(ml_dtypes.finfo(d._np).max)
                 for d in (dtypes.float16, dtypes.bfloat16, dtypes.float32, dtypes.float64)}


def _clamp_into(out: np.ndarray, x, low, high) -> None:
    """Write `x` clamped to [low, high] into `out` (either bound may be None).

    np.maximum / np.minimum propagate NaN from either operand, as torch does. Which of
    two equal operands they return is unspecified, which shows only for 0.0 and -0.0:
    where the input is a zero and so is the result, torch keeps the input's zero.
    """
    ties = out.dtype.kind == "f" and (_may_be_zero(low) or _may_be_zero(high))
    one = high if low is None else low if high is None else None
    if ties and one is not None and np.ndim(one) == 0:
        # a single number bound, a zero (relu): where the input passes it the result is
        # the bound, elsewhere the input itself (NaN and its own zeros kept): two passes
        # instead of the sign fix-up's five
        passed = np.less(x, one) if high is None else np.greater(x, one)
        if np.signbit(one):                   # -0.0: written as given
            np.copyto(out, x, casting="unsafe")
            np.copyto(out, one, where=passed, casting="unsafe")
        else:
            zero_where(passed, x, out)
        return
    if ties:                                  # read before `out` (maybe `x`) is written
        zero, negative = np.equal(x, 0), np.signbit(x)
    source = x
    if low is not None:
        np.maximum(source, low, out=out)
        source = out
    if high is not None:
        np.minimum(source, high, out=out)
    if ties:
        zero &= out == 0
        np.copyto(out, np.where(negative, -0.0, 0.0), where=zero, casting="unsafe")


def _may_be_zero(bound) -> bool:
    if bound is None:
        return False
    if getattr(bound, "ndim", 0) == 0:           # a number, or a NumPy scalar
        return bound == 0
    return not np.all(bound)


# ----------------------------------------------------------------------------------
# Tensor bounds: plain elementwise operators
# ----------------------------------------------------------------------------------
# torch's meta tensors take its Python reference of clamp, which refuses no dtype: the
# dtype and conversion checks are `kernel_check`s.
def _check_bounds_given(self, low=None, high=None) -> None:
    if low is None and high is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")


def _refuse_complex(self, low=None, high=None) -> None:
    if self._dtype.is_complex:
        raise NotImplementedError(_NOT_COMPLEX)


def _clamp_tensor_kernel(self, low, high, *, out):
    # torch runs its clamp kernel with both bounds, else maximum or minimum: their
    # dtype refusals (the maximum kernel takes bool, the clamp kernel does not)
    if low is not None and high is not None:
        refuse(out, "clamp_cpu", BOOL | COMPLEX)
    else:
        refuse(out, "maximum_cpu" if low is not None else "minimum_cpu", COMPLEX)
    _clamp_into(out, self, low, high)


# ----------------------------------------------------------------------------------
# Number bounds: the result dtype comes from self and the bounds' categories
# ----------------------------------------------------------------------------------
def _bounds_promotion(self, low=None, high=None) -> Promotion:
    """The promotion kind that gives torch's result dtype for number bounds."""
    if not isinstance(self, TensorBase) or self._dtype.is_floating_point:
        return Promotion.DEFAULT          # floating is the highest dtype clamp supports
    bounds = [b for b in (low, high) if b is not None]
    if any(isinstance(b, float) for b in bounds):
        return Promotion.INT_TO_FLOAT
    if self._dtype is dtypes.bool and any(type(b) is int for b in bounds):
        return Promotion.BOOL_TO_LONG
    return Promotion.DEFAULT


def _check_number_bounds(self, low=None, high=None) -> None:
    """torch's kernel checks, in its order: complex input or result, then each bound
    converted to the result dtype."""
    limit = _FLOAT_LIMITS.get(self._dtype)
    if limit is not None and _fits(low, limit) and _fits(high, limit):
        return                  # a floating tensor is the result dtype: the common call
    bounds = [b for b in (low, high) if b is not None]
    if self._dtype.is_complex or (not self._dtype.is_floating_point and
                                  any(isinstance(b, complex) for b in bounds)):
        raise NotImplementedError(_NOT_COMPLEX)
    result = result_and_compute(self._dtype, _bounds_promotion(self, low, high))[0]
    limit = _FLOAT_LIMITS.get(result)
    for bound in bounds:
        if limit is None or not _fits(bound, limit):
            checked_scalar(_real_bound(bound), result)


def _fits(bound, limit: float) -> bool:
    """Whether a bound is absent or a Python number a float dtype of largest finite value
    `limit` holds: inf, NaN and numbers in range (no arrays to build to tell)."""
    return bound is None or type(bound) in (float, int) and (
        not math.isfinite(bound) or abs(bound) <= limit)


def _real_bound(bound):
    """A complex bound of a floating tensor must be real: torch converts it via double."""
    return real_part(bound, "double") if isinstance(bound, complex) else bound


def _check_one_bound(self, bound) -> None:
    """clamp_min / clamp_max refuse a complex bound whatever the input's dtype."""
    if isinstance(bound, complex):
        raise NotImplementedError(_NOT_COMPLEX)
    _check_number_bounds(self, bound, None)


def _number_bounds_out(target: TensorBase, described, inplace: bool) -> None:
    """In place, self must already have the result dtype; out= must have it exactly."""
    if target._dtype is described.dtype:
        return
    if inplace:
        raise RuntimeError(f"result type {scalar_type_name(described.dtype)} can't be cast to "
                           f"the desired output type {type_meta_name(target._dtype)}")
    raise RuntimeError(f"Found dtype {scalar_type_name(target._dtype)} but expected "
                       f"{scalar_type_name(described.dtype)}")


def _number_bound(bound, dtype: np.dtype):
    if bound is None:
        return None
    return to_compute_scalar(_real_bound(bound) if type(bound) is complex else bound, dtype)


def _clamp_kernel(self, low, high, *, out):
    if type(low) is float and type(high) is float and low and high and out.dtype.kind == "f":
        # the common call: nothing to refuse, and no zero bound to tie with a signed zero;
        # NumPy rounds a Python float to `out`'s dtype as `_number_bound` does
        np.minimum(np.maximum(self, low, out=out), high, out=out)
        return
    # torch runs its clamp_min / clamp_max kernels for one bound: their refusals
    kernel = "clamp" if low is not None and high is not None else \
        "clamp_min" if low is not None else "clamp_max"
    refuse(out, f"{kernel}_scalar_cpu", BOOL)
    _clamp_into(out, self, _number_bound(low, out.dtype), _number_bound(high, out.dtype))


_CLAMP_DOC = """Clamp each element into ``[min, max]``: ``min(max(input, min), max)``.

    Args:
        input (Tensor): the values.
        min (Number or Tensor, optional): the lower bound.
        max (Number or Tensor, optional): the upper bound; at least one bound is given.

    NaN inputs stay NaN, a NaN bound gives NaN, and where ``min > max`` the result is
    ``max``. An integer tensor with a float bound gives a float result.

    Example::

        >>> torch.{name}(torch.tensor([-2., 0.5, 3.]), min=-1, max=1)
        tensor([-1.0000,  0.5000,  1.0000])
        >>> torch.{name}(torch.tensor([1, 5, 9]), max=torch.tensor([2, 2, 20]))
        tensor([1, 2, 9])
    """


@derivative_helper
def clamp_backward(grad, self, min, max):
    """The gradient of clamp for its input: `grad` where ``min <= self <= max``."""
    if min is not None and max is not None:
        return grad.where((self >= min) & (self <= max), 0)
    if min is not None:
        return grad.where(self >= min, 0)
    return grad.where(self <= max, 0)


@derivative_helper
def clamp_backward_min_max(grad, self, min, max, wanted):
    """The gradients of clamp for tensor bounds ``(min, max)`` (those in `wanted`):
    a bound receives `grad` where it is the result; max wins when the bounds cross."""
    grad_min = grad_max = None
    if min is not None and max is not None:
        if wanted[0]:
            grad_min = grad.where((self < min) & (min < max), 0)
        if wanted[1]:
            grad_max = grad.where((self > max) | (max < min), 0)
    elif min is not None and wanted[0]:
        grad_min = grad.where(self < min, 0)
    elif max is not None and wanted[1]:
        grad_max = grad.where(self > max, 0)
    return grad_min, grad_max


def _declare_clamp(name: str):
    """``name.Tensor`` then ``name`` (with in-place and out=): clamp, and its alias clip."""
    tensor_kernel = _named(_clamp_tensor_kernel, name, _CLAMP_DOC.format(name=name))
    number_kernel = _named(_clamp_kernel, name, _CLAMP_DOC.format(name=name))
    with_tensors = pointwise(
        f"{name}.Tensor(Tensor self, Tensor? min=None, Tensor? max=None) -> Tensor",
        inplace=True, out=True, out_overload="Tensor_out", numbers=(),
        check=_check_bounds_given, kernel_check=_refuse_complex,
        grad={"self": "clamp_backward(grad, self, min, max)",
              "min": "clamp_backward_min_max(grad, self, min, max, [True, False])[0]",
              "max": "clamp_backward_min_max(grad, self, min, max, [False, True])[1]"},
    )(tensor_kernel)
    with_numbers = pointwise(
        f"{name}(Tensor self, Scalar? min=None, Scalar? max=None) -> Tensor",
        promotion=_bounds_promotion, inplace=True, out=True, numbers=(),
        check=_check_bounds_given, kernel_check=_check_number_bounds,
        check_out=_number_bounds_out, grad={"self": "clamp_backward(grad, self, min, max)"},
    )(number_kernel)
    return with_tensors, with_numbers


def _named(kernel, name: str, doc: str):
    """A copy of a kernel function under the operator's own name and docstring (clamp
    and clip share their kernels; a copy, not a wrapper, adds no frame to a call)."""
    run = types.FunctionType(kernel.__code__, kernel.__globals__, name, kernel.__defaults__,
                             kernel.__closure__)
    run.__kwdefaults__ = kernel.__kwdefaults__
    run.__qualname__ = name
    run.__doc__ = doc
    return run


clamp_tensor, clamp = _declare_clamp("clamp")
clip_tensor, clip = _declare_clamp("clip")


@pointwise("clamp_min.Tensor(Tensor self, Tensor min) -> Tensor", inplace=True, out=True,
           out_overload="Tensor_out", numbers=(),
           grad={"self": "where(self >= min, grad, 0)", "min": "where(self < min, grad, 0)"})
def clamp_min_tensor(self, low, *, out):
    """Raise each element to at least `min`: ``max(input, min)`` (NaN propagates).

    Example::

        >>> torch.clamp_min(torch.tensor([-1., 2.]), torch.tensor(0.))
        tensor([0., 2.])
    """
    refuse(out, "maximum_cpu", COMPLEX)          # torch runs its maximum kernel
    _clamp_into(out, self, low, None)


@pointwise("clamp_min(Tensor self, Scalar min) -> Tensor", promotion=_bounds_promotion,
           inplace=True, out=True, numbers=(), kernel_check=_check_one_bound,
           check_out=_number_bounds_out, grad={"self": "where(self >= min, grad, 0)"})
def clamp_min(self, low, *, out):
    """Raise each element to at least `min`: ``max(input, min)`` (NaN propagates).

    Example::

        >>> torch.clamp_min(torch.tensor([-1, 2]), 0)
        tensor([0, 2])
    """
    refuse(out, "clamp_min_scalar_cpu", BOOL)
    _clamp_into(out, self, _number_bound(low, out.dtype), None)


@pointwise("clamp_max.Tensor(Tensor self, Tensor max) -> Tensor", inplace=True, out=True,
           out_overload="Tensor_out", numbers=(),
           grad={"self": "where(self <= max, grad, 0)", "max": "where(self > max, grad, 0)"})
def clamp_max_tensor(self, high, *, out):
    """Lower each element to at most `max`: ``min(input, max)`` (NaN propagates).

    Example::

        >>> torch.clamp_max(torch.tensor([-1., 2.]), torch.tensor(0.))
        tensor([-1.,  0.])
    """
    refuse(out, "minimum_cpu", COMPLEX)          # torch runs its minimum kernel
    _clamp_into(out, self, None, high)


@pointwise("clamp_max(Tensor self, Scalar max) -> Tensor", promotion=_bounds_promotion,
           inplace=True, out=True, numbers=(), kernel_check=_check_one_bound,
           check_out=_number_bounds_out, grad={"self": "where(self <= max, grad, 0)"})
def clamp_max(self, high, *, out):
    """Lower each element to at most `max`: ``min(input, max)`` (NaN propagates).

    Example::

        >>> torch.clamp_max(torch.tensor([-1, 2]), 0)
        tensor([-1,  0])
    """
    refuse(out, "clamp_max_scalar_cpu", BOOL)
    _clamp_into(out, self, None, _number_bound(high, out.dtype))


# ----------------------------------------------------------------------------------
# relu
# ----------------------------------------------------------------------------------
# torch's relu is clamp_min(0), whose CPU kernel has no loop for these
_NO_CLAMP_MIN_LOOP = frozenset((dtypes.uint16, dtypes.uint32, dtypes.uint64,
                                *dtypes.FLOAT8_DTYPES))


def _refuse_relu(self) -> None:
    """The refusals of torch's relu kernel (its Meta key makes none)."""
    if self._dtype is dtypes.bool:
        raise RuntimeError("Boolean inputs not supported for relu")
    if self._dtype.is_complex:
        raise NotImplementedError(_NOT_COMPLEX)
    if self._dtype in _NO_CLAMP_MIN_LOOP:
        raise NotImplementedError(f"\"clamp_min_scalar_cpu\" not implemented for "
                                  f"'{scalar_type_name(self._dtype)}'")


def _relu_refuses(dtype: dtypes.dtype) -> bool:
    return dtype is dtypes.bool or dtype.is_complex or dtype in _NO_CLAMP_MIN_LOOP


def _relu_by_maximum() -> dict:
    """dtype -> ``maximum(0, x)`` as a C callable, for the dtypes where NumPy's `maximum`
    with a zero first is relu bit for bit.

    Integers have one zero. For floats, which of two equal operands `maximum` returns is
    unspecified, and relu must keep an input's -0.0 (and a NaN of either sign): NumPy's
    float32 / float64 loops return the second operand here, in their vector bodies and
    scalar tails alike, its float16 loop the first. So NumPy is asked once, over
    lengths and offsets that reach its bodies and tails, instead of trusted.
    """
    exact = {}
    for dtype in dtypes.ALL_DTYPES:
        if _relu_refuses(dtype):
            continue
        zero = np.zeros((), dtype._np)      # a 0-d array: NumPy reads it faster than a scalar
        zero.flags.writeable = False
        relu_ = functools.partial(np.maximum, zero)
        if not dtype.is_floating_point:
            exact[dtype] = relu_
            continue
        values = np.array([-0.0, np.nan, -np.nan, -1.0, 1.0, -np.inf] * 12, dtype._np)
        with np.errstate(invalid="ignore"):
            expected = np.where(np.less(values, 0), values.dtype.type(0), values)
            if all(relu_(values[first:first + n]).tobytes() ==
                   expected[first:first + n].tobytes()
                   for n in range(1, 67) for first in (0, 1)):
                exact[dtype] = relu_
    return exact


_RELU_BY_MAXIMUM = _relu_by_maximum()
_RELU_BY_MAXIMUM_NP = {d._np: relu_ for d, relu_ in _RELU_BY_MAXIMUM.items()}


@pointwise("relu(Tensor self) -> Tensor", inplace=True, numbers=(),
           kernel_check=DtypeRefusal(_relu_refuses, _refuse_relu),
           ufunc=_RELU_BY_MAXIMUM,
           grad={"self": "threshold_backward(grad, result, 0)"})
def relu(self, *, out):
    """The rectified linear unit ``max(input, 0)``, elementwise (integers too).

    As `clamp_min` with 0: an input not below 0 is kept as it is (NaN and -0.0 too).

    Example::

        >>> torch.relu(torch.tensor([-1.5, 0., 2.]))
        tensor([0., 0., 2.])
    """
    by_maximum = _RELU_BY_MAXIMUM_NP.get(out.dtype)
    if by_maximum is not None:
        by_maximum(self, out=out)
    elif out.size < SPLIT_SIZE:            # one call, no bands: a small relu's frames
        zero_where(np.less(self, 0), self, out)
    else:
        zero_where_in_bands(_negative, self, self, out)


def _negative(values: np.ndarray) -> np.ndarray:
    return np.less(values, 0)


# ----------------------------------------------------------------------------------
# nan_to_num
# ----------------------------------------------------------------------------------
def _nan_to_num_meta(self, nan=None, posinf=None, neginf=None, out=None):
    # integers are copied (torch's copy_, which skips writing a tensor into itself)
    exact = self._dtype.is_floating_point or self._dtype.is_complex
    if out is not None and (exact or out is not self):
        check_writable(out)
    if out is not None and out._dtype is not self._dtype:
        raise RuntimeError(f"nan_to_num: dtype of out: {scalar_type_name(out._dtype)} should "
                           f"be same as input: {scalar_type_name(self._dtype)}")
    described = elementwise_meta([self], Promotion.DEFAULT)
    if not exact and out is not None:
        described.stride = None             # torch resizes an integer out= row-major
    return described


@op("nan_to_num(Tensor self, float? nan=None, float? posinf=None, float? neginf=None) "
    "-> Tensor", meta=_nan_to_num_meta, inplace=True, out=True, method=True,
    grad={"self": "grad * isfinite(self)"})
def nan_to_num(self, nan, posinf, neginf, *, out):
    """Replace NaN, positive and negative infinity by finite numbers.

    Args:
        input (Tensor): the values (integers and bool are returned as they are).
        nan (float, optional): what NaN becomes; 0 by default.
        posinf (float, optional): what ``inf`` becomes; the dtype's largest finite
            value by default.
        neginf (float, optional): what ``-inf`` becomes; the dtype's lowest finite
            value by default.

    Complex numbers have their real and imaginary parts replaced separately.

    Example::

        >>> torch.nan_to_num(torch.tensor([float('nan'), float('inf'), -float('inf'), 1.]))
        tensor([ 0.0000e+00,  3.4028e+38, -3.4028e+38,  1.0000e+00])
        >>> torch.nan_to_num(torch.tensor([float('nan'), float('inf')]), nan=-1., posinf=9.)
        tensor([-1.,  9.])
    """
    np.copyto(out, self)
    if out.dtype.kind in "biu":
        return
    parts = (out.real, out.imag) if out.dtype.kind == "c" else (out,)
    for part in parts:
        kind = part.dtype.type
        info = ml_dtypes.finfo(part.dtype)
        np.copyto(part, kind(0.0 if nan is None else nan), where=np.isnan(part))
        np.copyto(part, info.max if posinf is None else kind(posinf), where=np.isposinf(part))
        np.copyto(part, info.min if neginf is None else kind(neginf), where=np.isneginf(part))


# ----------------------------------------------------------------------------------
# The floating-point representation: nextafter, frexp, ldexp
# ----------------------------------------------------------------------------------
def _common_dtype(*arrays: np.ndarray):
    """torch's common dtype of the kernel's operands, from their dtypes and whether
    they are 0-dim (a structured kernel sees the ndarrays, not the meta description)."""
    a, b = arrays
    return result_type_of(from_numpy_dtype(a.dtype), a.ndim == 0,
                          from_numpy_dtype(b.dtype), b.ndim == 0)


def _elementwise_pair_meta(self, other, out=None):
    if out is not None:
        check_writable(out)
    return elementwise_meta([self, other], Promotion.DEFAULT)


@op("nextafter(Tensor self, Tensor other) -> Tensor", meta=_elementwise_pair_meta,
    inplace=True, out=True, method=True,
    grad={"self": "grad * (self != other)", "other": "zeros_like(grad)"})   # torch's
def nextafter(self, other, *, out):
    """The next floating-point value after `input` in the direction of `other`.

    Computed in the operands' own floating dtype (float16 and bfloat16 step by their
    own spacing); ``nextafter(x, x)`` is ``x``.

    Example::

        >>> torch.nextafter(torch.tensor([1.0, 1.0]), torch.tensor([2.0, 0.0])) - 1
        tensor([ 1.1921e-07, -5.9605e-08])
    """
    dtype = _common_dtype(self, other)
    refuse(np.empty(0, dtype._np), "nextafter_cpu", BOOL | INTEGRAL | COMPLEX)
    result = np.nextafter(self.astype(dtype._np, copy=False),
                          other.astype(dtype._np, copy=False))
    np.copyto(out, result, casting="unsafe")


def _frexp_meta(self, out=None):
    if not self._dtype.is_floating_point:
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    if out is not None:
        mantissa, exponent = out
        check_writable(mantissa)
        check_writable(exponent)
        if mantissa._dtype is not self._dtype:
            raise RuntimeError(f"torch.frexp() expects mantissa to have dtype "
                               f"{type_meta_name(self._dtype)} but got "
                               f"{type_meta_name(mantissa._dtype)}")
        if exponent._dtype is not dtypes.int32:
            raise RuntimeError(f"torch.frexp() expects exponent to have int dtype but got "
                               f"{type_meta_name(exponent._dtype)}")
    described = elementwise_meta([self], Promotion.DEFAULT)
    return (described, TensorMeta(described.shape, dtypes.int32, described.stride))


@op("frexp.Tensor(Tensor self) -> (Tensor mantissa, Tensor exponent)", meta=_frexp_meta,
    out=True, out_overload="Tensor_out", method=True,
    grad={"self": "grad / exponent.exp2()"})
def frexp(self, *, out):
    """Split each element into a mantissa in ``[0.5, 1)`` (in magnitude) and an
    integer exponent: ``input == mantissa * 2 ** exponent``.

    Returns:
        A named tuple ``(mantissa, exponent)``: the mantissa has the input's dtype, the
        exponent is int32. Zero, infinities and NaN have exponent 0 and themselves
        as mantissa.

    Example::

        >>> torch.frexp(torch.tensor([8., -0.75]))
        torch.return_types.frexp(
        mantissa=tensor([ 0.5000, -0.7500]),
        exponent=tensor([4, 0], dtype=torch.int32))
    """
    np.frexp(self, out=out)


def _ldexp_meta(self, other, out=None):
    if out is not None and not (out._dtype.is_floating_point or out._dtype.is_complex):
        raise RuntimeError(f"ldexp can't be cast to the desired output type "
                           f"{scalar_type_name(out._dtype)}")
    if out is not None:
        check_writable(out)
    return elementwise_meta([self, other], Promotion.INT_TO_FLOAT)


@op("ldexp.Tensor(Tensor self, Tensor other) -> Tensor", meta=_ldexp_meta, inplace=True,
    out=True, method=True,
    grad={"self": "grad * pow(2, other)", "other": "grad * result * 0.6931471805599453"})
def ldexp(self, other, *, out):
    """``input * 2 ** other``, elementwise.

    With an integer `other` and a floating `input` the scaling is exact (one rounding,
    as C's ``ldexp``); otherwise ``2 ** other`` is computed in the result dtype first.

    Example::

        >>> torch.ldexp(torch.tensor([1., 3.]), torch.tensor([3, -1]))
        tensor([8.0000, 1.5000])
    """
    dtype = result_and_compute(_common_dtype(self, other), Promotion.INT_TO_FLOAT)[0]._np
    real_self = self.dtype.kind in "fV"                 # float16 ... float64, bfloat16
    if real_self and other.dtype.kind == "b":
        refuse(other, "ldexp_cpu_exp", BOOL)
    if real_self and other.dtype.kind in "iu":
        exponent = other.astype(np.int64).astype(np.int32)     # C's int, wrapping
        x = np.broadcast_to(self, np.broadcast_shapes(self.shape, other.shape))
        result = np.ldexp(x.astype(np.promote_types(dtype, np.float32)), exponent)
    else:
        # torch multiplies by pow(two, other), `two` a 0-dim tensor of self's dtype
        # (float32 for integers): the power is rounded to that promotion's dtype first.
        base = from_numpy_dtype(self.dtype if self.dtype.kind in "fcV" else np.dtype(np.float32))
        power_dtype = result_type_of(base, True, from_numpy_dtype(other.dtype), other.ndim == 0)
        if power_dtype is dtypes.complex32:          # complex float16 and a float16 exponent
            raise NotImplementedError(f"\"pow\" not implemented for "
                                      f"'{scalar_type_name(power_dtype)}'")
        power_dtype = power_dtype._np
        exact = np.promote_types(power_dtype, np.float32)
        power = np.power(exact.type(2), other.astype(exact)).astype(power_dtype)
        wide = np.promote_types(dtype, np.float32)
        result = self.astype(wide) * power.astype(wide)
    np.copyto(out, result.astype(dtype), casting="unsafe")
