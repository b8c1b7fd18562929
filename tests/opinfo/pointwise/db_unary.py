"""OpInfo entries for the unary elementwise operators (`aten/native/pointwise/unary.py`,
`trigonometric.py`, `rounding.py`, `predicates.py`, `conj.py`)."""
import numpy as np
import pytest

import glasstorch as gt

from ..convert import numpy_dtype
from ..core import (ALL_DTYPES, BOOL, COMPLEX, FLOATING, INTEGRAL, ErrorInput, OpInfo,
                   SampleInput, make_tensor, tensors)

REAL = BOOL + INTEGRAL + FLOATING
NOT_BOOL = INTEGRAL + FLOATING + COMPLEX
INTEGRAL_AND_FLOATING = INTEGRAL + FLOATING
SPECIAL = [float("nan"), float("inf"), -float("inf"), -0.0, 0.0, 0.5, -0.5, 1.5, 2.5, -2.5,
           1.0, -1.0, 3e38, 1e-30, 0.999, 65504.0]


# ----- references --------------------------------------------------------------------
def _kinds(dtype: np.dtype, result: str) -> tuple:
    """(compute, result) NumPy dtypes as torch has them for an input of `dtype`.

    `result`: "same" (the input's), "float" (integers and bool become float32), "real"
    (complex becomes its real dtype), "float_real" (both), "bool", "long" (bool
    becomes int64)."""
    narrow = dtype.kind == "V" or dtype == np.float16        # float16, bfloat16
    integral = dtype.kind in "biu"
    if result in ("float", "float_real") and integral:
        return np.dtype(np.float32), np.dtype(np.float32)
    if result == "long" and dtype.kind == "b":
        return np.dtype(np.int64), np.dtype(np.int64)
    compute = np.dtype(np.float32) if narrow else dtype
    if result == "bool":
        return compute, np.dtype(np.bool_)
    if result in ("real", "float_real") and dtype.kind == "c":
        return compute, np.dtype(np.float32 if dtype == np.complex64 else np.float64)
    return compute, dtype


def _ref(function, result: str = "same"):
    """A reference computing `function` in torch's compute dtype, cast to its result."""
    def ref(a, *args, **kwargs):
        compute, wanted = _kinds(a.dtype, result)
        with np.errstate(all="ignore"):
            value = np.asarray(function(np.asarray(a).astype(compute), *args, **kwargs))
        return value.astype(wanted)
    return ref


def _sign(x):
    if x.dtype.kind == "b":
        return x.copy()
    return np.where(np.isnan(x), 0, np.sign(x)).astype(x.dtype)


def _sgn(x):
    if x.dtype.kind != "c":
        return _sign(x)
    magnitude = np.abs(x)
    return np.where(magnitude == 0, 0, x / np.where(magnitude == 0, 1, magnitude))


def _signbit(x):
    return np.signbit(x) if x.dtype.kind == "f" else x < 0


def _angle(x):
    if x.dtype.kind == "c":
        return np.angle(x)
    return np.where(np.isnan(x), x, np.where(x < 0, np.pi, 0))


def _round_decimals(x, decimals):
    scale = x.dtype.type(10.0 ** abs(decimals))
    return np.rint(x * scale) / scale if decimals >= 0 else np.rint(x / scale) * scale


def _rounded(function):
    """floor/ceil/round/trunc: integers unchanged."""
    return lambda x: x.copy() if x.dtype.kind in "iu" else function(x)


def _log2(x):
    """torch divides both parts of a complex log by ln 2 (NumPy multiplies, 1 ulp off)."""
    if x.dtype.kind != "c":
        return np.log2(x)
    log = np.log(x)
    ln2 = log.real.dtype.type(np.log(2))
    return (log.real / ln2) + 1j * (log.imag / ln2)


def _isreal(x):
    return x.imag == 0 if x.dtype.kind == "c" else np.ones(x.shape, bool)


# ----- samples -----------------------------------------------------------------------
def _special(dtype):
    """nan, infinities, signed zeros, halves (rounding), huge and tiny values; for
    integers their extremes."""
    if dtype.is_floating_point or dtype.is_complex:
        values = np.array(SPECIAL)
        if dtype.is_complex:
            values = values + 1j * values[::-1]
    elif dtype is gt.bool:
        values = np.array([True, False])
    else:
        info = np.iinfo(numpy_dtype(dtype))
        values = np.array([info.min, info.max, 0, 1, -1 if info.min else 2, info.min + 1])
    with np.errstate(over="ignore"):
        yield SampleInput(gt.from_numpy(values.astype(numpy_dtype(dtype))))


