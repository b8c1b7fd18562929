"""The collectives of Python objects (pickled, as torch's are): all_gather_object,
broadcast_object_list, gather_object, scatter_object_list, send/recv_object_list."""
from __future__ import annotations

from typing import Any

from . import c10d
from .collectives import _root
from .mpi_engine import mpi


def all_gather_object(object_list: list, obj: Any, group: Any = None) -> None:
    """Every rank's `obj`, into `object_list` (one slot per rank)."""
    pg = c10d.resolve(group, "all_gather_object")
    if pg is not None:
        object_list[:] = pg.comm.allgather(obj)


def broadcast_object_list(object_list: list, src: int | None = None, group: Any = None,
                          device: Any = None, group_src: int | None = None) -> None:
    """Rank `src`'s `object_list`, into every rank's `object_list` (in place)."""
    pg = c10d.resolve(group, "broadcast_object_list")
    if pg is not None:
        root = _root(pg, src, group_src, "broadcast")
        object_list[:] = pg.comm.bcast(object_list if pg.rank() == root else None, root)


def gather_object(obj: Any, object_gather_list: list | None = None, dst: int | None = None,
                  group: Any = None, group_dst: int | None = None) -> None:
    """Every rank's `obj`, into rank `dst`'s `object_gather_list`."""
    pg = c10d.resolve(group, "gather_object")
    if pg is None:
        return
    root = _root(pg, dst, group_dst, "gather")
    if pg.rank() == root and object_gather_list is None:
        raise ValueError("Argument ``gather_list`` must be specified on destination rank.")
    gathered = pg.comm.gather(obj, root)
    if pg.rank() == root:
        object_gather_list[:] = gathered


def scatter_object_list(scatter_object_output_list: list,
                        scatter_object_input_list: list | None = None, src: int | None = None,
                        group: Any = None, group_src: int | None = None) -> None:
    """Rank `src`'s `scatter_object_input_list[i]`, into rank i's
    ``scatter_object_output_list[0]``."""
    pg = c10d.resolve(group, "scatter_object_list")
    if pg is None:
        return
    if not isinstance(scatter_object_output_list, list) or not scatter_object_output_list:
        raise ValueError("Expected argument scatter_object_output_list to be a list of size "
                         "at least 1.")
    root = _root(pg, src, group_src, "scatter")
    inputs = scatter_object_input_list if pg.rank() == root else None
    scatter_object_output_list[0] = pg.comm.scatter(inputs, root)


def send_object_list(object_list: list, dst: int | None = None, group: Any = None,
                     device: Any = None, group_dst: int | None = None) -> None:
    """Send the objects of `object_list` to rank `dst`."""
    pg = c10d.resolve(group, "send_object_list")
    if pg is not None:
        peer = group_dst if group_dst is not None else c10d.get_group_rank(pg, dst)
        pg.comm.send(list(object_list), peer)


def recv_object_list(object_list: list, src: int | None = None, group: Any = None,
                     device: Any = None, group_src: int | None = None) -> int:
    """Receive rank `src`'s objects into `object_list`; returns the sender's rank."""
    pg = c10d.resolve(group, "recv_object_list")
    if pg is None:
        return -1
    MPI = mpi()
    peer = group_src if group_src is not None else \
        (MPI.ANY_SOURCE if src is None else c10d.get_group_rank(pg, src))
    status = MPI.Status()
    object_list[:] = pg.comm.recv(source=peer, status=status)
    return pg.ranks[status.Get_source()]
