"""Rank 1 raises while rank 0 waits in a collective: the launched job must end, non-zero."""
import torch
import torch.distributed as dist

dist.init_process_group("gloo")
if dist.get_rank() == 1:
    raise RuntimeError("rank 1 fails on purpose")
dist.all_reduce(torch.ones(1))
