"""The collectives that exchange different pieces between every pair of ranks:
reduce_scatter (each rank gets the reduction of one piece) and all_to_all (rank i's j-th
piece goes to rank j). One MPI call each (Note [MPI engine])."""
from __future__ import annotations

from typing import Any

import numpy as np

import glasstorch as torch

from . import c10d
from .c10d_types import ReduceOp
from .mpi_engine import mpi
from .collectives import _averaged, _check_chunks, _check_list, _copy_out, _returned, \
    check_same_shapes
from .process_group import Work
from .tensor_buffers import Buffer, reduce_op_for


def reduce_scatter(output: Any, input_list: list, op: Any = ReduceOp.SUM, group: Any = None,
                   async_op: bool = False) -> Work | None:
    """Reduce `input_list[i]` across the ranks into rank i's `output`."""
    pg = c10d.resolve(group, "reduce_scatter")
    if pg is None:
        return None
    _check_list(pg, input_list, "reduce_scatter", "input")
    return _reduce_scatter(pg, output, torch.stack([t.detach() for t in input_list]), op,
                           async_op)


def reduce_scatter_tensor(output: Any, input: Any, op: Any = ReduceOp.SUM, group: Any = None,
                          async_op: bool = False) -> Work | None:
    """Reduce `input` (one `output`-sized piece per rank, in rank order) across the
    ranks; rank i's `output` gets the i-th piece's reduction."""
    pg = c10d.resolve(group, "reduce_scatter_tensor")
    if pg is None:
        return None
    _check_chunks(pg, input, output, "reduce_scatter")
    return _reduce_scatter(pg, output, input, op, async_op)


def _reduce_scatter(pg: Any, output: Any, stacked: Any, op: Any, async_op: bool) -> Any:
    mpi_op = reduce_op_for(op, output, "reduce_scatter")
    check_same_shapes(pg, "reduce_scatter", output)
    result = Buffer(output, arithmetic=True)
    pieces = Buffer(stacked, arithmetic=True)
    return _returned(pg.start("Reduce_scatter_block", pieces.array, result.array, mpi_op,
                              async_op=async_op, finish=_averaged(result, op, pg.size()),
                              result=[output]), async_op)


def all_to_all(output_tensor_list: list, input_tensor_list: list, group: Any = None,
               async_op: bool = False) -> Work | None:
    """Send `input_tensor_list[j]` to rank j; receive rank j's piece for this rank into
    `output_tensor_list[j]` (the pieces may differ in size)."""
    pg = c10d.resolve(group, "all_to_all")
    if pg is None:
        return None
    _check_list(pg, input_tensor_list, "alltoall", "input")
    _check_list(pg, output_tensor_list, "alltoall", "output")
    send = [Buffer(t).array.view(np.uint8) for t in input_tensor_list]
    received = [np.empty(t.numel() * t.element_size(), np.uint8) for t in output_tensor_list]
    def finish() -> None:
        with torch.no_grad():
            for array, tensor in zip(received, output_tensor_list):
                tensor.copy_(_from_bytes(array, tensor))
    return _exchange(pg, send, received, finish, output_tensor_list, async_op)


def all_to_all_single(output: Any, input: Any, output_split_sizes: list | None = None,
                      input_split_sizes: list | None = None, group: Any = None,
                      async_op: bool = False) -> Work | None:
    """Split `input` along dim 0 (evenly, or by `input_split_sizes`) and send piece j to
    rank j; rank j's piece for this rank lands in `output`, in rank order."""
    pg = c10d.resolve(group, "all_to_all_single")
    if pg is None:
        return None
    row_bytes = input[0].numel() * input.element_size() if input.dim() else 0
    sending = Buffer(input).array.view(np.uint8)
    receiving = Buffer(output)
    send = np.split(sending, np.cumsum(_split(input, input_split_sizes, pg.size()))[:-1]
                    * row_bytes)
    received = np.split(receiving.array.view(np.uint8),
                        np.cumsum(_split(output, output_split_sizes, pg.size()))[:-1]
                        * row_bytes)
    return _exchange(pg, send, received, receiving.finish, [output], async_op)


def _split(tensor: Any, sizes: list | None, parts: int) -> list:
    if sizes:
        return list(sizes)
    if tensor.shape[0] % parts:
        raise RuntimeError("Tensor's dim 0 does not divide equally across group size")
    return [tensor.shape[0] // parts] * parts


def _exchange(pg: Any, send: list, received: list, finish: Any, result: list,
              async_op: bool) -> Any:
    """One Alltoallv of byte pieces: `send[j]` to rank j, rank j's into `received[j]`."""
    byte = mpi().BYTE
    send_counts, receive_counts = [a.size for a in send], [a.size for a in received]
    send_all = np.concatenate(send) if send else np.empty(0, np.uint8)
    receive_all = np.empty(sum(receive_counts), np.uint8)
    def unpack() -> None:
        offsets = np.cumsum([0] + receive_counts)
        for piece, start in zip(received, offsets):
            piece[...] = receive_all[start:start + piece.size]
        finish()
    return _returned(pg.start("Alltoallv", [send_all, (send_counts, None), byte],
                              [receive_all, (receive_counts, None), byte],
                              async_op=async_op, finish=unpack, result=result), async_op)


def _from_bytes(array: np.ndarray, tensor: Any) -> Any:
    """The tensor of `tensor`'s shape and dtype whose memory is the bytes `array`."""
    holder = torch.empty(tensor.shape, dtype=tensor.dtype)
    Buffer(holder).array.view(np.uint8)[...] = array
    return holder
