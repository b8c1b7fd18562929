"""OpInfo entries for comparisons, bitwise and logical operators
(`aten/native/pointwise/comparison.py`, `aten/native/pointwise/bitwise.py`)."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import (ALL_DTYPES, BOOL, COMPLEX, INTEGRAL, ErrorInput, OpInfo, SampleInput,
                   make_tensor, numpy_dtype, tensor_pairs, tensors)

INTEGER_LIKE = BOOL + INTEGRAL
REAL = tuple(d for d in ALL_DTYPES if d not in COMPLEX)
SPECIAL = [float("nan"), float("inf"), -float("inf"), -0.0, 0.0, 1.0, -2.5, 3e38]


# ----- references --------------------------------------------------------------------
def _as_glasstorch(value):
    return gt.from_numpy(value) if isinstance(value, np.ndarray) else value


def _common(*operands) -> list:
    """The operands as ndarrays of torch's common dtype (float16/bfloat16 widened to
    float32, as torch computes them); numbers wrap into integer dtypes as in C."""
    common = gt.result_type(*map(_as_glasstorch, operands)) if len(operands) == 2 else \
        gt.from_numpy(operands[0]).dtype
    compute = np.dtype(np.float32) if common in (gt.float16, gt.bfloat16) else \
        numpy_dtype(common)
    return [np.asarray(v).astype(numpy_dtype(common)).astype(compute) for v in operands]


def _ref(ufunc):
    """A binary NumPy reference computing in torch's common dtype, result as ndarray."""
    def ref(a, b):
        a, b = _common(a, b)
        return np.asarray(ufunc(a, b))
    return ref


def _ref_unary(ufunc):
    return lambda a: np.asarray(ufunc(_common(a)[0]))


def _shift_ref(left: bool):
    """torch's shifts: amounts outside [0, bits) give 0 (left) or the sign fill (right)."""
    def ref(a, b):
        a, b = _common(a, b)
        a, b = np.broadcast_arrays(a, b)
        bits = a.dtype.itemsize * 8
        valid = (b >= 0) & (b < bits)
        if left:
            return np.where(valid, np.left_shift(a, np.where(valid, b, 0)), 0).astype(a.dtype)
        shifted = np.right_shift(a, np.where(valid, b, bits - 1))
        return np.where(valid, shifted, 0).astype(a.dtype) if a.dtype.kind == "u" else shifted
    return ref


def _ref_isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan=False):
    """The closeness test in float64 after torch's rounding of each step is immaterial
    for the sample values (well away from the tolerance boundary)."""
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    x, y = np.asarray(a).astype(wide), np.asarray(b).astype(wide)
    close = x == y
    if equal_nan and a.dtype.kind in "fcV":
        close |= np.isnan(x) & np.isnan(y)
    if rtol or atol:
        with np.errstate(all="ignore"):
            actual = np.abs(x - y)
            close |= np.isfinite(actual) & (actual <= atol + np.abs(rtol * y))
    return close


# ----- samples -----------------------------------------------------------------------
def _special(dtype):
    """nan, infinities, signed zeros (floating and complex), against their reverse."""
    if not (dtype.is_floating_point or dtype.is_complex):
        return
    values = np.array(SPECIAL)
    if dtype.is_complex:
        values = values + 1j * values[::-1]           # built exactly: no NaN from inf * 0j
        values.imag = np.array(SPECIAL)[::-1]
    x = gt.from_numpy(values.astype(numpy_dtype(dtype)))
    yield SampleInput(x, gt.from_numpy(values[::-1].astype(numpy_dtype(dtype))))
    yield SampleInput(x, x.clone())        # not x itself: torch receives each argument apart


def _numbers(dtype, ordered: bool):
    """The tensor against Python and NumPy numbers of every kind it accepts."""
    x = make_tensor((3, 4), dtype)
    scalars = [2, -3, 2.5, True, 300, np.int64(4), np.float32(0.5)]
    if not ordered:
        scalars.append(1 + 2j)
    for value in scalars:
        yield SampleInput(x, value)
    yield SampleInput(make_tensor((), dtype), 1)


