"""OpInfo entries for binary arithmetic (`aten/native/pointwise/binary.py`, `division.py`,
`power.py`): add, sub, rsub, mul, div with its rounding modes, floor_divide,
remainder, fmod, pow, float_power, and their aliases."""
import numpy as np
import pytest

import glasstorch as gt

from ..convert import numpy_dtype
from ..core import (ALL_DTYPES, BOOL, COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo,
                   SampleInput, make_tensor, tensor_pairs)

REAL = BOOL + INTEGRAL + FLOATING
NOT_BOOL = INTEGRAL + FLOATING + COMPLEX
DIVISIBLE = INTEGRAL + FLOATING                    # the rounding divisions
SPECIAL = [float("nan"), float("inf"), -float("inf"), -0.0, 0.0, 0.5, -2.5, 3.0, -7.0, 1e30]


# ----- references --------------------------------------------------------------------
def as_glasstorch(value):
    return gt.from_numpy(np.asarray(value)) if isinstance(value, np.ndarray) else value


def promoted(*values, to_float: bool = False, double: bool = False) -> tuple:
    """The operands as ndarrays of torch's compute dtype, and the result's NumPy dtype.

    Promotion is torch's (over two operands; numbers are wrapped numbers); float16
    and bfloat16 compute in float32; integers compute in int64 and wrap when cast
    back. `to_float` turns integer results into float32, `double` into float64 (or
    complex128), as `div` and `float_power` do.
    """
    common = gt.result_type(*map(as_glasstorch, values)) if len(values) == 2 else \
        as_glasstorch(values[0]).dtype
    if double:
        common = gt.complex128 if common.is_complex else gt.float64
    elif to_float and not (common.is_floating_point or common.is_complex):
        common = gt.float32
    result = numpy_dtype(common)
    if common in (gt.float16, gt.bfloat16):
        compute = np.dtype(np.float32)
    elif result.kind in "iu":
        compute = np.dtype(np.int64)
    else:
        compute = result
    # numbers wrap into an integer result dtype first, as torch converts them (C casts)
    arrays = [np.asarray(v).astype(result) if result.kind in "iu" else np.asarray(v)
              for v in values]
    return [a.astype(compute) for a in arrays], result


def ref_binary(function, **promotion):
    """A reference computing `function` on the promoted operands, cast to the result."""
    def ref(a, b, *args, **kwargs):
        (x, y), result = promoted(a, b, **promotion)
        with np.errstate(all="ignore"):
            value = np.asarray(function(x, y, *args, **kwargs))
        return value.astype(result)
    return ref


def _add(x, y, alpha=1):
    if x.dtype == np.bool_:
        return x | (y & bool(alpha))
    return x + y * x.dtype.type(alpha)


def _trunc_divide(x, y):
    if x.dtype.kind in "iu":
        inexact_negative = (np.fmod(x, y) != 0) & ((x < 0) != (y < 0))
        return np.floor_divide(x, y) + inexact_negative
    return np.trunc(x / y)


def _div(x, y, rounding_mode=None):
    if rounding_mode == "trunc":
        return _trunc_divide(x, y)
    if rounding_mode == "floor":
        return np.floor_divide(x, y)
    return x / y


def _remainder(x, y):
    if x.dtype.kind in "iu":
        return np.remainder(x, y)
    mod = np.fmod(x, y)
    return np.where((mod != 0) & ((y < 0) != (mod < 0)), mod + y, mod)


def _pow(x, y):
    """torch's powers: integers to negative exponents give 0 (1 and -1 excepted)."""
    if x.dtype.kind not in "iu":
        return np.power(x, y)
    x, y = np.broadcast_arrays(x, y)
    powered = np.power(x, np.where(y < 0, 0, y))
    unit = np.where(x == 1, 1, np.where(y % 2 == 0, 1, -1))
    return np.where(y < 0, np.where(np.abs(x) == 1, unit, 0), powered)


def _tensors_only(sample) -> bool:
    return all(isinstance(a, gt.Tensor) for a in sample.args)


_rsub_ref = ref_binary(lambda x, y, alpha=1: _add(y, x, -alpha))


def _div_ref(a, b, rounding_mode=None):
    return ref_binary(_div, to_float=rounding_mode is None)(a, b, rounding_mode=rounding_mode)


