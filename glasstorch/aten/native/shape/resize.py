"""Changing a tensor's size in place (resize_, resize_as_), and narrow_copy, a narrow
that copies into fresh storage.

`resize_` is the one operator that changes how much storage a tensor owns: it keeps
the leading elements, grows the storage when the new geometry needs more (new
elements are uninitialised, as in torch; glasstorch's happen to be zeros), and
leaves it as it is when the tensor shrinks, so growing back shows the old values.
"""
from __future__ import annotations

import numpy as np

from ....c10.layout import channels_last, channels_last_3d, contiguous_format, preserve_format
from ....c10.tensor_impl import contiguous_strides
from ... import functions as at
from ...derivatives import derivative_helper
from ...meta.shape import wrap_dim
from ...allocation import resize_tensor
from ...registry import TensorMeta, composite, op
from ..creation.copy import memory_format_strides, suggest_memory_format


def _resize(self, size: tuple, memory_format) -> None:
    """torch's checks, then the new geometry (and more storage if it needs it)."""
    if self.requires_grad:
        raise RuntimeError("cannot resize variables that require grad")
    if any(s < 0 for s in size):
        raise RuntimeError("numel: integer multiplication overflow")
    if memory_format is preserve_format:
        raise RuntimeError("Unsupported memory formatPreserve")
    if memory_format in (channels_last, channels_last_3d):
        stride = memory_format_strides(size, memory_format)
    elif size == self._size:
        return                  # same sizes, no format asked: the strides stay too
    else:
        stride = contiguous_strides(size)
    resize_tensor(self, size, stride)
    self._bump_version()


@composite("resize_(Tensor(a!) self, SymInt[] size, *, MemoryFormat? memory_format=None) -> "
           "Tensor(a!)", method=True, function=False)
def resize_(self, size, memory_format=None):
    """Give the tensor a new size, in place, keeping its leading elements.

    The strides become row-major (or those of `memory_format`). The storage grows
    when the new size needs more elements; elements past the old ones are
    uninitialised. A tensor that requires grad cannot be resized.

    Args:
        sizes (torch.Size or int...): the new size.

    Keyword args:
        memory_format (torch.memory_format, optional): the layout of the strides.

    Example::

        >>> x = torch.tensor([[1, 2], [3, 4], [5, 6]])
        >>> x.resize_(2, 2)
        tensor([[1, 2],
                [3, 4]])
    """
    _resize(self, tuple(size), memory_format)
    return self


@composite("resize_as_(Tensor(a!) self, Tensor the_template, *, MemoryFormat? "
           "memory_format=None) -> Tensor(a!)", method=True)
def resize_as_(self, the_template, memory_format=None):
    """`resize_` to the size of `the_template`.

    Args:
        the_template (Tensor): the tensor whose size to take.

    Keyword args:
        memory_format (torch.memory_format, optional): the layout of the strides;
            ``torch.preserve_format`` takes the template's.

    Example::

        >>> torch.zeros(6).resize_as_(torch.ones(2, 3)).shape
        torch.Size([2, 3])
    """
    if memory_format is preserve_format:
        memory_format = suggest_memory_format(the_template)
        if memory_format is contiguous_format:
            memory_format = None
    _resize(self, the_template._size, memory_format)
    return self


# ----------------------------------------------------------------------------------
# narrow_copy
# ----------------------------------------------------------------------------------
def _narrow_copy_meta(self, dim, start, length, out=None):
    if not self._size:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    if dim >= self.dim():           # torch's internal check, in its own words
        raise RuntimeError("Expected dim < static_cast<int64_t>(self_sizes.size()) to be true, "
                           "but got false.  (Could this error message be improved?  If so, "
                           "please report an enhancement request to PyTorch.)")
    d = wrap_dim(dim, self.dim())
    size = self._size[d]
    if start < -size or start > size:
        raise IndexError(f"start out of range (expected to be in range of [{-size}, {size}], "
                         f"but got {start})")
    start = start + size if start < 0 else start
    if length < 0 or start > size - length:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size "
                           f"({size}).")
    if out is not None and out._dtype is not self._dtype:
        raise RuntimeError("Expected self.dtype() == output.dtype() to be true, but got false. "
                           " (Could this error message be improved?  If so, please report an "
                           "enhancement request to PyTorch.)")
    size = self._size[:d] + (length,) + self._size[d + 1:]
    if out is not None and out._size != size:
        resize_tensor(out, size)    # torch's narrow_copy.out resizes quietly (resize_)
    return TensorMeta(size, self._dtype)


@derivative_helper
def narrow_copy_backward(grad, sizes, dim: int, start: int, length: int):
    """`grad` in the narrowed positions, zeros elsewhere. torch's formula slices
    ``start:start + length`` without wrapping a negative start, which selects nothing
    (so such a start gets a zero gradient there); done the same here."""
    zeros = grad.new_zeros(sizes)
    if start < 0:
        return zeros
    return at.slice_scatter(zeros, grad, dim % len(sizes), start, start + length, 1)


@op("narrow_copy(Tensor self, int dim, SymInt start, SymInt length) -> Tensor",
    meta=_narrow_copy_meta, out=True, method=True,
    grad={"self": "narrow_copy_backward(grad, self_sym_sizes, dim, start, length)"})
def narrow_copy(self, dim, start, length, *, out):
    """`narrow` into a new tensor: elements ``start .. start + length - 1`` along `dim`,
    copied.

    Args:
        input (Tensor): the tensor to take from.
        dim (int): the dimension to narrow.
        start (int): the first index (negative: from the end).
        length (int): how many indices to take.

    Example::

        >>> torch.narrow_copy(torch.tensor([[1, 2, 3], [4, 5, 6]]), 1, 1, 2)
        tensor([[2, 3],
                [5, 6]])
    """
    d = dim % self.ndim
    start = start % self.shape[d] if start < 0 else start
    index = (slice(None),) * d + (slice(start, start + length),)
    np.copyto(out, self[index])
