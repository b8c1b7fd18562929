"""nanoGPT's training loop, its ddp branch as written there (init_process_group from the
launcher's environment, DDP(model), require_backward_grad_sync on the last micro-step,
rank 0 saving the checkpoint, barrier, destroy), on a tiny character model. Run alone or
under the launcher: both print the same evaluation losses."""
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributed import barrier, destroy_process_group, init_process_group
from torch.nn.parallel import DistributedDataParallel as DDP

out_dir = sys.argv[1]
gradient_accumulation_steps, batch_size, block_size, max_iters = 4, 2, 8, 6
ddp = int(os.environ.get("RANK", -1)) != -1
if ddp:
    init_process_group(backend="gloo")
    ddp_rank, ddp_world_size = int(os.environ["RANK"]), int(os.environ["WORLD_SIZE"])
    master_process = ddp_rank == 0
    assert gradient_accumulation_steps % ddp_world_size == 0
    gradient_accumulation_steps //= ddp_world_size
else:
    ddp_rank, ddp_world_size, master_process = 0, 1, True
torch.manual_seed(1337)
text = torch.randint(0, 16, (512,), generator=torch.Generator().manual_seed(0))


def get_batch(iteration, micro_step):
    # global micro-step: the same examples as the single process, shared out by rank
    index = (iteration * gradient_accumulation_steps * ddp_world_size
             + ddp_rank * gradient_accumulation_steps + micro_step)
    starts = torch.randint(0, len(text) - block_size - 1, (batch_size,),
                           generator=torch.Generator().manual_seed(index))
    x = torch.stack([text[i:i + block_size] for i in starts])
    y = torch.stack([text[i + 1:i + 1 + block_size] for i in starts])
    return x, y


class TinyGPT(nn.Module):
    def __init__(self, vocab=16, n_embd=16):
        super().__init__()
        self.wte, self.wpe = nn.Embedding(vocab, n_embd), nn.Embedding(block_size, n_embd)
        self.attn, self.proj = nn.Linear(n_embd, 3 * n_embd), nn.Linear(n_embd, n_embd)
        self.ln, self.head = nn.LayerNorm(n_embd), nn.Linear(n_embd, vocab)

    def forward(self, idx, targets):
        x = self.wte(idx) + self.wpe(torch.arange(idx.shape[1]))
        q, k, v = self.attn(x).split(x.shape[-1], dim=2)
        x = x + self.proj(F.scaled_dot_product_attention(q, k, v, is_causal=True))
        logits = self.head(self.ln(x))
        return logits, F.cross_entropy(logits.view(-1, logits.size(-1)), targets.view(-1))


model = TinyGPT()
optimizer = torch.optim.AdamW(model.parameters(), lr=1e-2)
if ddp:
    model = DDP(model)
raw_model = model.module if ddp else model
for iter_num in range(max_iters):
    for micro_step in range(gradient_accumulation_steps):
        if ddp:
            model.require_backward_grad_sync = (micro_step == gradient_accumulation_steps - 1)
        X, Y = get_batch(iter_num, micro_step)
        logits, loss = model(X, Y)
        loss = loss / gradient_accumulation_steps
        loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    optimizer.step()
    optimizer.zero_grad(set_to_none=True)
    if master_process:
        with torch.no_grad():
            starts = torch.arange(0, 64, 8)
            x = torch.stack([text[i:i + block_size] for i in starts])
            y = torch.stack([text[i + 1:i + 1 + block_size] for i in starts])
            print(f"iter {iter_num}: eval loss {raw_model(x, y)[1].item():.5f}", flush=True)
if master_process:
    torch.save({"model": raw_model.state_dict(), "iter_num": max_iters},
               os.path.join(out_dir, "ckpt.pt"))
if ddp:
    barrier()
    destroy_process_group()
assert math.isfinite(loss.item())
