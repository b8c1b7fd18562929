"""One rank of a benchmark job (bench/cases/distributed.py starts two under a launcher):
connect to the benchmark's port, then run one step of the task each time it says so.

    python -m glasstorch.distributed.run --nproc_per_node 2 bench/distributed_worker.py PORT TASK

``import torch`` is glasstorch under glasstorch's launcher and torch under torchrun,
so the same step is timed on both.
"""
import socket
import sys

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.nn.parallel import DistributedDataParallel


def all_reduce_step():
    tensor = torch.ones(16 * 2**20)              # 64 MB of float32
    return lambda: dist.all_reduce(tensor)


def training_step(wrap):
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                          nn.Linear(512, 10))
    model = DistributedDataParallel(model) if wrap else model
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
    x, y = torch.randn(64, 256), torch.randint(0, 10, (64,))

    def step():
        optimizer.zero_grad()
        nn.functional.cross_entropy(model(x), y).backward()
        optimizer.step()
    return step


TASKS = {"all_reduce": all_reduce_step, "ddp_step": lambda: training_step(True),
         "local_step": lambda: training_step(False)}

if __name__ == "__main__":
    port, task = int(sys.argv[1]), sys.argv[2]
    dist.init_process_group("gloo")
    step = TASKS[task]()
    step()
    connection = socket.create_connection(("127.0.0.1", port))
    while connection.recv(1) == b"g":
        step()
        connection.sendall(b"d")
    dist.destroy_process_group()
