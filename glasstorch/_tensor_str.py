"""Tensor printing: `repr(tensor)` exactly as torch writes it.

Printing only reads data, so it works on the NumPy view of the tensor (`t._np`)
instead of dispatching operators. Three steps make a repr:

1. `_Formatter` looks at the values that will be shown and decides one style for
   all of them (integer, fixed-point with `precision` decimals, or scientific
   notation) and one common width, so that columns line up.
2. `_layout` writes nested brackets recursively, wrapping long rows at
   `linewidth` and eliding the middle of long dimensions with ``...`` once the
   tensor has more than `threshold` elements.
3. `tensor_repr` adds the prefix and the suffixes (``device=``, ``size=``,
   ``dtype=``, ``grad_fn=`` / ``requires_grad=``), breaking the line before a
   suffix that would overflow `linewidth`.

Note [Printing reduced-precision floats]
    torch formats every floating value through a Python float (a double), after
    upcasting float16, bfloat16 and float8 exactly. The style decision (integer
    mode, scientific mode) looks only at the finite nonzero values. So here all
    floating data is widened to float64 first; the widening is exact, and the
    strings come from Python's own float formatting, as torch's do.

Note [float8_e8m0fnu in the printer]
    float8_e8m0fnu holds only powers of two and NaN: no zero, no infinities.
    torch 2.13's printer still asks "finite and nonzero?" of it, and gets two
    surprising answers: `isfinite` is True for its NaN, and `ne(0)` compares with
    0 rounded into the format, which is the smallest value 2**-127. So NaN decides
    the style (it turns integer mode off and, every comparison with it being
    false, scientific mode too: ``[    nan,  8.0000]``), while 2**-127 does not (it
    prints as ``0.`` in integer mode). glasstorch makes the same choices so that
    reprs agree.
"""
from __future__ import annotations

import contextlib
import dataclasses
import math
from typing import Any, Iterator, Optional

import numpy as np

from .aten.math_bits import materialise
from .c10 import dtype as dtypes
from .c10.dispatch_key import MATH_BITS
from .c10.dtype import COMPLEX32_PAIR, pairs_to_complex64
from .c10.promotion import get_default_dtype
from .c10.tensor_impl import TensorBase, tensor_class


@dataclasses.dataclass
class _PrintOptions:
    precision: int = 4
    threshold: float = 1000
    edgeitems: int = 3
    linewidth: int = 80
    sci_mode: Optional[bool] = None


PRINT_OPTS = _PrintOptions()

_E8M0FNU_SMALLEST = 2.0 ** -127     # what 0 rounds to in float8_e8m0fnu

_PROFILES = {
    "default": {"precision": 4, "threshold": 1000, "edgeitems": 3, "linewidth": 80},
    "short": {"precision": 2, "threshold": 1000, "edgeitems": 2, "linewidth": 80},
    "full": {"precision": 4, "threshold": math.inf, "edgeitems": 3, "linewidth": 80},
}


def set_printoptions(precision: Optional[int] = None, threshold: Optional[float] = None,
                     edgeitems: Optional[int] = None, linewidth: Optional[int] = None,
                     profile: Optional[str] = None, sci_mode: Optional[bool] = None) -> None:
    """Change how tensors are printed (the options follow NumPy's).

    Args:
        precision: digits after the decimal point for floating values (default 4).
        threshold: tensors with more elements than this are summarized, showing
            only the first and last `edgeitems` of each dimension (default 1000).
        edgeitems: how many items to keep at each end of a summarized dimension
            (default 3).
        linewidth: the line length at which rows wrap (default 80).
        profile: ``'default'``, ``'short'`` or ``'full'``: a preset of the four
            options above, applied first so the others can override it.
        sci_mode: ``True`` or ``False`` forces scientific notation on or off;
            ``None`` (the default, and what every call without it restores) lets
            the printer choose from the range of the values.

    Example::

        >>> torch.set_printoptions(precision=2)
        >>> torch.tensor([3.14159])
        tensor([3.14])
        >>> torch.set_printoptions(profile='default')
        >>> torch.tensor([3.14159])
        tensor([3.1416])
    """
    for name, value in _PROFILES.get(profile, {}).items():
        setattr(PRINT_OPTS, name, value)
    if precision is not None:
        PRINT_OPTS.precision = precision
    if threshold is not None:
        PRINT_OPTS.threshold = threshold
    if edgeitems is not None:
        PRINT_OPTS.edgeitems = edgeitems
    if linewidth is not None:
        PRINT_OPTS.linewidth = linewidth
    PRINT_OPTS.sci_mode = sci_mode


