"""`slice_inverse`: from a slice back to the tensor it was sliced from.

Given `self`, a slice of `src` (``src[..., start:end:step, ...]`` along `dim`), the
result views `self`'s storage with `src`'s sizes, strides and offset: the whole of
`src` again. Functionalization uses it to replay a write to a slice onto its base. The
slice arguments serve only the gradient: `self`'s is the slice of the result's
gradient that `self` covered; `src`, whose values the result never reads, gets zeros.
"""
from __future__ import annotations

from ...backends import register_meta
from ...derivatives import derivative_helper
from ...registry import view
from .view import slice_, strided_geometry


@derivative_helper
def slice_inverse_backward(grad, dim: int, start, end, step: int):
    return slice_.call(grad, dim, start, end, step)


@view("slice_inverse(Tensor(a) self, Tensor src, int dim=0, SymInt? start=None, "
      "SymInt? end=None, SymInt step=1) -> Tensor(a)",
      grad={"self": "slice_inverse_backward(grad, dim, start, end, step)",
            "src": "zeros_like(src)"})
def slice_inverse(self, src, dim=0, start=None, end=None, step=1):
    """A view of `self`'s storage shaped as `src`, the tensor `self` was sliced from.

    Example::

        >>> base = torch.arange(6.)
        >>> torch.slice_inverse(base[2:4], base, 0, 2, 4).tolist()
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    """
    return strided_geometry(self, src._size, src._stride, src._offset, True)


@register_meta(slice_inverse)
def _slice_inverse_meta(self, src, dim=0, start=None, end=None, step=1):
    """As `as_strided`'s, unchecked against storage bounds on meta."""
    return strided_geometry(self, src._size, src._stride, src._offset, False, meta_words=True)
