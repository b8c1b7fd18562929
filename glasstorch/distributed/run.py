"""``python -m glasstorch.distributed.run --nproc_per_node N script.py [args]``: torchrun's
launcher, on the MPI engine.

It starts this node's N processes under one ``mpiexec`` (Note [MPI engine] in
mpi_engine.py), each with torchrun's environment (RANK, LOCAL_RANK, WORLD_SIZE,
LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR, MASTER_PORT, TORCHELASTIC_RUN_ID), and runs
the script there with ``import torch`` answered by glasstorch. Their output comes
through as it is printed. When a process fails, mpiexec ends the others and the
launcher exits with its code: the whole job fails instead of hanging. With
``--nnodes M`` the launcher runs on every node (``--node_rank`` 0 to M-1, the same
``--master_addr``/``--master_port``), and the nodes' processes meet at rank 0's store.
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import socket
import subprocess
import sys
import uuid

from . import run_worker


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description="torchrun on the MPI engine")
    for name, default in (("nnodes", "1"), ("nproc_per_node", "1"), ("node_rank", 0),
                          ("master_addr", "127.0.0.1"), ("master_port", 29500),
                          ("rdzv_backend", "static"), ("rdzv_endpoint", ""),
                          ("rdzv_id", "none"), ("rdzv_conf", ""), ("max_restarts", 0),
                          ("monitor_interval", 0.1), ("start_method", "spawn"),
                          ("role", "default"), ("log_dir", None), ("redirects", "0"),
                          ("tee", "0"), ("local_addr", None), ("local_ranks_filter", "")):
        dashed = name.replace("_", "-")
        flags = [f"--{name}"] + ([f"--{dashed}"] if dashed != name else [])
        parser.add_argument(*flags, type=type(default) if default is not None else str,
                            default=default)
    parser.add_argument("--standalone", action="store_true")
    parser.add_argument("-m", "--module", action="store_true")
    parser.add_argument("--no-python", "--no_python", action="store_true")
    parser.add_argument("--run-path", "--run_path", action="store_true")
    parser.add_argument("training_script")
    parser.add_argument("training_script_args", nargs=argparse.REMAINDER)
    return parser


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("", 0))
        return probe.getsockname()[1]


def _mpiexec() -> str:
    """The mpiexec beside this Python (the mpich wheel's), else the one on PATH."""
    beside = os.path.join(os.path.dirname(sys.executable), "mpiexec")
    found = beside if os.path.exists(beside) else shutil.which("mpiexec")
    if found is None:
        raise RuntimeError("torch.distributed.run needs mpiexec: install glasstorch[distributed] "
                           "(pip install mpi4py mpich)")
    return found


def environment(args: argparse.Namespace) -> dict:
    """The variables torchrun gives every process of this node (RANK and LOCAL_RANK are
    set by each process from its MPI rank: run_worker.py)."""
    nproc, nnodes = int(args.nproc_per_node), int(args.nnodes.split(":")[-1])
    port = _free_port() if args.standalone else args.master_port
    env = dict(os.environ, WORLD_SIZE=str(nproc * nnodes), LOCAL_WORLD_SIZE=str(nproc),
               GROUP_RANK=str(args.node_rank), ROLE_RANK="0", ROLE_NAME=args.role,
               MASTER_ADDR=args.master_addr, MASTER_PORT=str(port),
               TORCHELASTIC_RUN_ID=args.rdzv_id if args.rdzv_id != "none" else uuid.uuid4().hex,
               TORCHELASTIC_RESTART_COUNT="0", TORCHELASTIC_MAX_RESTARTS=str(args.max_restarts))
    if "OMP_NUM_THREADS" not in os.environ and nproc > 1:
        env["OMP_NUM_THREADS"] = "1"
    return env


def command(args: argparse.Namespace) -> list:
    """The mpiexec command line starting this node's processes."""
    worker = [sys.executable, "-m", run_worker.__name__]
    if args.module:
        worker.append("-m")
    elif args.no_python:
        worker.append("--no-python")
    return [_mpiexec(), "-launcher", "fork", "-n", str(args.nproc_per_node), *worker,
            args.training_script, *args.training_script_args]


def main(argv: list | None = None) -> int:
    """Run the launcher; returns the job's exit code (0 when every process succeeded)."""
    args = _parser().parse_args(argv)
    job = subprocess.Popen(command(args), env=environment(args))
    # stopping the launcher stops the job (mpiexec passes the signal to every process)
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, lambda number, frame: job.send_signal(number))
    code = job.wait()
    if code != 0:
        print(f"torch.distributed.run: a process of the job failed (exit code {code}); the "
              "others were stopped", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