# ----- samples -----------------------------------------------------------------------
def _numbers(dtype, values=(2, -3, 2.5, True, 1 + 2j)):
    """The tensor against Python and NumPy numbers (on the right: methods and in-place
    variants need a tensor first; tests/test_binary.py has numbers on the left)."""
    x = make_tensor((3, 4), dtype)
    for value in values + (np.int64(4), np.float32(0.5)):
        yield SampleInput(x, value)
    yield SampleInput(make_tensor((), dtype), 3)


def _special(dtype):
    """nan, infinities and signed zeros against their reverse (floating and complex)."""
    if not (dtype.is_floating_point or dtype.is_complex):
        return
    values = np.array(SPECIAL)
    if dtype.is_complex:
        values = values + 1j * np.array(SPECIAL[::-1]).clip(-10, 10)
    yield SampleInput(gt.from_numpy(values.astype(numpy_dtype(dtype))),
                      gt.from_numpy(values[::-1].copy().astype(numpy_dtype(dtype))))


def _mixed(dtype):
    """Operands of other dtypes: integers against floats, 0-dim tensors of a wider
    dtype (which do not promote), uint8 against int8."""
    yield SampleInput(make_tensor((5,), dtype), gt.tensor(3, dtype=gt.float64))
    yield SampleInput(make_tensor((2, 3), dtype), make_tensor((3,), gt.int32, low=1))
    if dtype is gt.uint8:
        yield SampleInput(gt.tensor([255, 7, 128], dtype=gt.uint8),
                          gt.tensor([-1, 3, -128], dtype=gt.int8))


def sample_arithmetic(dtype, numbers=(2, -3, 2.5, True, 1 + 2j)):
    for a, b in tensor_pairs(dtype):
        yield SampleInput(a, b)
    yield from _special(dtype)
    yield from _numbers(dtype, numbers)
    yield from _mixed(dtype)


def sample_division(dtype):
    """The arithmetic samples, without complex numbers for float16: torch has no
    complex32 division (`errors_div` checks its refusal)."""
    yield from sample_arithmetic(dtype, (2, -3, 2.5, True) if dtype is gt.float16 else
                                 (2, -3, 2.5, True, 1 + 2j))


def sample_alpha(dtype, subtraction=False):
    """add / sub / rsub: the arithmetic samples, and alphas of every kind allowed."""
    yield from sample_arithmetic(dtype, (2, -3, 2.5, 1 + 2j) if subtraction else
                                 (2, -3, 2.5, True, 1 + 2j))
    a, b = make_tensor((3, 4), dtype), make_tensor((4,), dtype, seed=1)
    inexact = dtype.is_floating_point or dtype.is_complex
    for alpha in (2, -3, 0) + ((0.5, -1.25) if inexact else ()) + \
            ((1j, 0.5 - 2j) if dtype.is_complex else ()) + ((True,) if dtype is gt.bool else ()):
        yield SampleInput(a, b, alpha=alpha)
    yield SampleInput(a, 2, alpha=3)


def sample_division(dtype):
    """Divisors kept away from zero for integers (zero is an error input)."""
    integral = not (dtype.is_floating_point or dtype.is_complex)
    low = {"low": 1} if integral else {}
    for a, b in tensor_pairs(dtype):
        yield SampleInput(a, make_tensor(tuple(b.shape), dtype, seed=1, **low))
    a = make_tensor((3, 4), dtype)
    yield SampleInput(a, make_tensor((3, 4), dtype, seed=3, low=-9 if integral else -4,
                                     high=-1 if integral else 4))
    for value in (3, -2, 2.5, -0.75) + ((1 + 2j,) if dtype.is_complex else ()):
        yield SampleInput(a, value)
    yield from _special(dtype)
    if dtype is gt.int8:
        yield SampleInput(gt.tensor([-128, 127, -7, 7], dtype=gt.int8),
                          gt.tensor([-1, -1, 2, -2], dtype=gt.int8))


def sample_rounding_modes(dtype):
    for sample in sample_division(dtype):
        for mode in (None, "trunc", "floor"):
            if mode is None or dtype in DIVISIBLE:
                yield SampleInput(*sample.args, rounding_mode=mode)


def sample_pow(dtype):
    """Tensor bases and exponents (``pow.Tensor_Tensor``): small exponents, integers to
    negative exponents (0, except for bases 1 and -1), special values."""
    inexact = dtype.is_floating_point or dtype.is_complex
    for a, b in tensor_pairs(dtype, low=0, high=4) if dtype is not gt.bool else ():
        yield SampleInput(a, b)
    if not inexact and dtype is not gt.uint8 and dtype is not gt.bool:
        yield SampleInput(gt.tensor([1, -1, 2, -2, 0, 3], dtype=dtype),
                          gt.tensor([-1, -3, -1, -2, 4, 2], dtype=dtype))
        yield SampleInput(gt.tensor([3, 7], dtype=dtype), gt.tensor([5, 40], dtype=dtype))
    if dtype.is_floating_point:
        yield from _special(dtype)


