"""Every rank joins, says so, then waits forever: the launcher must be stoppable."""
import time

import torch.distributed as dist

dist.init_process_group("gloo")
print(f"rank {dist.get_rank()} waiting", flush=True)
time.sleep(600)
