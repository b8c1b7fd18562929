"""The tensor collectives: each checks its arguments as torch does, then is one MPI call
on the tensors' memory (Note [MPI engine]); results land in the given tensors, in place.

With ``async_op=True`` a collective returns a Work whose `wait` completes it; otherwise
it returns None, done. A process outside the group sits the call out (torch's warning).
"""
from __future__ import annotations

from typing import Any, Callable

import glasstorch as torch

from . import c10d, mpi_engine
from .c10d_types import ReduceOp
from .process_group import ProcessGroup, Work
from .tensor_buffers import Buffer, reduce_op_for


def _returned(work: Work, async_op: bool) -> Work | None:
    if async_op:
        return work
    work.wait()
    return None


def _engine_name(group: ProcessGroup) -> str:
    return "ProcessGroupGloo" if group.name() == "gloo" else "ProcessGroupMPI"


def _root(group: ProcessGroup, rank: int | None, group_rank: int | None, call: str) -> int:
    """The group rank of a collective's root, given as a global or a group rank."""
    if group_rank is None:
        rank = 0 if rank is None else rank
        group_rank = rank if group is c10d._get_default_group() else \
            c10d.get_group_rank(group, rank)
    if not 0 <= group_rank < group.size():
        raise RuntimeError(f"{_engine_name(group)}::{call}: invalid root rank: {group_rank}")
    return group_rank


def check_same_shapes(group: ProcessGroup, call: str, tensor: Any) -> None:
    """Refuse a collective whose tensors differ across the ranks (MPI would misread them).

    Raises:
        RuntimeError: naming this rank's and the first differing rank's calls.
    """
    mine = (call, tuple(tensor.shape), str(tensor.dtype))
    everyone = group.comm.allgather(mine)
    for rank, theirs in enumerate(everyone):
        if theirs != mine:
            raise RuntimeError(
                "Detected mismatch between collectives on ranks. Rank "
                f"{group.rank()} is running collective: {_fingerprint(mine)}, but Rank "
                f"{rank} is running collective: {_fingerprint(theirs)}.")


def _fingerprint(call: tuple) -> str:
    name, shape, dtype = call
    return (f"CollectiveFingerPrint(OpType={name.upper()}, TensorShape={list(shape)}, "
            f"TensorDtypes={dtype.replace('torch.', '')})")


def _averaged(buffer: Buffer, op: Any, size: int) -> Callable:
    """The finish of a reduction: AVG divides the sum by the group size."""
    def finish() -> None:
        if op == ReduceOp.AVG:
            if buffer.work.dtype.is_floating_point or buffer.work.dtype.is_complex:
                buffer.work.div_(size)
            else:
                buffer.work.floor_divide_(size)
        buffer.finish()
    return finish


def all_reduce(tensor: Any, op: Any = ReduceOp.SUM, group: Any = None,
               async_op: bool = False) -> Work | None:
    """Reduce `tensor` across the group with `op`; every rank gets the result in place.

    Example::

        >>> tensor = torch.tensor([dist.get_rank() + 1.0])
        >>> dist.all_reduce(tensor)            # on 2 ranks: tensor([3.])
    """
    pg = c10d.resolve(group, "all_reduce")
    if pg is None:
        return None
    mpi_op = reduce_op_for(op, tensor, "all_reduce")
    check_same_shapes(pg, "all_reduce", tensor)
    return _returned(_start_all_reduce(pg, tensor, op, mpi_op, async_op), async_op)


def _start_all_reduce(pg: ProcessGroup, tensor: Any, op: Any, mpi_op: Any,
                      async_op: bool) -> Work:
    buffer = Buffer(tensor, arithmetic=True)
    return pg.start("Allreduce", mpi_engine.mpi().IN_PLACE, buffer.array, mpi_op,
                    async_op=async_op, finish=_averaged(buffer, op, pg.size()),
                    result=[tensor])


def start_bucket_average(bucket: Any, group: ProcessGroup) -> Work:
    """Start averaging `bucket` across `group` in place (nonblocking): DDP's reduction.

    Unlike `all_reduce` it skips the cross-rank shape check, a blocking exchange that
    would stop backward at every bucket (DDP builds every rank's buckets alike), and it
    runs on the group's background thread (Note [Background reductions] in
    process_group.py; `ProcessGroup.start_background` first).
    """
    buffer = Buffer(bucket, arithmetic=True)
    return group.start_in_background("Allreduce", mpi_engine.mpi().IN_PLACE, buffer.array,
                                     reduce_op_for(ReduceOp.AVG, bucket, "all_reduce"),
                                     finish=_averaged(buffer, ReduceOp.AVG, group.size()),
                                     result=[bucket])


def broadcast(tensor: Any, src: int | None = None, group: Any = None, async_op: bool = False,
              group_src: int | None = None) -> Work | None:
    """Copy rank `src`'s `tensor` into every rank's `tensor`."""
    pg = c10d.resolve(group, "broadcast")
    if pg is None:
        return None
    root = _root(pg, src, group_src, "broadcast")
    check_same_shapes(pg, "broadcast", tensor)
    buffer = Buffer(tensor)
    return _returned(pg.start("Bcast", buffer.array, root, async_op=async_op,
                              finish=buffer.finish, result=[tensor]), async_op)


def reduce(tensor: Any, dst: int | None = None, op: Any = ReduceOp.SUM, group: Any = None,
           async_op: bool = False, group_dst: int | None = None) -> Work | None:
    """Reduce `tensor` across the group into rank `dst`'s `tensor`."""
    pg = c10d.resolve(group, "reduce")
    if pg is None:
        return None
    root = _root(pg, dst, group_dst, "reduce")
    mpi_op = reduce_op_for(op, tensor, "reduce")
    check_same_shapes(pg, "reduce", tensor)
    buffer = Buffer(tensor, arithmetic=True)
    at_root = pg.rank() == root
    send = mpi_engine.mpi().IN_PLACE if at_root else buffer.array
    finish = _averaged(buffer, op, pg.size()) if at_root else None
    return _returned(pg.start("Reduce", send, buffer.array if at_root else None, mpi_op, root,
                              async_op=async_op, finish=finish, result=[tensor]), async_op)