def sample_pow_tensor_scalar(dtype):
    """Number exponents (``pow.Tensor_Scalar``): those torch computes by shortcuts,
    negative ones only for floating bases, booleans, a complex one."""
    inexact = dtype.is_floating_point or dtype.is_complex
    base = make_tensor((3, 4), dtype, low=0.5 if inexact else -4, high=3 if inexact else 5)
    numbers = (0, 1, 2, 3, 0.5, -0.5, -1, -2, 1.7, -1.3, True, False) if inexact else \
        (0, 1, 2, 3, 7, 1.5, -0.5, True, False)
    for value in numbers + ((1 + 1j,) if dtype.is_complex else ()):
        if dtype is not gt.bool or value in (True, False, 2, 1.5):
            yield SampleInput(base, value)


def sample_pow_scalar(dtype):
    """Number bases (``pow.Scalar``): 0 has its own gradient, negative and complex
    bases, booleans; exponents negative only where the result is inexact. (A base of 1
    fills an out= of any dtype: test_pow_scalar.py.)"""
    inexact = dtype.is_floating_point or dtype.is_complex
    exponent = make_tensor((3, 4), dtype, low=-2 if inexact else 0, high=3)
    bases = (2, 0, 3, 0.5, -1.5, 2.5, True, False) + ((1 - 2j,) if dtype.is_complex else ())
    for base in bases:
        if dtype is not gt.bool or not isinstance(base, bool):
            yield SampleInput(base, exponent)
    if not inexact and dtype is not gt.bool and dtype is not gt.uint8:
        yield SampleInput(2, gt.tensor([-1, -3, 0, 4], dtype=dtype))   # 0: torch's integer pow


def sample_float_power(dtype):
    yield from sample_pow(dtype)
    yield from sample_pow_tensor_scalar(dtype)
    yield SampleInput(make_tensor((4,), dtype), -2)


def sample_alias(dtype, **kwargs):
    """Aliases run the main operator's kernel: a few samples prove the wiring."""
    integral = not (dtype.is_floating_point or dtype.is_complex)
    low = {"low": 1} if integral else {}
    yield SampleInput(make_tensor((3, 4), dtype), make_tensor((4,), dtype, seed=1, **low),
                      **kwargs)
    yield SampleInput(make_tensor((2, 3), dtype, "transposed"), 3, **kwargs)
    yield SampleInput(make_tensor((), dtype), make_tensor((2,), dtype, seed=1, **low),
                      **kwargs)


# ----- error inputs --------------------------------------------------------------------
# torch's meta tensors run its Python references (torch._refs), which word these errors
# otherwise, or check nothing; glasstorch's meta rules raise what its CPU path raises.
META_REFS = ("binary owner: torch's meta runs torch._refs, which words this error "
             "otherwise (or raises none); glasstorch's meta raises the CPU error")


def _error(args, kwargs, error_type, match, meta_differs=False):
    return ErrorInput(SampleInput(*args, **kwargs), error_type, match,
                      known_bug_on_meta=META_REFS if meta_differs else None)


def _broadcast_error():
    return _error((make_tensor((3,), gt.float32), make_tensor((2,), gt.float32)), {},
                  RuntimeError, r"^The size of tensor a \(3\) must match the size of tensor b "
                                r"\(2\) at non-singleton dimension 0$", meta_differs=True)


def errors_add():
    i, f = make_tensor((3,), gt.int64), make_tensor((3,), gt.float32)
    yield _error((i, i), {"alpha": 2.5}, RuntimeError,
                 r"^For integral input tensors, argument alpha must not be a floating point "
                 r"number\.$", True)
    yield _error((f, f), {"alpha": 1j}, RuntimeError,
                 r"^For non-complex input tensors, argument alpha must not be a complex "
                 r"number\.$", True)
    yield _error((i, i), {"alpha": True}, RuntimeError,
                 r"^Boolean alpha only supported for Boolean results\.$", True)
    yield _broadcast_error()


BOOL_SUB = (r"^Subtraction, the `-` operator, with two bool tensors is not supported\. Use "
            r"the `\^` or `logical_xor\(\)` operator instead\.$")