def get_printoptions() -> dict[str, Any]:
    """The current print options, as keyword arguments for `set_printoptions`."""
    return dataclasses.asdict(PRINT_OPTS)


@contextlib.contextmanager
def printoptions(**kwargs: Any) -> Iterator[None]:
    """Apply `set_printoptions(**kwargs)` inside a ``with`` block, restoring the old options after.

    Example::

        >>> with torch._tensor_str.printoptions(precision=1):
        ...     print(torch.tensor([0.25]))
        tensor([0.2])
    """
    saved = get_printoptions()
    set_printoptions(**kwargs)
    try:
        yield
    finally:
        set_printoptions(**saved)


# ----- step 1: one style and width for all values --------------------------------------
class _Formatter:
    """The common style of a set of values: integer, fixed-point or scientific, and a width.

    Args:
        values: the values that will be printed (for a summarized tensor, only the
            shown ones): an integer or bool array, or real floating values.
        e8m0fnu: the values are float8_e8m0fnu, whose style torch decides
            differently; see Note [float8_e8m0fnu in the printer].
    """

    def __init__(self, values: np.ndarray, e8m0fnu: bool = False) -> None:
        self.floating = values.dtype.kind not in "biu"
        self.int_mode = True
        self.sci_mode = False
        self.width = 1
        if not self.floating:
            texts = [str(v) for v in values.ravel().tolist()]
        else:
            floats = np.asarray(values, np.float64).ravel()
            texts = self._choose_float_style(floats, e8m0fnu)
        self.width = max([self.width] + [len(text) for text in texts])

    def _choose_float_style(self, values: np.ndarray, e8m0fnu: bool) -> list:
        """Pick the float style from the finite nonzero values; return their texts."""
        if e8m0fnu:
            shown = values[values != _E8M0FNU_SMALLEST]     # NaN included
        else:
            shown = values[np.isfinite(values) & (values != 0)]
        if shown.size == 0:
            return []           # only zeros, nan and inf: integer mode, width 1
        magnitude = np.abs(shown)
        low, high = float(magnitude.min()), float(magnitude.max())
        self.int_mode = bool(np.all(shown == np.ceil(shown)))
        if PRINT_OPTS.sci_mode is None:
            # `high / low` is tested last: it can only overflow when `high` is huge.
            self.sci_mode = high > 1.0e8 or low < 1.0e-4 or high / low > 1000.0
        else:
            self.sci_mode = PRINT_OPTS.sci_mode
        return [self._text(v) for v in shown.tolist()]

    def _text(self, value) -> str:
        if not self.floating:
            return str(value)
        precision = PRINT_OPTS.precision
        if self.sci_mode:
            return f"{value:.{precision}e}"
        if self.int_mode:
            # The trailing dot marks a floating tensor whose values are all integers.
            text = f"{value:.0f}"
            return text if math.isinf(value) or math.isnan(value) else text + "."
        return f"{value:.{precision}f}"

    def format(self, value) -> str:
        """`value` in this style, right-aligned to the common width."""
        return self._text(value).rjust(self.width)


class _Style:
    """The formatter(s) of one tensor: one for real values, or one per part of complex values."""

    def __init__(self, values: np.ndarray, dtype: dtypes.dtype) -> None:
        self.is_complex = dtype.is_complex
        if self.is_complex:
            self.real = _Formatter(values.real)
            self.imag = _Formatter(values.imag)
        else:
            self.real = _Formatter(values, e8m0fnu=dtype is dtypes.float8_e8m0fnu)

    def element_width(self) -> int:
        """Characters one element takes in a row, with its ``", "`` separator."""
        width = self.real.width + 2
        if self.is_complex:
            width += self.imag.width + 1        # the imaginary part and its "j"
        return width

    def format(self, value) -> str:
        if not self.is_complex:
            return self.real.format(value)
        real = self.real.format(value.real)
        imag = (self.imag.format(value.imag) + "j").lstrip()
        # A negative imaginary part (also -0.0) brings its own sign.
        return real + imag if imag[0] in "+-" else real + "+" + imag


