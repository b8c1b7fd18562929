"""The communication engine under every process group: MPI, through mpi4py.

# Note [MPI engine]
#
# glasstorch does not move tensors itself: each collective is one MPI call on the NumPy
# array that shares the tensor's memory (mpi4py's buffer interface, no copy for a
# contiguous tensor). "gloo" and "mpi" name the same engine, so scripts that hard-code
# gloo run unchanged.
#
# Joining: the launcher (`python -m glasstorch.distributed.run`) starts each node's
# processes under one `mpiexec`, so their MPI_COMM_WORLD holds them all. When it holds
# the whole job (one node), the group is that world, reordered by RANK. With several
# nodes there is one world per node: the worlds meet through the rendezvous store (the
# one holding rank 0 opens an MPI port and publishes its name; the others connect and
# the two sides merge, until every rank is in). A process started without mpiexec is
# an MPI world of one: alone (world_size 1) it needs nothing else, but it cannot merge
# (MPICH refuses to connect two such worlds), so a job of several needs mpiexec.
#
# mpi4py is imported at the first init_process_group, never at `import glasstorch`.
"""
from __future__ import annotations

import os
from typing import Any

import numpy as np

PORT_KEY = "glasstorch/mpi_port"


def mpi() -> Any:
    """The mpi4py.MPI module (initialises MPI on first use)."""
    try:
        from mpi4py import MPI
    except ImportError as error:
        raise RuntimeError("torch.distributed needs mpi4py and an MPI library: install "
                           "glasstorch[distributed] (pip install mpi4py mpich)") from error
    return MPI


def available() -> bool:
    """Whether mpi4py can be imported (without initialising MPI)."""
    import importlib.util
    return importlib.util.find_spec("mpi4py") is not None


def join_world(store: Any, rank: int, world_size: int) -> Any:
    """An MPI communicator of the whole job, its ranks ordered as the processes' RANKs
    (Note [MPI engine])."""
    MPI = mpi()
    local = MPI.COMM_WORLD
    merged = local
    if local.size != world_size:
        if not launched_by_mpiexec():
            raise RuntimeError(
                f"init_process_group: this process is alone in its MPI world, but the job "
                f"has {world_size} processes. glasstorch's MPI engine joins processes "
                "started by mpiexec: launch the job with `python -m torch.distributed.run "
                "--nproc_per_node N script.py` (or start each process with `mpiexec -n 1`)")
        merged = _merge_pieces(store, local, rank, world_size)
    return merged.Split(0, rank)


def _merge_pieces(store: Any, local: Any, rank: int, world_size: int) -> Any:
    """Join this launch's MPI world with the others' through an MPI port."""
    MPI = mpi()
    holds_rank_0 = local.allreduce(rank == 0, op=MPI.LOR)
    if holds_rank_0:
        merged = local
        port = MPI.Open_port() if rank == 0 else None
        if rank == 0:
            store.set(PORT_KEY, port)
    else:
        port = store.get(PORT_KEY).decode() if local.rank == 0 else None
        merged = local.Connect(port, root=0).Merge(high=True)
    while merged.size < world_size:
        merged = merged.Accept(port, root=_root_of(merged, rank)).Merge(high=False)
    return merged


def _root_of(comm: Any, rank: int) -> int:
    """The position in `comm` of the process whose RANK is 0 (it holds the port)."""
    return comm.allgather(rank).index(0)


# ----- arrays: what MPI reduces and what it only moves ------------------------------------

_MPI_OPS = {"SUM": "SUM", "PRODUCT": "PROD", "MIN": "MIN", "MAX": "MAX", "BAND": "BAND",
            "BOR": "BOR", "BXOR": "BXOR", "AVG": "SUM"}


def reduce_op(name: str) -> Any:
    """The MPI operation of a ReduceOp's name (AVG sums; the caller divides)."""
    return getattr(mpi(), _MPI_OPS[name])


def arithmetic_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype MPI reduces `dtype`'s values in: its own, or float32 for the half types
    (MPI has no 16-bit floats)."""
    return np.dtype(np.float32) if dtype.kind == "f" and dtype.itemsize < 4 or \
        dtype.kind == "V" else dtype


def bit_dtype(dtype: np.dtype) -> np.dtype:
    """A dtype of `dtype`'s width that MPI can move (the bits, unchanged)."""
    if dtype.kind in "biuf" and dtype.itemsize >= 4 or dtype.kind in "biu" or \
            dtype.kind == "c" and dtype.itemsize >= 8:
        return dtype
    return np.dtype(f"u{dtype.itemsize}")


def launched_by_mpiexec() -> bool:
    """Whether this process was started by an MPI process manager (MPICH's Hydra)."""
    return "PMI_RANK" in os.environ or "PMI_FD" in os.environ