BOOL_TENSOR_SUB = (r"^Subtraction, the `-` operator, with a bool tensor is not supported\. "
                   r"If you are trying to invert a mask, use the `~` or `logical_not\(\)` "
                   r"operator instead\.$")


def errors_sub():
    b, f = make_tensor((3,), gt.bool), make_tensor((3,), gt.float32)
    yield _error((b, b), {}, RuntimeError, BOOL_SUB)
    yield _error((f, b), {}, RuntimeError, BOOL_TENSOR_SUB, True)
    yield _error((f, True), {}, RuntimeError, BOOL_TENSOR_SUB, True)
    yield from errors_add()


def errors_rsub():
    b, f = make_tensor((3,), gt.bool), make_tensor((3,), gt.float32)
    yield _error((b, b), {}, RuntimeError, BOOL_SUB)
    yield _error((b, 1), {}, RuntimeError, BOOL_TENSOR_SUB, True)
    yield _error((f, f), {"alpha": 1j}, RuntimeError,
                 r"^For non-complex input tensors, argument alpha must not be a complex "
                 r"number\.$", True)


def _zero_division(extra=None):
    i = gt.tensor([5, -7, 3])
    for divisor in (0, gt.tensor([1, 0, 2])):
        yield _error((i, divisor), extra or {}, RuntimeError, r"^ZeroDivisionError$")


def _not_implemented(kernel, dtype, name, extra=None, meta_differs=False):
    x = make_tensor((3,), dtype)
    return _error((x, x), extra or {}, NotImplementedError,
                  f"^\"{kernel}\" not implemented for '{name}'$", meta_differs)


def errors_div():
    f = make_tensor((3,), gt.float32)
    yield _error((f, 2), {"rounding_mode": "bad"}, RuntimeError,
                 r"^div expected rounding_mode to be one of None, 'trunc', or 'floor' but "
                 r"found 'bad'$", True)
    for mode in ("trunc", "floor"):
        yield _not_implemented(f"div_{mode}_cpu", gt.bool, "Bool", {"rounding_mode": mode},
                               mode == "floor")
        yield _not_implemented(f"div_{mode}_cpu", gt.complex64, "ComplexFloat",
                               {"rounding_mode": mode}, mode == "floor")
        yield from _zero_division({"rounding_mode": mode})
    yield _error((make_tensor((3,), gt.float16), 1j), {"rounding_mode": None},
                 NotImplementedError, r"^\"div_cpu\" not implemented for 'ComplexHalf'$")


def errors_rounding(kernel):
    def errors():
        floor = kernel == "div_floor_cpu"
        yield _not_implemented(kernel, gt.bool, "Bool", meta_differs=floor)
        yield _not_implemented(kernel, gt.complex64, "ComplexFloat", meta_differs=floor)
        yield from _zero_division()
        yield _broadcast_error()
    return errors


def errors_pow():
    b = make_tensor((3,), gt.bool)
    yield _error((b, b), {}, NotImplementedError, r"^\"pow\" not implemented for 'Bool'$",
                 True)
    yield _error((True, b), {}, NotImplementedError, r"^\"pow\" not implemented for 'Bool'$",
                 True)
    yield _broadcast_error()


def errors_pow_tensor_scalar():
    i = gt.tensor([1, 2, 3])
    for exponent in (-1, -2):
        yield _error((i, exponent), {}, RuntimeError,
                     r"^Integers to negative integer powers are not allowed\.$", True)
    yield _error((make_tensor((3,), gt.bool), -1), {}, RuntimeError,
                 r"^Integers to negative integer powers are not allowed\.$", True)


def errors_float_power():
    f = make_tensor((3,), gt.float32)
    yield _error((f, 2), {"out": gt.empty(3)}, RuntimeError,
                 r"^the output given to float_power has dtype Float but the operation's "
                 r"result requires dtype Double$")
    yield _broadcast_error()


# ----- the entries -------------------------------------------------------------------
WRITING_MARKS: dict = {}     # marks shared by the writing entries (none at present)
SCALAR_TAIL = ("binary owner: torch's bfloat16 add/sub round alpha * other to bfloat16 in "
               "the scalar loop (elements outside whole vectors, broadcast operands) but "
               "not in the vector loop; glasstorch rounds once, as the vector loop does")


def entry(name, variants, ref, samples, *, dtypes=ALL_DTYPES, errors=lambda: (), out=None,
          inplace=None, marks=WRITING_MARKS, **flags):
    return OpInfo(name, variants=variants, ref=ref, sample_inputs=samples, dtypes=dtypes,
                  error_inputs=errors, out=out, inplace=inplace, marks=marks, **flags)


