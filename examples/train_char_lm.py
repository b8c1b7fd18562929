"""Train a small GPT-style character language model, then let it write.

A plain PyTorch training script: the import below is its only glasstorch-specific line
(write ``import torch`` instead and it runs on PyTorch, with the same losses from the
same seed). The model is a decoder-only transformer in the style of nanoGPT: token and
position embeddings, pre-LayerNorm blocks of causal self-attention
(`F.scaled_dot_product_attention`) and a GELU MLP with residual connections, an output
head tied to the token embedding. It trains with AdamW, a warmup + cosine learning-rate
schedule and gradient clipping on `examples/data/stdlib_docstrings.txt` (Python's own
docstrings), showing a progress bar with the loss and tokens/s, then samples text.

    python examples/train_char_lm.py              # about two minutes on 2 cores
    python examples/train_char_lm.py --steps 20   # a quick look
"""
import argparse
import math
import sys
import time
from pathlib import Path

import glasstorch as torch

nn = torch.nn
F = torch.nn.functional

TEXT = Path(__file__).parent / "data" / "stdlib_docstrings.txt"


class CausalSelfAttention(nn.Module):
    def __init__(self, width: int, heads: int, dropout: float):
        super().__init__()
        self.heads = heads
        self.dropout = dropout
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x):
        batch, time_, width = x.shape
        q, k, v = self.qkv(x).split(width, dim=2)
        # (batch, time, width) -> (batch, heads, time, head width)
        q, k, v = (t.view(batch, time_, self.heads, width // self.heads).transpose(1, 2)
                   for t in (q, k, v))
        y = F.scaled_dot_product_attention(
            q, k, v, is_causal=True, dropout_p=self.dropout if self.training else 0.0)
        y = y.transpose(1, 2).contiguous().view(batch, time_, width)
        return self.resid_dropout(self.proj(y))


class MLP(nn.Module):
    def __init__(self, width: int, dropout: float):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(width, 4 * width), nn.GELU(),
                                 nn.Linear(4 * width, width), nn.Dropout(dropout))

    def forward(self, x):
        return self.net(x)


class Block(nn.Module):
    def __init__(self, width: int, heads: int, dropout: float):
        super().__init__()
        self.ln_1 = nn.LayerNorm(width)
        self.attn = CausalSelfAttention(width, heads, dropout)
        self.ln_2 = nn.LayerNorm(width)
        self.mlp = MLP(width, dropout)

    def forward(self, x):
        x = x + self.attn(self.ln_1(x))
        return x + self.mlp(self.ln_2(x))


class GPT(nn.Module):
    def __init__(self, vocab: int, context: int, width: int, heads: int, layers: int,
                 dropout: float):
        super().__init__()
        self.context = context
        self.tok_emb = nn.Embedding(vocab, width)
        self.pos_emb = nn.Embedding(context, width)
        self.drop = nn.Dropout(dropout)
        self.blocks = nn.ModuleList(Block(width, heads, dropout) for _ in range(layers))
        self.ln_f = nn.LayerNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)
        self.head.weight = self.tok_emb.weight          # weight tying
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(module):
        if isinstance(module, (nn.Linear, nn.Embedding)):
            nn.init.normal_(module.weight, mean=0.0, std=0.02)
        if isinstance(module, nn.Linear) and module.bias is not None:
            nn.init.zeros_(module.bias)

    def forward(self, idx, targets=None):
        positions = torch.arange(idx.shape[1])
        x = self.drop(self.tok_emb(idx) + self.pos_emb(positions))
        for block in self.blocks:
            x = block(x)
        logits = self.head(self.ln_f(x))
        if targets is None:
            return logits, None
        return logits, F.cross_entropy(logits.view(-1, logits.shape[-1]), targets.view(-1))

    @torch.no_grad()
    def generate(self, idx, new_tokens: int, temperature: float = 0.8, top_k: int = 20):
        for _ in range(new_tokens):
            logits, _ = self(idx[:, -self.context:])
            logits = logits[:, -1, :] / temperature
            kth = torch.topk(logits, top_k).values[:, -1:]
            logits = logits.masked_fill(logits < kth, float("-inf"))
            next_id = torch.multinomial(F.softmax(logits, dim=-1), num_samples=1)
            idx = torch.cat((idx, next_id), dim=1)
        return idx