def _mixed(dtype):
    """Operands of different dtypes: uint8 against int8 (promotes to int16), integers
    against floats, 0-dim tensors of a wider dtype (which do not promote)."""
    if dtype is gt.uint8:
        yield SampleInput(gt.tensor([255, 0, 128], dtype=gt.uint8),
                          gt.tensor([-1, 0, -128], dtype=gt.int8))
    if dtype is gt.int64:
        yield SampleInput(gt.tensor([16777217, 3, -7]), gt.tensor([16777216., 3., -7.5]))
        yield SampleInput(gt.tensor([16777217, 3]), 16777216.0)
    yield SampleInput(make_tensor((5,), dtype), gt.tensor(1, dtype=gt.float64))
    yield SampleInput(make_tensor((5,), dtype), gt.tensor(0.5, dtype=gt.float64))
    if dtype in (gt.bfloat16, gt.float16):   # torch rounds the operand to it: 257 -> 256
        for value in (257.0, 255.5, 2049.0, 0.1):
            yield SampleInput(gt.tensor([256.0, 2048.0, 0.1], dtype=dtype), value)
            yield SampleInput(gt.tensor([256.0, 2048.0, 0.1], dtype=dtype), gt.tensor(value))


def sample_comparison(ordered: bool):
    def samples(dtype):
        for a, b in tensor_pairs(dtype):
            yield SampleInput(a, b)
        yield from _special(dtype)
        if not (ordered and dtype.is_complex):
            yield from _numbers(dtype, ordered)
            yield from _mixed(dtype)
    return samples


def sample_alias(dtype):
    """Aliases run the main operator's kernel: a few samples prove the wiring."""
    pairs = tensor_pairs(dtype)
    for _ in range(4):
        yield SampleInput(*next(pairs))
    yield SampleInput(make_tensor((3,), dtype), 2)


def sample_unary(dtype):
    for x in tensors(dtype):
        yield SampleInput(x)
    yield from (SampleInput(s.input) for s in _special(dtype))


def sample_bitwise(dtype):
    for a, b in tensor_pairs(dtype):
        yield SampleInput(a, b)
    x = make_tensor((3, 4), dtype)
    for value in (True, 6, -1, np.int64(3), 2 ** 40):
        yield SampleInput(x, value)
    if dtype is gt.uint8:
        yield SampleInput(gt.tensor([255, 1, 128], dtype=gt.uint8),
                          gt.tensor([-1, 3, 127], dtype=gt.int8))
    if dtype is gt.bool:
        yield SampleInput(x, gt.tensor([7, 0, 1, 2], dtype=gt.int16))


def sample_shift(dtype):
    for a, b in tensor_pairs(dtype, low=0, high=8):
        yield SampleInput(a, b)
    bits = numpy_dtype(dtype).itemsize * 8
    values = make_tensor((4,), dtype, low=-100 if dtype is not gt.uint8 else 0, high=100)
    amounts = np.array([0, 1, bits - 1, bits, bits + 1, 1000, -1, -bits])
    yield SampleInput(values.unsqueeze(1),
                      gt.from_numpy(amounts.astype(numpy_dtype(dtype))))  # wrapped amounts
    for amount in (0, 3, bits - 1, bits, 64, 65, -1, 2 ** 62):
        yield SampleInput(values, amount)
    if dtype is gt.uint8:
        yield SampleInput(gt.tensor([200], dtype=gt.uint8), gt.tensor([1], dtype=gt.int8))


def sample_logical(dtype):
    for a, b in tensor_pairs(dtype, low=-1, high=2):
        yield SampleInput(a, b)
    yield from _special(dtype)
    yield SampleInput(make_tensor((3, 4), dtype, low=-1, high=2),
                      make_tensor((4,), gt.float32, low=-1, high=2))
    yield SampleInput(make_tensor((3,), dtype, low=-1, high=2), gt.tensor(0.5))


def sample_isclose(dtype):
    for a, b in tensor_pairs(dtype):
        yield SampleInput(a, b)
        yield SampleInput(a, b, rtol=0.5, atol=2)
    if dtype.is_floating_point or dtype.is_complex:
        for s in _special(dtype):
            yield SampleInput(*s.args)
            yield SampleInput(*s.args, equal_nan=True)
        x = make_tensor((5,), dtype, low=1, high=4)
        yield SampleInput(x, x * 1.001, rtol=0.01)
        yield SampleInput(x, x * 1.1, rtol=0.01, atol=0)
        yield SampleInput(x, x + 0.5, rtol=0, atol=0)
    if dtype in INTEGRAL:
        low = 0 if dtype is gt.uint8 else -5
        a = make_tensor((6,), dtype, low=low, high=5)
        b = make_tensor((6,), dtype, low=low, high=5, seed=3)
        yield SampleInput(a, b, atol=3)          # differences must not wrap
        yield SampleInput(a, b, rtol=0.5)