def _widened(arr: np.ndarray) -> np.ndarray:
    """`arr` with bfloat16 / float8 (ml_dtypes) values widened exactly to float64, and
    complex32 pairs to complex64.

    See Note [Printing reduced-precision floats].
    """
    if arr.dtype.kind in "biufc":
        return arr
    return pairs_to_complex64(arr) if arr.dtype == COMPLEX32_PAIR else arr.astype(np.float64)


def _python_values(arr: np.ndarray) -> list:
    """The elements as Python numbers."""
    return _widened(arr).tolist()


def _shown_values(arr: np.ndarray, summarize: bool) -> np.ndarray:
    """The elements a summarized print shows: `edgeitems` at both ends of each long dimension."""
    if not summarize:
        return arr
    edge = PRINT_OPTS.edgeitems
    keep = []
    for size in arr.shape:
        if size > 2 * edge:
            keep.append(np.r_[0:edge, size - edge:size])
        else:
            keep.append(np.arange(size))
    return arr[np.ix_(*keep)] if arr.ndim else arr


# ----- step 2: nested brackets ------------------------------------------------------------
def _layout(arr: np.ndarray, indent: int, summarize: bool, style: _Style) -> str:
    """The bracketed text of `arr`, whose first line starts at column `indent`."""
    if arr.ndim == 0:
        return style.format(_python_values(arr))
    if arr.ndim == 1:
        return _layout_row(arr, indent, summarize, style)
    edge = PRINT_OPTS.edgeitems
    count = arr.shape[0]
    if summarize and count > 2 * edge:
        parts = ([_layout(arr[i], indent + 1, summarize, style) for i in range(edge)] + ["..."]
                 + [_layout(arr[i], indent + 1, summarize, style)
                    for i in range(count - edge, count)])
    else:
        parts = [_layout(sub, indent + 1, summarize, style) for sub in arr]
    # Sub-blocks of a 3-D or deeper tensor are separated by blank lines.
    separator = "," + "\n" * (arr.ndim - 1) + " " * (indent + 1)
    return "[" + separator.join(parts) + "]"


def _layout_row(arr: np.ndarray, indent: int, summarize: bool, style: _Style) -> str:
    """One dimension of elements, wrapped so that lines fit in `linewidth`."""
    edge = PRINT_OPTS.edgeitems
    if summarize and not edge:
        items = ["..."]
    elif summarize and arr.shape[0] > 2 * edge:
        items = ([style.format(v) for v in _python_values(arr[:edge])] + [" ..."]
                 + [style.format(v) for v in _python_values(arr[-edge:])])
    else:
        items = [style.format(v) for v in _python_values(arr)]
    per_line = max(1, math.floor((PRINT_OPTS.linewidth - indent) / style.element_width()))
    lines = [", ".join(items[i:i + per_line]) for i in range(0, len(items), per_line)]
    return "[" + (",\n" + " " * (indent + 1)).join(lines) + "]"


def _tensor_str(t: TensorBase, indent: int) -> str:
    """The bracketed values of a CPU tensor, laid out from column `indent`."""
    if t.numel() == 0:
        return "[]"
    arr = t._np
    summarize = t.numel() > PRINT_OPTS.threshold
    # Any bit pattern may be a tensor's content, signalling NaNs included; casting
    # or rounding those raises NumPy's "invalid" warning, which torch never shows.
    with np.errstate(invalid="ignore"):
        style = _Style(_widened(_shown_values(arr, summarize)), t._dtype)
        return _layout(arr, indent, summarize, style)


