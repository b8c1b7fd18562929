"""A small transformer-style model trained under CPU autocast with a GradScaler, as a
program would write it: the same dtypes and losses as torch, step by step."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _train(lib, steps=3):
    lib.manual_seed(0)
    nn = lib.nn

    class Block(nn.Module):
        def __init__(self):
            super().__init__()
            self.emb, self.ln = nn.Embedding(10, 8), nn.LayerNorm(8)
            self.fc, self.proj = nn.Linear(8, 32), nn.Linear(32, 8)
            self.head = nn.Linear(8, 10, bias=False)

        def forward(self, idx):
            x = self.emb(idx)
            x = x + self.proj(nn.functional.gelu(self.fc(self.ln(x))))
            x = (x @ x.transpose(-2, -1)).softmax(-1) @ x
            return self.head(x)

    model = Block()
    optimizer = lib.optim.AdamW(model.parameters(), lr=1e-2)
    scaler = lib.amp.GradScaler("cpu")
    idx = lib.tensor([[1, 2, 3, 4], [5, 6, 7, 8]])
    seen = []
    for _ in range(steps):
        with lib.autocast("cpu", dtype=lib.bfloat16):
            logits = model(idx)
            loss = nn.functional.cross_entropy(logits.view(-1, 10), idx.view(-1))
        scaler.scale(loss).backward()
        scaler.step(optimizer)
        scaler.update()
        optimizer.zero_grad(set_to_none=True)
        seen.append((str(logits.dtype), str(loss.dtype), loss.item(), scaler.get_scale()))
    return seen


def test_training_under_autocast_as_torch():
    mine, theirs = _train(gt), _train(torch)
    for m, t in zip(mine, theirs):
        assert (m[0], m[1], m[3]) == (t[0], t[1], t[3]) == ("torch.bfloat16", "torch.float32",
                                                           65536.0)
        np.testing.assert_allclose(m[2], t[2], rtol=1e-3)