def sample_equal(dtype):
    for a, b in tensor_pairs(dtype):
        yield SampleInput(a, b)
        yield SampleInput(a, a.clone())
    x = make_tensor((3, 4), dtype)
    yield SampleInput(x, x)
    yield SampleInput(x, x.to(gt.float64))
    yield SampleInput(x, x.t())
    yield from _special(dtype)
    if dtype is gt.uint8:
        yield SampleInput(gt.tensor([255], dtype=gt.uint8), gt.tensor([-1], dtype=gt.int8))


# ----- error inputs ----------------------------------------------------------------
def _broadcast_error(a_size=3, b_size=2):
    return (rf"^The size of tensor a \({a_size}\) must match the size of tensor b "
            rf"\({b_size}\) at non-singleton dimension 0$")


def errors_ordered(kernel: str):
    def errors():
        c = make_tensor((3,), gt.complex64)
        message = rf"^\"{kernel}_cpu\" not implemented for 'ComplexFloat'$"
        yield ErrorInput(SampleInput(c, c), NotImplementedError, message)
        yield ErrorInput(SampleInput(make_tensor((3,), gt.int64), 1j), NotImplementedError,
                         message)
        yield ErrorInput(SampleInput(make_tensor((3,), gt.float16), 2j), NotImplementedError,
                         rf"^\"{kernel}_cpu\" not implemented for 'ComplexHalf'$")
    return errors


def errors_broadcast():
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), make_tensor((2,), gt.float32)),
                     RuntimeError, _broadcast_error(),
                     known_bug_on_meta="machinery owner: meta broadcasting errors are worded "
                                       "as torch's CPU ones, torch's meta words them otherwise")


def errors_bitwise(kernel: str, bool_ok: bool = True):
    def errors():
        f = make_tensor((3,), gt.float32)
        i = make_tensor((3,), gt.int64)
        yield ErrorInput(SampleInput(f, f), NotImplementedError,
                         rf"^\"{kernel}_cpu\" not implemented for 'Float'$")
        yield ErrorInput(SampleInput(i, 1.5), NotImplementedError,
                         rf"^\"{kernel}_cpu\" not implemented for 'Float'$")
        yield ErrorInput(SampleInput(i, make_tensor((3,), gt.complex128)), NotImplementedError,
                         rf"^\"{kernel}_cpu\" not implemented for 'ComplexDouble'$")
        yield ErrorInput(SampleInput(make_tensor((3,), gt.bfloat16), 1), NotImplementedError,
                         rf"^\"{kernel}_cpu\" not implemented for 'BFloat16'$")
        if not bool_ok:
            b = make_tensor((3,), gt.bool)
            yield ErrorInput(SampleInput(b, True), NotImplementedError,
                             rf"^\"{kernel}_cpu\" not implemented for 'Bool'$")
    return errors


def errors_bitwise_not():
    for dtype, name in ((gt.float32, "Float"), (gt.float16, "Half"),
                        (gt.complex64, "ComplexFloat")):
        yield ErrorInput(SampleInput(make_tensor((3,), dtype)), NotImplementedError,
                         rf"^\"bitwise_not_cpu\" not implemented for '{name}'$")


def errors_isclose():
    f = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(f, f.to(gt.float64)), RuntimeError,
                     r"^Float did not match Double$")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.int64), f), RuntimeError,
                     r"^Long did not match Float$")
    yield ErrorInput(SampleInput(f, f, rtol=-1.0), RuntimeError,
                     r"^rtol must be greater than or equal to zero, but got -1$")
    yield ErrorInput(SampleInput(f, f, atol=-0.5), RuntimeError,
                     r"^atol must be greater than or equal to zero, but got -0.5$")
    yield ErrorInput(SampleInput(f, f, rtol=float("nan")), RuntimeError,
                     r"^rtol must be greater than or equal to zero, but got nan$")
    yield ErrorInput(SampleInput(f, 1.0), TypeError,
                     r"^isclose\(\): argument 'other' \(position 2\) must be Tensor, not float$")


def errors_allclose():
    f = make_tensor((3,), gt.float32)
    yield ErrorInput(SampleInput(f, f.to(gt.float64)), RuntimeError,
                     r"^Float did not match Double$")
    yield ErrorInput(SampleInput(f, make_tensor((2,), gt.float32)), RuntimeError,
                     _broadcast_error(),
                     known_bug_on_meta="machinery owner: meta broadcasting errors are worded "
                                       "as torch's CPU ones, torch's meta words them otherwise")


def errors_equal():
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), 1), TypeError,
                     r"^equal\(\): argument 'other' \(position 2\) must be Tensor, not int$")


