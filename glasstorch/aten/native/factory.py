"""Factories: operators that make new tensors from sizes and options, not from inputs.

They have no tensor arguments, so the `device` argument (or the default device)
chooses the backend. The meta rule settles shape and dtype; the kernel fills the
allocated result.
"""
from __future__ import annotations

from ...c10.layout import channels_last, channels_last_3d, preserve_format, strided
from ...c10.promotion import get_default_dtype
from ...c10.tensor_impl import contiguous_strides
from ..registry import TensorMeta, op

_OPTIONS = "ScalarType? dtype=None, Layout? layout=None, Device? device=None, bool? pin_memory=None"


def check_sizes(size, op_name: str = "empty") -> tuple:
    """Refuse negative sizes, as torch does before allocating."""
    for s in size:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    return tuple(size)


def check_options(layout, pin_memory) -> None:
    """glasstorch makes strided tensors only; other layouts arrive with sparse support."""
    if layout is not None and layout is not strided:
        raise NotImplementedError(f"glasstorch does not support layout {layout} yet")
    if pin_memory:
        raise RuntimeError("Cannot access accelerator device when none is available.")


def factory_meta(size, dtype=None, layout=None, device=None, pin_memory=None,
                 memory_format=None) -> TensorMeta:
    """Result of a sized factory: the sizes given, the dtype given or the default."""
    check_options(layout, pin_memory)
    size = check_sizes(size)
    return TensorMeta(size, dtype or get_default_dtype(), memory_format_strides(size, memory_format))


def memory_format_strides(size: tuple, memory_format) -> tuple | None:
    """Strides laying out `size` in `memory_format` (None: row-major)."""
    if memory_format is None or memory_format is preserve_format:
        return None
    if memory_format is channels_last or memory_format is channels_last_3d:
        rank = 4 if memory_format is channels_last else 5
        if len(size) != rank:
            name = "channels_last" if rank == 4 else "channels_last_3d"
            raise RuntimeError(f"required rank {rank} tensor to use {name} format")
        order = (0,) + tuple(range(2, rank)) + (1,)        # N, spatial..., C: C innermost
        permuted = contiguous_strides(tuple(size[d] for d in order))
        stride = [0] * rank
        for position, d in enumerate(order):
            stride[d] = permuted[position]
        return tuple(stride)
    return None


@op(f"empty.memory_format(SymInt[] size, *, {_OPTIONS}, MemoryFormat? memory_format=None) "
    "-> Tensor", meta=factory_meta, out=True, out_overload="out")
def empty(size, dtype, layout, device, pin_memory, memory_format, *, out):
    """A tensor of the given size whose elements are not initialised.

    Args:
        size: the sizes, as varargs or one sequence.
        dtype: the element type (default: `torch.get_default_dtype()`).
        device: where to allocate (default: the default device).
        memory_format: the layout of the strides (row-major unless `channels_last`).
        requires_grad: whether autograd records operations on the result.

    Example::

        >>> torch.empty(2, 3).shape
        torch.Size([2, 3])
    """


def _strided_meta(size, stride, dtype=None, layout=None, device=None, pin_memory=None):
    check_options(layout, pin_memory)
    size = check_sizes(size)
    if len(stride) != len(size):
        raise RuntimeError(f"mismatch in length of strides and shape")
    return TensorMeta(size, dtype or get_default_dtype(), tuple(stride))


@op(f"empty_strided(SymInt[] size, SymInt[] stride, *, {_OPTIONS}) -> Tensor",
    meta=_strided_meta, out=True)
def empty_strided(size, stride, dtype, layout, device, pin_memory, *, out):
    """An uninitialised tensor with explicit strides.

    Example::

        >>> torch.empty_strided((2, 3), (1, 2)).stride()
        (1, 2)
    """


@op(f"zeros(SymInt[] size, *, {_OPTIONS}) -> Tensor", meta=factory_meta, out=True)
def zeros(size, dtype, layout, device, pin_memory, *, out):
    """A tensor filled with 0.

    Example::

        >>> torch.zeros(2, 3)
        tensor([[0., 0., 0.],
                [0., 0., 0.]])
    """
    out.fill(0)


@op(f"ones(SymInt[] size, *, {_OPTIONS}) -> Tensor", meta=factory_meta, out=True)
def ones(size, dtype, layout, device, pin_memory, *, out):
    """A tensor filled with 1.

    Example::

        >>> torch.ones(3, dtype=torch.int64)
        tensor([1, 1, 1])
    """
    out.fill(1)


def _full_meta(size, fill_value, dtype=None, layout=None, device=None, pin_memory=None):
    from ...c10.promotion import scalar_dtype
    check_options(layout, pin_memory)
    return TensorMeta(check_sizes(size), dtype or scalar_dtype(fill_value))


@op(f"full(SymInt[] size, Scalar fill_value, *, {_OPTIONS}) -> Tensor", meta=_full_meta,
    out=True)
def full(size, fill_value, dtype, layout, device, pin_memory, *, out):
    """A tensor filled with `fill_value`; its dtype is inferred from the value if not given.

    Example::

        >>> torch.full((2,), 7)
        tensor([7, 7])
    """
    out.fill(fill_value)
