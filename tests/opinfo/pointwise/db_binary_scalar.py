"""OpInfo entries for the `.Scalar` overloads of add, sub, mul, div
(`aten/native/pointwise/binary_scalar.py`): a tensor and a number, reached through
``torch.ops.aten`` only (the Python bindings take the Tensor overloads)."""
import glasstorch as gt

from ..core import ALL_DTYPES, COMPLEX, FLOATING, INTEGRAL, OpInfo, SampleInput, make_tensor, \
    tensors
from .db_binary import _add, _numbers, ref_binary

NOT_BOOL = INTEGRAL + FLOATING + COMPLEX
INEXACT = FLOATING + COMPLEX


def _with_numbers(dtype):
    """The standard tensors against one number each, and every kind of number."""
    for i, x in enumerate(tensors(dtype)):
        yield SampleInput(x, (3, -2, 0.5, True)[i % 4])
    # Python numbers only: torch.ops.aten's Scalar refuses NumPy's ("Cannot cast 4 to
    # number"), where glasstorch's accepts them
    numbers = (2, -3, 2.5, 1 + 2j) if dtype is not gt.bool else (2, True)
    yield from (s for s in _numbers(dtype, numbers) if type(s.args[1]).__module__ != "numpy")


def _division_numbers(dtype):
    """`_with_numbers` without complex numbers for float16 (torch has no complex32
    division)."""
    return (s for s in _with_numbers(dtype)
            if not (dtype is gt.float16 and isinstance(s.args[1], complex)))


def _with_alpha(dtype):
    yield from _with_numbers(dtype)
    x = make_tensor((3, 4), dtype)
    if dtype is not gt.bool:
        yield SampleInput(x, 2, 3)
        yield SampleInput(x, 2, alpha=-2)
    if dtype.is_floating_point or dtype.is_complex:
        yield SampleInput(x, 0.5, 2.5)


def _same_kind(dtype):
    """For the in-place forms: numbers that keep `dtype` (self cannot widen), on layouts
    that give each element its own memory."""
    number = True if dtype is gt.bool else 3 if not (dtype.is_floating_point or
                                                     dtype.is_complex) else -1.5
    for x in tensors(dtype):
        if 0 not in x.stride() or x.numel() <= 1:
            yield SampleInput(x, number)


def _entry(name, ref, samples, dtypes, **kwargs):
    overload = f"ops.aten.{name}.Scalar"
    return OpInfo(f"{name}.Scalar", variants=(overload,), ref=ref, sample_inputs=samples,
                  dtypes=dtypes, out=f"ops.aten.{name}.Scalar_out", **kwargs)


def _inplace_entry(name, ref, dtypes):
    return OpInfo(f"{name}_.Scalar", variants=(f"ops.aten.{name}_.Scalar",), ref=ref,
                  sample_inputs=_same_kind, dtypes=dtypes, mutates_input=True)


_ADD = ref_binary(_add)
_SUB = ref_binary(lambda x, y, alpha=1: _add(x, y, -alpha))
_MUL = ref_binary(lambda x, y: x * y)
_DIV = ref_binary(lambda x, y: x / y, to_float=True)

OPS = [
    _entry("add", _ADD, _with_alpha, ALL_DTYPES),
    _entry("sub", _SUB, lambda d: (s for s in _with_alpha(d) if s.args[1] is not True),
           NOT_BOOL),
    _entry("mul", _MUL, _with_numbers, ALL_DTYPES),
    _entry("div", _DIV, _division_numbers, ALL_DTYPES),
    _inplace_entry("add", _ADD, ALL_DTYPES),
    _inplace_entry("sub", _SUB, NOT_BOOL),
    _inplace_entry("mul", _MUL, ALL_DTYPES),
    _inplace_entry("div", _DIV, INEXACT),
]