# ----- the entries -------------------------------------------------------------------
# torch's comparisons resize a misshaped out= twice (so warn twice) when its dtype is
# neither bool nor the operands' common dtype; logical and bitwise operators follow other
# rules, which glasstorch has.
COMPARISON_OUT = {"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
    "machinery owner (pointwise out=): a comparison's out of a dtype other than bool and "
    "the common dtype is resized through a temporary in torch (two resize warnings)"))}


def _comparison_entry(name: str, ufunc, ordered_as: str | None = None, alias: bool = False):
    errors = errors_ordered(ordered_as) if ordered_as else errors_broadcast
    samples = sample_alias if alias else sample_comparison(bool(ordered_as))
    return OpInfo(f"{name}.Tensor", variants=(name, f"Tensor.{name}"), ref=_ref(ufunc),
                  sample_inputs=samples,
                  error_inputs=errors, out=name, inplace=f"Tensor.{name}_",
                  dtypes=REAL if ordered_as else ALL_DTYPES, marks=COMPARISON_OUT)


def _bitwise_entry(name: str, ref, kernel: str, dtypes=INTEGER_LIKE, samples=sample_bitwise):
    return OpInfo(f"{name}.Tensor", variants=(name, f"Tensor.{name}"), ref=ref,
                  sample_inputs=samples, dtypes=dtypes,
                  error_inputs=errors_bitwise(kernel, bool_ok=dtypes is INTEGER_LIKE),
                  out=name, inplace=f"Tensor.{name}_")


def _logical_entry(name: str, ufunc):
    return OpInfo(name, variants=(name, f"Tensor.{name}"), ref=_ref(ufunc),
                  sample_inputs=sample_logical, error_inputs=errors_broadcast, out=name,
                  inplace=f"Tensor.{name}_")


OPS = [
    _comparison_entry("eq", np.equal),
    _comparison_entry("ne", np.not_equal),
    _comparison_entry("lt", np.less, "lt"),
    _comparison_entry("le", np.less_equal, "le"),
    _comparison_entry("gt", np.greater, "gt"),
    _comparison_entry("ge", np.greater_equal, "ge"),
    _comparison_entry("greater", np.greater, "gt", alias=True),
    _comparison_entry("greater_equal", np.greater_equal, "ge", alias=True),
    _comparison_entry("less", np.less, "lt", alias=True),
    _comparison_entry("less_equal", np.less_equal, "le", alias=True),
    _comparison_entry("not_equal", np.not_equal, alias=True),
    OpInfo("isclose", variants=("isclose", "Tensor.isclose"), ref=_ref_isclose,
           sample_inputs=sample_isclose, error_inputs=errors_isclose),
    OpInfo("allclose", variants=("allclose", "Tensor.allclose"),
           ref=lambda *args, **kwargs: bool(_ref_isclose(*args, **kwargs).all()),
           sample_inputs=sample_isclose, error_inputs=errors_allclose,
           marks={"test_meta": pytest.mark.skip(
               reason="returns a Python bool: torch raises on meta (see error inputs)")}),
    OpInfo("equal", variants=("equal", "Tensor.equal"),
           ref=lambda a, b: a.shape == b.shape and bool(np.array_equal(*_common(a, b))),
           sample_inputs=sample_equal, error_inputs=errors_equal,
           marks={"test_meta": pytest.mark.skip(
               reason="returns a Python bool; torch has no meta kernel")}),
    _bitwise_entry("bitwise_and", _ref(np.bitwise_and), "bitwise_and"),
    _bitwise_entry("bitwise_or", _ref(np.bitwise_or), "bitwise_or"),
    _bitwise_entry("bitwise_xor", _ref(np.bitwise_xor), "bitwise_xor"),
    _bitwise_entry("bitwise_left_shift", _shift_ref(True), "lshift", INTEGRAL, sample_shift),
    _bitwise_entry("bitwise_right_shift", _shift_ref(False), "rshift", INTEGRAL, sample_shift),
    OpInfo("bitwise_not", variants=("bitwise_not", "Tensor.bitwise_not"),
           ref=_ref_unary(np.invert), sample_inputs=sample_unary, dtypes=INTEGER_LIKE,
           error_inputs=errors_bitwise_not, out="bitwise_not", inplace="Tensor.bitwise_not_"),
    _logical_entry("logical_and", np.logical_and),
    _logical_entry("logical_or", np.logical_or),
    _logical_entry("logical_xor", np.logical_xor),
    OpInfo("logical_not", variants=("logical_not", "Tensor.logical_not"),
           ref=_ref_unary(np.logical_not), sample_inputs=sample_unary, out="logical_not",
           inplace="Tensor.logical_not_"),
]
