"""torch.distributed: two processes on this machine, each step started by the benchmark.

Each case starts a 2-process job once (glasstorch's launcher for glasstorch, torchrun
with its gloo backend for torch) whose ranks wait on a socket; a timed call tells both
ranks to run one step and waits for both to finish, so a time is one collective or one
training step across the job (the socket round trip adds tens of microseconds).
"""
import atexit
import os
import pathlib
import socket
import subprocess
import sys

from bench import case

GROUP = "distributed: 2 processes, loopback"
WORKER = pathlib.Path(__file__).resolve().parent.parent / "distributed_worker.py"
ROOT = WORKER.parent.parent


class Job:
    """A running 2-process job of the worker's `task`; `step()` runs one step on both."""

    def __init__(self, library: str, task: str) -> None:
        server = socket.create_server(("127.0.0.1", 0))
        launcher = "glasstorch.distributed.run" if library == "glasstorch" else \
            "torch.distributed.run"
        self.process = subprocess.Popen(
            [sys.executable, "-m", launcher, "--nproc_per_node", "2", "--standalone",
             str(WORKER), str(server.getsockname()[1]), task],
            cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        atexit.register(self.process.kill)
        server.settimeout(120)
        self.ranks = [server.accept()[0] for _ in range(2)]

    def step(self) -> None:
        for rank in self.ranks:
            rank.sendall(b"g")
        for rank in self.ranks:
            rank.recv(1)


def _job(task):
    def setup(torch, np):
        try:
            import mpi4py  # noqa: F401
        except ImportError as error:
            raise RuntimeError("needs glasstorch[distributed]") from error
        return {"job": Job(torch.__name__, task)}
    return setup


case("job.step()", group=GROUP, name="all_reduce of 64 MB float32")(_job("all_reduce"))
case("job.step()", group=GROUP, name="MLP training step, local (no DDP)")(_job("local_step"))
case("job.step()", group=GROUP, name="MLP training step, DDP")(_job("ddp_step"))
