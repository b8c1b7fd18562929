"""A tensor's memory as the NumPy array an MPI call reads or writes (Note [MPI engine]).

A contiguous tensor of a dtype MPI knows is handed over as it is: MPI writes the result
straight into the tensor. Otherwise the call works on a contiguous copy (bits of the same
width for the dtypes MPI only moves, wider values for those it cannot reduce in) and
`finish` copies the result back into the tensor.
"""
from __future__ import annotations

from typing import Any

import numpy as np

import glasstorch as torch

from . import mpi_engine

_SAME_WIDTH_BITS = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
# the dtypes MPI moves as they are; the others go as bits of the same width
_MPI_DTYPES = frozenset({torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64,
                         torch.uint16, torch.uint32, torch.uint64, torch.float32,
                         torch.float64, torch.complex64, torch.complex128})


def _reduced_in(dtype: Any) -> Any:
    """The dtype MPI reduces `dtype`'s values in: its own, or a wider one for the types
    MPI lacks (16- and 8-bit floats in float32, complex32 in complex64, bool in uint8)."""
    if dtype == torch.bool:
        return torch.uint8
    if dtype.is_complex and dtype.itemsize < 8:
        return torch.complex64
    if dtype.is_floating_point and dtype.itemsize < 4:
        return torch.float32
    return dtype


class Buffer:
    """The array of `tensor` for one MPI call.

    Args:
        tensor: the tensor the call reads (and, for an output, writes).
        arithmetic: MPI reduces the values, so they must be in a dtype it computes in;
            otherwise it only moves them, and any dtype goes as bits.
    """

    def __init__(self, tensor: Any, arithmetic: bool = False) -> None:
        self.tensor = tensor
        source = tensor.detach()
        if arithmetic and _reduced_in(source.dtype) != source.dtype:
            source = source.to(_reduced_in(source.dtype))
        self.work = source.contiguous()
        self.copied = self.work.dtype != tensor.dtype or not tensor.is_contiguous()
        self.array = _numpy_view(self.work)

    def finish(self) -> None:
        """Put the call's result into the tensor, where the call worked on a copy."""
        if self.copied:
            with torch.no_grad():
                self.tensor.copy_(self.work)


def _numpy_view(tensor: Any) -> np.ndarray:
    """The NumPy array sharing `tensor`'s (contiguous) memory, in a dtype MPI knows."""
    if tensor.dtype not in _MPI_DTYPES:
        tensor = tensor.view(_SAME_WIDTH_BITS[tensor.dtype.itemsize])
    return tensor.numpy().reshape(-1)


def reduce_op_for(op: Any, tensor: Any, collective: str) -> Any:
    """The MPI operation of ReduceOp `op` for `tensor`, refused as torch refuses it.

    Raises:
        ValueError: an ordering reduction on complex tensors.
        RuntimeError: a bitwise reduction on floating-point tensors.
    """
    name = op.name
    if tensor.dtype.is_complex and name in ("MAX", "MIN", "PRODUCT", "BAND", "BOR", "BXOR"):
        raise ValueError(f"{collective} does not support {op} on complex tensors")
    if name in ("BAND", "BOR", "BXOR") and (tensor.dtype.is_floating_point or
                                           tensor.dtype.is_complex):
        raise RuntimeError(f"Cannot use ReduceOp.{name} with non-integral dtype")
    if name not in ("SUM", "AVG", "PRODUCT", "MIN", "MAX", "BAND", "BOR", "BXOR"):
        raise ValueError(f"Cannot use {op} with the MPI engine")
    return mpi_engine.reduce_op(name)