def sample_unary(dtype):
    """Every standard shape and layout, the special values, and values in (0, 1) and
    (1, 10), inside the domains of asin, acosh, atanh, log, sqrt..."""
    for x in tensors(dtype):
        yield SampleInput(x)
    yield from _special(dtype)
    if dtype.is_floating_point or dtype.is_complex:
        yield SampleInput(make_tensor((3, 4), dtype, low=0.05, high=0.95))
        yield SampleInput(make_tensor((6,), dtype, "strided", low=1.05, high=10))


def sample_alias(dtype):
    """Aliases run the main operator's kernel: a few samples prove the wiring."""
    inexact = dtype.is_floating_point or dtype.is_complex
    yield SampleInput(make_tensor((3, 4), dtype, **({"low": 0.05, "high": 0.95} if inexact
                                                     else {})))
    yield SampleInput(make_tensor((2, 3), dtype, "transposed"))
    yield SampleInput(make_tensor((), dtype))
    yield from _special(dtype)


def sample_round_decimals(dtype):
    x = make_tensor((3, 4), dtype)
    for decimals in (0, 1, 2, 3, -1, -2, 7, 40, -40):
        yield SampleInput(x, decimals=decimals)
    special = next(_special(dtype)).input
    for decimals in (0, 1, -1):
        yield SampleInput(special, decimals=decimals)
    yield SampleInput(make_tensor((4, 0, 2), dtype), decimals=2)
    yield SampleInput(make_tensor((2, 3, 4), dtype, "strided", low=-1000, high=1000),
                      decimals=-2)
    yield SampleInput(gt.tensor([0.125, 0.375, 2.675, -1.005, 12345.678]).to(dtype),
                      decimals=2)


EMPTY_LIKE = ("unary: torch makes this result with empty_like / zeros_like, which keep an "
              "empty input's strides; glasstorch lays every empty result out densely")
ROW_MAJOR = ("unary: torch's complex angle is always row-major; glasstorch follows the "
             "input's layout as for every elementwise op")


def _odd_empty(t) -> bool:
    """An empty tensor whose strides are not the row-major ones (e.g. all zero)."""
    return t.numel() == 0 and t.stride() != gt.empty(t.shape).stride()


def _column_major(t) -> bool:
    return t.dim() >= 2 and t.numel() > 1 and not t.is_contiguous() and \
        t.permute(*reversed(range(t.dim()))).is_contiguous()


def known_where(dtypes: tuple, reason: str, when=_odd_empty, samples=sample_unary):
    """`samples` with those of `dtypes` whose input satisfies `when` marked known."""
    def generate(dtype):
        for sample in samples(dtype):
            hit = dtype in dtypes and when(sample.input)
            yield sample.known(reason) if hit else sample
    return generate


# ----- error inputs ------------------------------------------------------------------
TORCH_NAMES = {gt.bool: "Bool", gt.uint16: "UInt16", gt.uint32: "UInt32", gt.uint64: "UInt64",
               gt.int64: "Long", gt.uint8: "Byte", gt.complex64: "ComplexFloat",
               gt.complex128: "ComplexDouble", gt.float32: "Float", gt.float16: "Half",
               gt.bfloat16: "BFloat16"}


def _x(dtype, *args, **kwargs):
    return SampleInput(make_tensor((3,), dtype), *args, **kwargs)


def no_kernel(kernel: str, dtypes: tuple, **kwargs):
    """torch's CPU kernel has no loop for these dtypes (meta calls pass)."""
    def errors():
        for dtype in dtypes:
            yield ErrorInput(_x(dtype, **kwargs), NotImplementedError,
                             rf"^\"{kernel}\" not implemented for '{TORCH_NAMES[dtype]}'$")
    return errors


def refused(dtype, error: type, message: str, **options):
    """One input of `dtype` raising `error` with `message` (a regex without anchors)."""
    def errors():
        yield ErrorInput(_x(dtype), error, f"^{message}$", **options)
    return errors


def chained(*makers):
    def errors():
        for make in makers:
            yield from make()
    return errors


_WIDE_UNSIGNED = (gt.uint16, gt.uint32, gt.uint64)
_NEG_BOOL = (r"Negation, the `-` operator, on a bool tensor is not supported\. If you are "
             r"trying to invert a mask, use the `~` or `logical_not\(\)` operator instead\.")
_SIGN_COMPLEX = (r"Unlike NumPy, torch\.sign is not intended to support complex numbers\. "
                 r"Please use torch\.sgn instead\.")


def not_a_tensor(name: str):
    """torch's unary functions take no Python numbers (no Scalar overloads)."""
    def errors():
        yield ErrorInput(SampleInput(2), TypeError,
                         rf"^{name}\(\): argument 'input' \(position 1\) must be Tensor, not int$")
    return errors


