"""Point-to-point: send/recv a tensor between two ranks, blocking or not, and batches of
them (`batch_isend_irecv`)."""
from __future__ import annotations

from typing import Any, Callable

from . import c10d, mpi_engine
from .collectives import _returned
from .process_group import Work
from .tensor_buffers import Buffer


def _peer(pg: Any, rank: int | None, group_rank: int | None, role: str) -> int:
    """The group rank of the other process, refused when it is this one."""
    peer = group_rank if group_rank is not None else \
        (rank if pg is c10d._get_default_group() else c10d.get_group_rank(pg, rank))
    if peer == pg.rank():
        raise ValueError(f"Invalid {role} rank: {role} rank should not be the same as the "
                         "rank of the current process.")
    if not 0 <= peer < pg.size():
        raise ValueError(f"Invalid {role} rank: {peer} is not in the group of "
                         f"{pg.size()} ranks")
    return peer


def isend(tensor: Any, dst: int | None = None, group: Any = None, tag: int = 0,
          group_dst: int | None = None) -> Work | None:
    """Start sending `tensor` to rank `dst`; `wait()` on the returned Work."""
    pg = c10d.resolve(group, "isend")
    if pg is None:
        return None
    peer = _peer(pg, dst, group_dst, "destination")
    return pg.start("Send", Buffer(tensor).array, peer, tag, async_op=True)


def irecv(tensor: Any, src: int | None = None, group: Any = None, tag: int = 0,
          group_src: int | None = None) -> Work | None:
    """Start receiving into `tensor` from rank `src`; `wait()` on the returned Work."""
    pg = c10d.resolve(group, "irecv")
    if pg is None:
        return None
    peer = _peer(pg, src, group_src, "source")
    buffer = Buffer(tensor)
    return pg.start("Recv", buffer.array, peer, tag, async_op=True, finish=buffer.finish,
                    result=[tensor])


def send(tensor: Any, dst: int | None = None, group: Any = None, tag: int = 0,
         group_dst: int | None = None) -> None:
    """Send `tensor` to rank `dst` (blocks until it is received or buffered)."""
    work = isend(tensor, dst, group, tag, group_dst)
    _returned(work, False) if work is not None else None


def recv(tensor: Any, src: int | None = None, group: Any = None, tag: int = 0,
         group_src: int | None = None) -> int:
    """Receive into `tensor` from rank `src` (any rank when None); returns the sender's
    rank."""
    pg = c10d.resolve(group, "recv")
    if pg is None:
        return -1
    MPI = mpi_engine.mpi()
    peer = MPI.ANY_SOURCE if src is None and group_src is None else \
        _peer(pg, src, group_src, "source")
    buffer, status = Buffer(tensor), MPI.Status()
    pg.comm.Recv(buffer.array, peer, tag, status)
    buffer.finish()
    sender = status.Get_source()
    return pg.ranks[sender]


class P2POp:
    """One send or receive for `batch_isend_irecv`: ``P2POp(dist.isend, tensor, peer)``."""

    def __init__(self, op: Callable, tensor: Any, peer: int | None = None, group: Any = None,
                 tag: int = 0, group_peer: int | None = None) -> None:
        if op not in (isend, irecv):
            raise ValueError("Invalid ``op``. Expected ``op`` to be of type "
                             "``torch.distributed.isend`` or ``torch.distributed.irecv``.")
        self.op, self.tensor, self.peer, self.group = op, tensor, peer, group
        self.tag, self.group_peer = tag, group_peer


def batch_isend_irecv(p2p_op_list: list) -> list:
    """Start every send and receive of `p2p_op_list` (P2POps); returns their Works."""
    if not p2p_op_list or not all(isinstance(op, P2POp) for op in p2p_op_list):
        raise ValueError("Invalid ``p2p_op_list``. Each op is expected to to be of type "
                         "``torch.distributed.P2POp``.")
    works = []
    for op in p2p_op_list:
        peer_key = "group_dst" if op.op is isend else "group_src"
        works.append(op.op(op.tensor, op.peer, op.group, op.tag,
                           **{peer_key: op.group_peer}))
    return works