# ----- step 3: prefix and suffixes ---------------------------------------------------------
def tensor_repr(t: TensorBase, tensor_contents: Optional[str] = None) -> str:
    """The text of `repr(t)`: ``tensor(<values>, <suffixes>)``.

    Args:
        t: the tensor to print.
        tensor_contents: text to print in place of the values (subclasses use it
            to show something else while keeping torch's suffixes).

    Returns:
        A string such as ``tensor([1., 2.], dtype=torch.float64)``.

    Example::

        >>> torch.zeros(2, 3, device='meta')
        tensor(..., device='meta', size=(2, 3))
    """
    # torch prints Tensor and nn.Parameter (which marks itself, nn being a layer above)
    # as "tensor(", other subclasses by their class name.
    plain = type(t) is tensor_class() or "_prints_as_tensor" in type(t).__dict__
    prefix = "tensor(" if plain else f"{type(t).__name__}("
    indent = len(prefix)
    suffixes = []
    # CPU is the only default device torch's printer knows; any other is named.
    if t._device.type != "cpu":
        suffixes.append(f"device='{t._device}'")
    contents = _contents_and_suffixes(t, indent, suffixes, tensor_contents)
    grad_fn_name = _grad_fn_name(t)
    if grad_fn_name is not None:
        suffixes.append(f"grad_fn=<{grad_fn_name}>")
    elif t.requires_grad:
        suffixes.append("requires_grad=True")
    tangent = t._autograd.fw_grad if t._autograd is not None else None
    if tangent is not None:                     # a dual tensor of forward AD
        suffixes.append(f"tangent={tangent!r}")
    return _join_suffixes(prefix + contents, suffixes, indent)


def _contents_and_suffixes(t: TensorBase, indent: int, suffixes: list,
                           contents: Optional[str]) -> str:
    """The values text of `t` (or `contents`); appends the ``size=`` / ``dtype=`` suffixes.

    The values of a meta tensor are unknown and an empty tensor shows none, so
    both name their shape (an empty 1-D one excepted: ``[]`` says it all) and
    any dtype other than the default floating one.
    """
    size = f"size={tuple(t._size)}"
    dtype = f"dtype={t._dtype}"
    is_meta = t._device.type == "meta"
    if is_meta or t.numel() == 0:
        if is_meta or t.dim() != 1:
            suffixes.append(size)
        if t._dtype is not get_default_dtype():
            suffixes.append(dtype)
        placeholder = "..." if is_meta else "[]"
        return placeholder if contents is None else contents
    if not PRINT_OPTS.edgeitems:
        suffixes.append(size)       # every value is elided, so the shape is shown
    if t._dtype not in _inferred_dtypes():
        suffixes.append(dtype)
    if contents is not None:
        return contents
    # a lazy conjugate or negation shows its values (Note [Math bits])
    return _tensor_str(materialise(t) if t._keys & MATH_BITS else t, indent)


def _inferred_dtypes() -> tuple:
    """The dtypes `torch.tensor` infers from Python data, which a repr leaves unnamed."""
    default = get_default_dtype()
    complex_default = dtypes.complex128 if default is dtypes.float64 else dtypes.complex64
    return (default, complex_default, dtypes.int64, dtypes.bool)


def _grad_fn_name(t: TensorBase) -> Optional[str]:
    """The name of the node that made `t`, None for a leaf."""
    try:
        node = t.grad_fn
    except RuntimeError:
        # torch cannot rebase some views modified in place under no_grad; it prints this.
        return "Invalid"
    if node is None:
        return None
    name = getattr(node, "name", None)
    if callable(name):
        return name().rsplit("::", 1)[-1]
    return type(node).__name__


def _join_suffixes(text: str, suffixes: list, indent: int) -> str:
    """Append ``, suffix`` items and the closing parenthesis, wrapping before `linewidth`.

    The length of the last line is counted as torch counts it (two more than its
    length when the text is one line, one more otherwise), so that lines break
    exactly where torch's do.
    """
    parts = [text]
    line_length = len(text) - text.rfind("\n") + 1
    for suffix in suffixes:
        if line_length + len(suffix) + 2 > PRINT_OPTS.linewidth:
            parts.append(",\n" + " " * indent + suffix)
            line_length = indent + len(suffix)
        else:
            parts.append(", " + suffix)
            line_length += len(suffix) + 2
    parts.append(")")
    return "".join(parts)