def errors_rounding(name: str, kernel: str):
    return chained(no_kernel(kernel, (gt.bool,)),
                   refused(gt.complex64, NotImplementedError,
                           rf"{name} is not supported for complex inputs"))


def errors_round_decimals():
    yield from no_kernel("round_cpu", (gt.int64, gt.bool, gt.complex128), decimals=2)()
    yield from no_kernel("round_vml_cpu", (gt.uint8,), decimals=0)()


def errors_frac():
    """On meta, torch's frac subtracts bools and meets that refusal instead."""
    yield from no_kernel("frac_cpu", (gt.int64, gt.uint8, gt.complex64, gt.bool))()


def errors_inf(name: str):
    def errors():
        yield ErrorInput(_x(gt.complex64), RuntimeError,
                         rf"^{name} does not support complex inputs\.$")
    return errors


# ----- the entries -------------------------------------------------------------------
OWN_ERRORS: dict = {}        # name -> its error inputs, but for the number refusal


def unary(name: str, ref, dtypes=ALL_DTYPES, samples=sample_unary, errors=lambda: (),
          out: bool = True, inplace: bool = True, marks: dict | None = None, **options):
    """An entry for a one-operand operator called as ``torch.name`` / ``x.name``."""
    overload = options.pop("overload", name)
    OWN_ERRORS.setdefault(name, errors)
    if name != "round":                   # round's two signatures word it otherwise
        errors = chained(errors, not_a_tensor(name))
    return OpInfo(overload, variants=(name, f"Tensor.{name}"), ref=ref, dtypes=dtypes,
                  sample_inputs=samples, error_inputs=errors, out=name if out else None,
                  inplace=f"Tensor.{name}_" if inplace else None,
                  marks=marks or {}, **options)


def floating(name: str, function, **options):
    """Integers and bool compute in the default float dtype."""
    return unary(name, _ref(function, "float"), **options)


def OUT_ROUNDING(name: str) -> dict:
    """torch's out= of another dtype runs its scalar loop, which rounds otherwise."""
    return {"test_out_matches_torch": pytest.mark.xfail(strict=True, reason=(
        f"unary: with an out= of another dtype torch's {name} takes its scalar loop, "
        "whose results differ from its vectorized one (and glasstorch's) in the last bit: "
        "bfloat16 rsqrt rounds sqrt to bfloat16 first; float32 exp is glibc's expf"))}


# torch refuses abs_ on complex tensors although the real result fits.
COMPLEX_ABS_IN_PLACE = {"test_inplace": pytest.mark.xfail(
    strict=True, reason="torch refuses abs_ on complex tensors: test_inplace_matches_torch "
                        "checks the error")}
ALIASES = {"absolute": "abs", "negative": "neg", "arcsin": "asin", "arccos": "acos",
           "arctan": "atan", "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh",
           "fix": "trunc"}

