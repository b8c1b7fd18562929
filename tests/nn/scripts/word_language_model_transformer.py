"""A word-level language model in the style of pytorch/examples' word_language_model
(TransformerModel: embedding scaled by sqrt(ninp), sinusoidal positional encoding with
dropout, an nn.TransformerEncoder under a causal mask, a linear decoder; gradient
clipping and a hand-written SGD step): a plain PyTorch script, only the import names
glasstorch; the corpus is a seeded stream of words from a small Markov chain, so no
file is needed. Prints one loss per step; the tests run it with glasstorch and torch.
"""
import math
import sys

import glasstorch as torch

nn = torch.nn
F = nn.functional


class PositionalEncoding(nn.Module):
    """Adds sines and cosines of the position, at geometric frequencies, to the input."""

    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0).transpose(0, 1))

    def forward(self, x):
        return self.dropout(x + self.pe[:x.size(0), :])


class TransformerModel(nn.Transformer):
    """Container module with an encoder, a positional encoding, a transformer encoder
    and a decoder (an nn.Transformer whose decoder stack is unused)."""

    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super().__init__(d_model=ninp, nhead=nhead, dim_feedforward=nhid,
                         num_encoder_layers=nlayers)
        self.model_type = "Transformer"
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout)
        self.input_emb = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def _generate_square_subsequent_mask(self, sz):
        return torch.log(torch.tril(torch.ones(sz, sz)))

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.input_emb.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                self.src_mask = self._generate_square_subsequent_mask(len(src))
        else:
            self.src_mask = None
        src = self.input_emb(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.encoder(src, mask=self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


def corpus(length, ntoken):
    """Token ids from a random sparse Markov chain over `ntoken` words."""
    transitions = torch.rand(ntoken, ntoken) ** 8
    ids = [0]
    for _ in range(length - 1):
        ids.append(int(torch.multinomial(transitions[ids[-1]], 1)))
    return torch.tensor(ids, dtype=torch.long)


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].view(-1)


def main(steps: int) -> None:
    torch.manual_seed(1111)
    ntoken, bptt, batch_size, lr, clip = 40, 8, 4, 1.0, 0.25
    train_data = batchify(corpus(steps * bptt * batch_size + batch_size, ntoken), batch_size)
    model = TransformerModel(ntoken, 16, 2, 32, 2, dropout=0.2)
    criterion = nn.NLLLoss()
    model.train()
    for step, i in enumerate(range(0, steps * bptt, bptt)):
        data, targets = get_batch(train_data, i, bptt)
        model.zero_grad()
        output = model(data).view(-1, ntoken)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        print(f"step {step} loss {loss.item():.7f} ppl {math.exp(loss.item()):.5f}")
    model.eval()
    with torch.no_grad():
        output = model(train_data[:bptt])
    print(f"eval {output.exp().sum(-1).mean().item():.4f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