def _functions(name, method=True):
    return (name, f"Tensor.{name}") if method else (name,)


OPS = [
    entry("add.Tensor", _functions("add"), ref_binary(_add), sample_alpha, errors=errors_add,
          out="add", inplace="Tensor.add_"),
    entry("sub.Tensor", _functions("sub"), ref_binary(lambda x, y, alpha=1: _add(x, y, -alpha)),
          lambda d: sample_alpha(d, True), dtypes=NOT_BOOL, errors=errors_sub, out="sub",
          inplace="Tensor.sub_", marks={"test_out_matches_torch": pytest.mark.xfail(
              strict=True, reason=SCALAR_TAIL)}),
    entry("subtract.Tensor", _functions("subtract"),
          ref_binary(lambda x, y, alpha=1: _add(x, y, -alpha)), sample_alias, dtypes=NOT_BOOL,
          out="subtract", inplace="Tensor.subtract_"),
    entry("rsub.Tensor", ("rsub",), _rsub_ref,
          lambda d: (s for s in sample_alpha(d, True) if _tensors_only(s)), dtypes=NOT_BOOL,
          errors=errors_rsub, marks={}),
    entry("rsub.Scalar", ("rsub",), _rsub_ref,
          lambda d: (s for s in sample_alpha(d, True) if not _tensors_only(s)),
          dtypes=NOT_BOOL, marks={}),
    entry("mul.Tensor", _functions("mul"), ref_binary(lambda x, y: x * y),
          sample_arithmetic, out="mul", inplace="Tensor.mul_"),
    entry("multiply.Tensor", _functions("multiply"), ref_binary(lambda x, y: x * y),
          sample_alias, out="multiply", inplace="Tensor.multiply_"),
    entry("div.Tensor", _functions("div"), ref_binary(np.true_divide, to_float=True),
          sample_division, errors=errors_div,
          out="div", inplace="Tensor.div_"),
    entry("div.Tensor_mode", _functions("div"), _div_ref, sample_rounding_modes,
          errors=errors_div, out="div", inplace="Tensor.div_"),
    entry("divide.Tensor", _functions("divide"), ref_binary(np.true_divide, to_float=True),
          sample_alias, out="divide", inplace="Tensor.divide_"),
    entry("divide.Tensor_mode", _functions("divide"), _div_ref,
          lambda d: sample_alias(d, rounding_mode="floor"), dtypes=DIVISIBLE,
          out="divide", inplace="Tensor.divide_"),
    entry("true_divide.Tensor", _functions("true_divide"),
          ref_binary(np.true_divide, to_float=True), sample_alias, out="true_divide",
          inplace="Tensor.true_divide_"),
    entry("floor_divide", _functions("floor_divide"), ref_binary(np.floor_divide),
          sample_division, dtypes=DIVISIBLE, errors=errors_rounding("div_floor_cpu"),
          out="floor_divide", inplace="Tensor.floor_divide_",
          marks={"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
              "machinery owner: torch's floor_divide is not a structured kernel, so an out= "
              "of another dtype is resized with one warning; glasstorch warns twice"))}),
    entry("remainder.Tensor", _functions("remainder"), ref_binary(_remainder),
          sample_division, dtypes=DIVISIBLE, errors=errors_rounding("remainder_cpu"),
          out="remainder", inplace="Tensor.remainder_"),
    entry("fmod.Tensor", _functions("fmod"), ref_binary(np.fmod), sample_division,
          dtypes=DIVISIBLE, errors=errors_rounding("fmod_cpu"), out="fmod",
          inplace="Tensor.fmod_"),
    entry("pow.Tensor_Tensor", _functions("pow"), ref_binary(_pow), sample_pow,
          dtypes=ALL_DTYPES, errors=errors_pow, out="pow", inplace="Tensor.pow_"),
    entry("pow.Tensor_Scalar", _functions("pow"), ref_binary(_pow), sample_pow_tensor_scalar,
          dtypes=ALL_DTYPES, errors=errors_pow_tensor_scalar, out="pow",
          covers=("pow_.Scalar",)),
    entry("pow.Scalar", _functions("pow", method=False), ref_binary(_pow), sample_pow_scalar,
          dtypes=ALL_DTYPES, out="pow"),
    entry("float_power.Tensor_Tensor", _functions("float_power"),
          ref_binary(np.power, double=True), sample_float_power, errors=errors_float_power,
          out="float_power", covers=("float_power_.Tensor", "float_power_.Scalar")),
]
