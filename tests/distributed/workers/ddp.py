"""DistributedDataParallel on shards against one process on the whole batch (run by the
launcher): plain, with multiple buckets, no_sync, find_unused_parameters,
gradient_as_bucket_view, a compression hook; and ZeroRedundancyOptimizer."""
import copy

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.distributed.algorithms.ddp_comm_hooks import default_hooks
from torch.distributed.optim import ZeroRedundancyOptimizer
from torch.nn.parallel import DistributedDataParallel as DDP

dist.init_process_group("gloo")
rank, size = dist.get_rank(), dist.get_world_size()


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.first, self.second = nn.Linear(4, 8), nn.Linear(8, 1)
        self.unused = nn.Linear(2, 2)
        self.register_buffer("seen", torch.zeros(1))

    def forward(self, x):
        return self.second(torch.tanh(self.first(x)))


def train(model, optimizer, batches, shard):
    for x, y in batches:
        optimizer.zero_grad()
        x, y = (x.chunk(size)[rank], y.chunk(size)[rank]) if shard else (x, y)
        ((model(x) - y) ** 2).mean().backward()
        optimizer.step()


def same(a, b, atol=1e-5):
    for p, q in zip(a.parameters(), b.parameters()):
        assert torch.allclose(p, q, atol=atol), (p, q)


torch.manual_seed(0)
batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]
options = [dict(find_unused_parameters=True), dict(bucket_cap_mb=0.00003),
           dict(gradient_as_bucket_view=True, find_unused_parameters=True, bucket_cap_mb=0.00003)]
for kwargs in options:
    torch.manual_seed(rank)          # each rank starts differently: DDP copies rank 0's
    net = Net()
    if not kwargs.get("find_unused_parameters"):
        net.unused.requires_grad_(False)
    ddp = DDP(net, **kwargs)
    reference = copy.deepcopy(ddp.module)
    train(ddp, torch.optim.SGD(ddp.parameters(), lr=0.1), batches, shard=True)
    train(reference, torch.optim.SGD(reference.parameters(), lr=0.1), batches, shard=False)
    same(ddp.module, reference)
assert len(DDP(Net(), bucket_cap_mb=0.00003, find_unused_parameters=True).reducer.buckets) > 1

# buffers: rank 0's reach every rank at construction and at each forward
net = Net()
net.seen.fill_(rank + 1.0)
ddp = DDP(net, static_graph=True, find_unused_parameters=True)
assert ddp.module.seen.item() == 1.0
net.seen.fill_(rank + 5.0)
ddp(torch.randn(2, 4)).sum().backward()
assert ddp.module.seen.item() == 5.0 and ddp.static_graph

# DistributedSampler takes the replica count and rank from the default group
sampler = torch.utils.data.DistributedSampler(range(10), shuffle=False)
assert list(sampler) == list(range(rank, 10, size))

# no_sync: gradients accumulate locally, the next synchronised backward averages them
ddp = DDP(Net(), find_unused_parameters=True)
x = torch.randn(4, 4) + rank
with ddp.no_sync():
    ddp(x).sum().backward()
local_grad = ddp.module.second.bias.grad.clone()
assert torch.allclose(local_grad, torch.tensor([4.0]))      # not averaged: each rank's own
ddp(x).sum().backward()
assert torch.allclose(ddp.module.second.bias.grad, torch.tensor([8.0]))

# the hooks: plain averaging as without a hook; the compression hooks close to it
for hook, atol in ((default_hooks.allreduce_hook, 1e-5), (default_hooks.fp16_compress_hook, 1e-2),
                   (default_hooks.bf16_compress_hook, 5e-2)):
    ddp = DDP(Net(), find_unused_parameters=True)
    ddp.register_comm_hook(None, hook)
    reference = copy.deepcopy(ddp.module)
    train(ddp, torch.optim.SGD(ddp.parameters(), lr=0.1), batches, shard=True)
    train(reference, torch.optim.SGD(reference.parameters(), lr=0.1), batches, shard=False)
    same(ddp.module, reference, atol=atol)

# ZeroRedundancyOptimizer: each rank steps its share, every rank ends with the same model
ddp = DDP(Net(), find_unused_parameters=True)
reference = copy.deepcopy(ddp.module)
zero = ZeroRedundancyOptimizer(ddp.parameters(), torch.optim.Adam, lr=0.01)
train(ddp, zero, batches, shard=True)
train(reference, torch.optim.Adam(reference.parameters(), lr=0.01), batches, shard=False)
same(ddp.module, reference)
print(f"rank {rank}: ddp OK", flush=True)
dist.destroy_process_group()