OPS = [
    unary("abs", _ref(np.abs, "real"), dtypes=INTEGRAL_AND_FLOATING,
          errors=no_kernel("abs_cpu", BOOL + _WIDE_UNSIGNED)),
    unary("abs", _ref(np.abs, "real"), dtypes=COMPLEX, marks=COMPLEX_ABS_IN_PLACE,
          samples=known_where(COMPLEX, EMPTY_LIKE)),
    unary("neg", _ref(np.negative), dtypes=NOT_BOOL,
          errors=chained(refused(gt.bool, RuntimeError, _NEG_BOOL),
                         no_kernel("neg_cpu", _WIDE_UNSIGNED))),
    unary("positive", _ref(np.positive), dtypes=NOT_BOOL, out=False, inplace=False,
          errors=refused(gt.bool, RuntimeError, r"The `\+` operator, on a bool tensor is not "
                                                r"supported\.")),
    unary("sign", _ref(_sign), dtypes=REAL,
          errors=chained(refused(gt.complex64, NotImplementedError, _SIGN_COMPLEX),
                         no_kernel("sign_cpu", (gt.uint32,)))),
    unary("sgn", _ref(_sgn), errors=no_kernel("sign_cpu", (gt.uint64,))),
    unary("signbit", _ref(_signbit, "bool"), dtypes=REAL, inplace=False,
          errors=refused(gt.complex128, NotImplementedError,
                         r"signbit is not implemented for complex tensors\.")),
    unary("square", _ref(np.square, "long"), errors=no_kernel("pow", (gt.uint16,))),
    floating("reciprocal", np.reciprocal),
    floating("sqrt", np.sqrt),
    floating("rsqrt", lambda x: 1 / np.sqrt(x), marks=OUT_ROUNDING("rsqrt")),
    floating("exp", np.exp, marks=OUT_ROUNDING("exp")),
    floating("exp2", np.exp2),
    floating("expm1", np.expm1),
    floating("log", np.log),
    floating("log2", _log2),
    floating("log10", np.log10),
    floating("log1p", np.log1p),
    floating("sin", np.sin),
    floating("cos", np.cos),
    floating("tan", np.tan),
    floating("asin", np.arcsin),
    floating("acos", np.arccos),
    floating("atan", np.arctan),
    floating("sinh", np.sinh),
    floating("cosh", np.cosh),
    floating("tanh", np.tanh),
    floating("asinh", np.arcsinh),
    floating("acosh", np.arccosh),
    floating("atanh", np.arctanh),
    floating("sinc", np.sinc),
    floating("deg2rad", np.deg2rad, dtypes=REAL, samples=known_where(REAL, EMPTY_LIKE),
             errors=refused(gt.complex64, RuntimeError,
                            r"deg2rad is not supported for complex tensors\.")),
    floating("rad2deg", np.rad2deg, dtypes=REAL, samples=known_where(REAL, EMPTY_LIKE),
             errors=refused(gt.complex64, RuntimeError,
                            r"rad2deg is not supported for complex tensors\.")),
    unary("floor", _ref(_rounded(np.floor)), dtypes=INTEGRAL_AND_FLOATING,
          errors=errors_rounding("floor", "floor_vml_cpu")),
    unary("ceil", _ref(_rounded(np.ceil)), dtypes=INTEGRAL_AND_FLOATING,
          errors=errors_rounding("ceil", "ceil_vml_cpu")),
    unary("trunc", _ref(_rounded(np.trunc)), dtypes=INTEGRAL_AND_FLOATING,
          errors=errors_rounding("trunc", "trunc_vml_cpu")),
    unary("round", _ref(_rounded(np.rint)), dtypes=INTEGRAL_AND_FLOATING,
          errors=no_kernel("round_vml_cpu", (gt.bool, gt.complex64))),
    unary("round", _ref(_round_decimals), dtypes=FLOATING, overload="round.decimals",
          samples=sample_round_decimals, errors=errors_round_decimals),
    unary("frac", _ref(lambda x: x - np.trunc(x)), dtypes=FLOATING, errors=errors_frac),
    unary("isnan", _ref(np.isnan, "bool"), out=False, inplace=False),
    unary("isinf", _ref(np.isinf, "bool"), out=False, inplace=False,
          samples=known_where(BOOL + INTEGRAL, EMPTY_LIKE)),
    unary("isfinite", _ref(np.isfinite, "bool"), out=False, inplace=False,
          samples=known_where(BOOL + INTEGRAL, EMPTY_LIKE)),
    unary("isposinf", _ref(np.isposinf, "bool"), dtypes=REAL, inplace=False,
          errors=errors_inf("isposinf")),
    unary("isneginf", _ref(np.isneginf, "bool"), dtypes=REAL, inplace=False,
          errors=errors_inf("isneginf")),
    unary("isreal", _ref(_isreal, "bool"), out=False, inplace=False,
          samples=known_where(REAL, EMPTY_LIKE)),
    unary("angle", _ref(_angle, "float_real"), inplace=False,
          samples=known_where(COMPLEX, ROW_MAJOR, _column_major)),
    unary("conj", _ref(np.conj), out=False, inplace=False, samples=sample_alias),
    unary("conj_physical", _ref(np.conj), samples=known_where(COMPLEX, EMPTY_LIKE)),
    unary("resolve_conj", _ref(np.array), out=False, inplace=False, samples=sample_alias),
    unary("resolve_neg", _ref(np.array), out=False, inplace=False, samples=sample_alias),
    # the math bits' views; the differential tests compare every result's bits, which
    # proves is_conj and is_neg as well
    OpInfo("_conj", variants=("_conj", "Tensor._conj"), ref=_ref(np.conj), dtypes=COMPLEX,
           sample_inputs=sample_alias, is_view=True, covers=("is_conj", "is_neg")),
    unary("_neg_view", _ref(np.negative), dtypes=NOT_BOOL, out=False, inplace=False,
          samples=sample_alias, is_view=True),
]
_MAIN = {op.name: op for op in reversed(OPS)}          # the first entry of each name
OPS += [unary(alias, _MAIN[name].ref, dtypes=_MAIN[name].dtypes, samples=sample_alias,
              errors=OWN_ERRORS[name]) for alias, name in ALIASES.items()]
OPS.append(unary("absolute", _MAIN["abs"].ref, dtypes=COMPLEX, samples=sample_alias,
                 marks=COMPLEX_ABS_IN_PLACE))
