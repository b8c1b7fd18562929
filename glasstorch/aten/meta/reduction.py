"""The meta rule shared by reductions: which dims are reduced, and the result's shape.

A reduction names its dims as an int, a list of ints, or nothing (None, or an empty
list, meaning every dim, as ATen's `make_dim_mask` reads it). Dims are wrapped
(negative ones count from the end) and checked one at a time, so the first bad entry
decides torch's error. The result keeps a reduced dim as size 1 with ``keepdim=True``
and drops it otherwise; a 0-dim input reduces over its one implicit dim to a 0-dim
result. Results are always row-major, whatever the input's layout, as torch's
reductions allocate them.

Scans and sorts reduce nothing but share the single-dim rule (`reduction_dim`).
"""
from __future__ import annotations

from ...c10.dtype import scalar_type_name
from ..registry import TensorMeta
from .shape import wrap_dim, wrap_dims


def reduction_dims(dim, ndim: int) -> tuple:
    """The wrapped, distinct dims a reduction over `dim` reduces.

    Args:
        dim: None, an int, or a sequence of ints; None and ``()`` mean every dim.
        ndim: the input's number of dims (a 0-dim input accepts 0 and -1).

    Returns:
        tuple: the dims, in the order given (every dim, ascending, for None / ``()``).

    Raises:
        IndexError: a dim out of range ("Dimension out of range ...").
        RuntimeError: a repeated dim ("dim 0 appears multiple times in the list of dims"),
            or more than 64 dims (torch's TensorIterator limit).
    """
    if ndim > 64:
        raise RuntimeError("only tensors with up to 64 dims are supported")
    if dim is None or (not isinstance(dim, int) and len(dim) == 0):
        return tuple(range(ndim))
    wrapped = (wrap_dim(dim, ndim),) if isinstance(dim, int) else wrap_dims(dim, ndim)
    return wrapped if ndim else ()          # a 0-dim input's dim 0 is implicit


def reduction_dim(dim: int, ndim: int) -> int:
    """One wrapped dim of a single-dim reduction, scan or sort (0 for a 0-dim input)."""
    return wrap_dim(dim, ndim)


def reduced_shape(size: tuple, dims: tuple, keepdim: bool) -> tuple:
    """The shape left after reducing `dims` of `size`.

    Args:
        size: the input's sizes.
        dims: wrapped dims (from `reduction_dims`).
        keepdim: keep reduced dims with size 1 instead of dropping them.

    Returns:
        tuple: the result's sizes.
    """
    if keepdim:
        return tuple(1 if d in dims else n for d, n in enumerate(size))
    return tuple(n for d, n in enumerate(size) if d not in dims)


def reduction_meta(self, dim, keepdim: bool, dtype) -> TensorMeta:
    """The TensorMeta of reducing `self` over `dim` into a result of `dtype`."""
    dims = reduction_dims(dim, len(self._size))
    return TensorMeta(reduced_shape(self._size, dims, keepdim), dtype)


def reduction_count(size: tuple, dims: tuple) -> int:
    """How many input elements fold into each result element."""
    count = 1
    for d in dims:
        count *= size[d]
    return count


def check_nonempty_dims(name: str, self, dim, whole_error: Exception | None = None,
                        separator: str = "():") -> tuple:
    """Refuse to reduce an empty dim where the operation has no identity (max, argmax...).

    Returns the wrapped dims. Reducing an empty tensor over every dim raises
    `whole_error` (torch's RuntimeError asking for a dim by default); reducing over
    a named dim of size 0 raises torch's IndexError naming that dim.
    """
    dims = reduction_dims(dim, len(self._size))
    if self.numel() != 0:
        return dims
    whole = dim is None or (not isinstance(dim, int) and len(dim) == 0)
    if whole and self._size:
        raise whole_error or RuntimeError(
            f"{name}(): Expected reduction dim to be specified for input.numel() == 0. "
            f"Specify the reduction dim with the 'dim' argument.")
    for d in dims:
        if self._size[d] == 0:
            raise IndexError(f"{name}{separator} Expected reduction dim {d} to have "
                             f"non-zero size.")
    return dims


def check_out_dtype(out, wanted) -> None:
    """Refuse an out= tensor of another dtype (for results with no cast allowed)."""
    if out is not None and out._dtype is not wanted:
        raise RuntimeError(f"Expected the dtype for input and out to match, but got "
                           f"{scalar_type_name(wanted)} for input's dtype and "
                           f"{scalar_type_name(out._dtype)} for out's dtype.")
