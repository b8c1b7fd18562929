"""One process of a launched job (run.py starts N of these under mpiexec): set torchrun's
per-process variables from the MPI rank, then run the script with ``import torch``
answered by glasstorch."""
from __future__ import annotations

import os
import runpy
import subprocess
import sys
import traceback

from ..torch_alias import install


def set_rank_variables() -> None:
    """RANK and LOCAL_RANK from this process's place in the node's mpiexec."""
    local_rank = int(os.environ.get("PMI_RANK", os.environ.get("MPI_LOCALRANKID", "0")))
    node_rank = int(os.environ.get("GROUP_RANK", "0"))
    local_world = int(os.environ.get("LOCAL_WORLD_SIZE", "1"))
    os.environ["LOCAL_RANK"] = str(local_rank)
    os.environ["RANK"] = str(node_rank * local_world + local_rank)


def _abort_on_failure(error: BaseException) -> None:
    """End the whole job when this process fails: MPI's abort stops every rank, where
    a plain exit would leave the others waiting in a collective (and this one in
    MPI's finalize)."""
    code = error.code if isinstance(error, SystemExit) else 1
    if code in (0, None):
        raise error
    if not isinstance(error, SystemExit):
        traceback.print_exc()
    sys.stderr.flush()
    MPI = sys.modules.get("mpi4py.MPI")
    if MPI is not None and MPI.Is_initialized() and not MPI.Is_finalized():
        MPI.COMM_WORLD.Abort(code if isinstance(code, int) else 1)
    raise SystemExit(code)


def main(argv: list) -> None:
    set_rank_variables()
    if argv[0] == "--no-python":
        sys.exit(subprocess.call(argv[1:]))
    install()
    try:
        _run(argv)
    except BaseException as error:      # noqa: BLE001 (any failure ends the job)
        _abort_on_failure(error)


def _run(argv: list) -> None:
    if argv[0] == "-m":
        sys.argv = argv[1:]
        runpy.run_module(argv[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = argv
        sys.path.insert(0, os.path.dirname(os.path.abspath(argv[0])))
        runpy.run_path(argv[0], run_name="__main__")


if __name__ == "__main__":
    main(sys.argv[1:])