def batches(data, batch: int, context: int):
    """Endless random (input, next-character target) batches from a 1-D token tensor."""
    while True:
        starts = torch.randint(len(data) - context - 1, (batch,)).tolist()
        x = torch.stack([data[i:i + context] for i in starts])
        y = torch.stack([data[i + 1:i + context + 1] for i in starts])
        yield x, y


def lr_factor(step: int, warmup: int, total: int) -> float:
    """Linear warmup, then cosine decay to a tenth of the peak."""
    if step < warmup:
        return (step + 1) / warmup
    progress = (step - warmup) / max(1, total - warmup)
    return 0.1 + 0.9 * 0.5 * (1.0 + math.cos(math.pi * progress))


class Progress:
    """A progress bar redrawn in place on a terminal; on a log (a file, a pipe) it is a
    plain line every `total / lines` steps instead, so that the log is not flooded with
    carriage returns."""

    def __init__(self, total: int, stream=None, lines: int = 20, width: int = 30):
        self.total, self.width = total, width
        self.stream = stream if stream is not None else sys.stderr
        self.live = self.stream.isatty()
        self.every = max(1, total // lines)

    def update(self, step: int, loss: float, tokens_per_s: float):
        if not self.live and step % self.every and step != self.total:
            return
        done = self.width * step // self.total
        bar = "#" * done + "." * (self.width - done)
        line = f"step {step:5d}/{self.total} [{bar}] loss {loss:.3f} | {tokens_per_s / 1000:5.1f}k tok/s"
        self.stream.write(f"\r{line}" if self.live else f"{line}\n")
        self.stream.flush()

    def close(self):
        if self.live:
            self.stream.write("\n")


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=600)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--context", type=int, default=64)
    parser.add_argument("--width", type=int, default=128)
    parser.add_argument("--heads", type=int, default=4)
    parser.add_argument("--layers", type=int, default=2)
    parser.add_argument("--dropout", type=float, default=0.1)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--sample", type=int, default=300, help="characters to generate")
    parser.add_argument("--seed", type=int, default=1337)
    parser.add_argument("--log-losses", action="store_true",
                        help="print every step's loss on its own line (for comparisons)")
    return parser.parse_args(argv)


def main(argv=None):
    args = parse_args(argv)
    torch.manual_seed(args.seed)
    text = TEXT.read_text()
    chars = sorted(set(text))
    stoi = {c: i for i, c in enumerate(chars)}
    data = torch.tensor([stoi[c] for c in text], dtype=torch.long)

    model = GPT(len(chars), args.context, args.width, args.heads, args.layers, args.dropout)
    decay = [p for p in model.parameters() if p.dim() >= 2]
    no_decay = [p for p in model.parameters() if p.dim() < 2]
    optimizer = torch.optim.AdamW([{"params": decay, "weight_decay": 0.1},
                                   {"params": no_decay, "weight_decay": 0.0}],
                                  lr=args.lr, betas=(0.9, 0.99))
    warmup = max(1, args.steps // 20)
    scheduler = torch.optim.lr_scheduler.LambdaLR(
        optimizer, lambda step: lr_factor(step, warmup, args.steps))
    print(f"{sum(p.numel() for p in model.parameters()):,} parameters, "
          f"{len(chars)} characters, {len(data):,} tokens of text")

    model.train()
    start = time.perf_counter()
    data_iter = batches(data, args.batch, args.context)
    bar = Progress(args.steps)
    for step in range(1, args.steps + 1):
        x, y = next(data_iter)
        _, loss = model(x, y)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        optimizer.step()
        scheduler.step()
        if args.log_losses:
            print(f"step {step} loss {loss.item():.6f}")
        else:
            rate = step * args.batch * args.context / (time.perf_counter() - start)
            bar.update(step, loss.item(), rate)
    elapsed = time.perf_counter() - start
    bar.close()
    print(f"trained {args.steps} steps in {elapsed:.1f} s "
          f"({elapsed / args.steps * 1000:.0f} ms/step), final loss {loss.item():.3f}")

    model.eval()
    prompt = torch.tensor([[stoi[c] for c in "Return the "]], dtype=torch.long)
    out = model.generate(prompt, args.sample)[0].tolist()
    print("--- sample ---")
    print("".join(chars[i] for i in out))


if __name__ == "__main__":
    main()
