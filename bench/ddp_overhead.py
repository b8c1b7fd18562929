"""DistributedDataParallel's cost over a local step, glasstorch beside torch (issue 23).

    python bench/ddp_overhead.py [STEPS]

Starts a 2-process job under each library's launcher (glasstorch's, then torchrun with
gloo), each rank on one thread. In the job, the same MLP step runs alternately without
and with DDP, each between barriers, STEPS times (200 by default); rank 0 prints the
median of each and the overhead (DDP minus local). Timing both in one job, interleaved,
keeps the machine's drift out of the difference, which separate jobs (the distributed
cases of bench/run.py) cannot on a 2-core machine.
"""
from __future__ import annotations

import os
import pathlib
import statistics
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent


def worker(steps: int) -> None:
    """A rank: time the local and the DDP step alternately; rank 0 reports."""
    import torch                      # glasstorch under glasstorch's launcher
    import torch.distributed as dist

    from bench.distributed_worker import training_step     # the bench's MLP step
    dist.init_process_group("gloo")
    torch.set_num_threads(1)
    local, ddp = training_step(False), training_step(True)
    times = {local: [], ddp: []}
    for _ in range(5):
        local(), ddp()
    for _ in range(steps):
        for step in (local, ddp):
            dist.barrier()
            start = time.perf_counter()
            step()
            dist.barrier()
            times[step].append(time.perf_counter() - start)
    if dist.get_rank() == 0:
        plain, wrapped = statistics.median(times[local]), statistics.median(times[ddp])
        print(f"{torch.__name__:>10}: local {plain * 1e3:.2f} ms, DDP {wrapped * 1e3:.2f} ms, "
              f"overhead {(wrapped - plain) * 1e3:.2f} ms", flush=True)
    dist.destroy_process_group()


def main(steps: int) -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT), GLASSTORCH_DDP_WORKER="1")
    for launcher in ("glasstorch.distributed.run", "torch.distributed.run"):
        subprocess.run([sys.executable, "-m", launcher, "--nproc_per_node", "2",
                        "--standalone", __file__, str(steps)], env=env, check=True,
                       timeout=600)


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 200
    if os.environ.get("GLASSTORCH_DDP_WORKER"):
        worker(count)
    else:
        main(count)