def _stacked(pg: ProcessGroup, tensor: Any) -> Any:
    return torch.empty((pg.size(),) + tuple(tensor.shape), dtype=tensor.dtype)


def _check_list(pg: ProcessGroup, tensors: list, call: str, kind: str) -> None:
    if len(tensors) != pg.size():
        raise RuntimeError(f"{_engine_name(pg)}::{call}: invalid {kind} tensor list at index "
                           f"0 (expected length {pg.size()}, got {len(tensors)})")


def _copy_out(stacked: Any, tensors: list) -> Callable:
    def finish() -> None:
        with torch.no_grad():
            for part, tensor in zip(stacked, tensors):
                tensor.copy_(part.view(tensor.shape))
    return finish


def all_gather(tensor_list: list, tensor: Any, group: Any = None,
               async_op: bool = False) -> Work | None:
    """Every rank's `tensor`, into `tensor_list` (one per rank, in rank order)."""
    pg = c10d.resolve(group, "all_gather")
    if pg is None:
        return None
    _check_list(pg, tensor_list, "allgather", "output")
    check_same_shapes(pg, "all_gather", tensor)
    gathered = _stacked(pg, tensor)
    return _returned(pg.start("Allgather", Buffer(tensor).array, Buffer(gathered).array,
                              async_op=async_op, finish=_copy_out(gathered, tensor_list),
                              result=tensor_list), async_op)


def all_gather_into_tensor(output_tensor: Any, input_tensor: Any, group: Any = None,
                           async_op: bool = False) -> Work | None:
    """Every rank's `input_tensor`, concatenated (or stacked) in rank order into
    `output_tensor`."""
    pg = c10d.resolve(group, "all_gather_into_tensor")
    if pg is None:
        return None
    _check_chunks(pg, output_tensor, input_tensor, "allgather")
    check_same_shapes(pg, "all_gather_into_tensor", input_tensor)
    output = Buffer(output_tensor)
    return _returned(pg.start("Allgather", Buffer(input_tensor).array, output.array,
                              async_op=async_op, finish=output.finish,
                              result=[output_tensor]), async_op)


def _check_chunks(pg: ProcessGroup, whole: Any, part: Any, call: str) -> None:
    """`whole` must hold one `part` per rank."""
    if whole.numel() == pg.size() * part.numel():
        return
    chunks = whole.reshape(-1).chunk(pg.size()) if whole.dim() else [whole]
    index = next((i for i, c in enumerate(chunks) if c.numel() != part.numel()), len(chunks))
    got = f"({chunks[index].numel()})" if index < len(chunks) else "(0)"
    raise RuntimeError(f"{_engine_name(pg)}::{call}: invalid tensor size at index {index} "
                       f"(expected ({', '.join(map(str, part.shape))}), got {got})")


def gather(tensor: Any, gather_list: list | None = None, dst: int | None = None,
           group: Any = None, async_op: bool = False,
           group_dst: int | None = None) -> Work | None:
    """Every rank's `tensor`, into rank `dst`'s `gather_list`."""
    pg = c10d.resolve(group, "gather")
    if pg is None:
        return None
    root = _root(pg, dst, group_dst, "gather")
    at_root = pg.rank() == root
    if at_root and not gather_list:
        raise ValueError("Argument ``gather_list`` must be specified on destination rank.")
    if not at_root and gather_list:
        raise ValueError("Argument ``gather_list`` must NOT be specified on "
                         "non-destination ranks.")
    check_same_shapes(pg, "gather", tensor)
    gathered = _stacked(pg, tensor) if at_root else None
    finish = _copy_out(gathered, gather_list) if at_root else None
    return _returned(pg.start("Gather", Buffer(tensor).array,
                              Buffer(gathered).array if at_root else None, root,
                              async_op=async_op, finish=finish), async_op)


def scatter(tensor: Any, scatter_list: list | None = None, src: int | None = None,
            group: Any = None, async_op: bool = False,
            group_src: int | None = None) -> Work | None:
    """Rank `src`'s `scatter_list[i]`, into rank i's `tensor`."""
    pg = c10d.resolve(group, "scatter")
    if pg is None:
        return None
    root = _root(pg, src, group_src, "scatter")
    at_root = pg.rank() == root
    if at_root and not scatter_list:
        raise ValueError("Argument ``scatter_list`` must be specified on source rank.")
    if not at_root and scatter_list:
        raise ValueError("Argument ``scatter_list`` must NOT be specified on non-source "
                         "ranks.")
    check_same_shapes(pg, "scatter", tensor)
    output = Buffer(tensor)
    send = Buffer(torch.stack([t.detach() for t in scatter_list])).array if at_root else None
    return _returned(pg.start("Scatter", send, output.array, root, async_op=async_op,
                              finish=output.finish, result=[tensor]), async_op)


def barrier(group: Any = None, async_op: bool = False,
            device_ids: list | None = None) -> Work | None:
    """Wait until every rank of the group reaches the barrier."""
    pg = c10d.resolve(group, "barrier")
    if pg is None:
        return None
    return _returned(pg.start("Barrier", async_op=async_op), async_op)


def monitored_barrier(group: Any = None, timeout: Any = None,
                      wait_all_ranks: bool = False) -> None:
    """A barrier (MPI's; a rank that dies ends the launched job instead of hanging it)."""
    barrier(group)
