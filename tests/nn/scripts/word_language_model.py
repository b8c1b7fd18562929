"""A word-level language model in the style of pytorch/examples' word_language_model
(RNNModel: embedding, dropout, a multi-layer LSTM or GRU, a decoder tied to the
embedding; truncated backpropagation through time with detached hidden states, gradient
clipping and a hand-written SGD step): a plain PyTorch script, only its import names
glasstorch; the corpus is a seeded stream of Zipf-distributed words, so no
file is needed. Prints one loss per step; the tests run it with glasstorch and torch.
"""
import math
import sys

import glasstorch as torch

nn = torch.nn
F = nn.functional


class RNNModel(nn.Module):
    """Container module with an encoder, a recurrent module, and a decoder."""

    def __init__(self, rnn_type, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = getattr(nn, rnn_type)(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.rnn_type, self.nhid, self.nlayers = rnn_type, nhid, nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output).view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        if self.rnn_type == "LSTM":
            return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                    weight.new_zeros(self.nlayers, bsz, self.nhid))
        return weight.new_zeros(self.nlayers, bsz, self.nhid)


def corpus(length, ntoken):
    """Token ids drawn with Zipf's frequencies (word k about 1/k as often as the first),
    each word after a frequent one shifted by it, so there is order to learn too."""
    frequencies = 1.0 / torch.arange(1, ntoken + 1, dtype=torch.float)
    ids = torch.multinomial(frequencies, length, replacement=True)
    ids[1:] = (ids[1:] + (ids[:-1] < 3).long() * ids[:-1]) % ntoken
    return ids


def batchify(data, bsz):
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i, bptt):
    seq_len = min(bptt, len(source) - 1 - i)
    return source[i:i + seq_len], source[i + 1:i + 1 + seq_len].view(-1)


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def main(steps: int, rnn_type: str = "LSTM") -> None:
    torch.manual_seed(1111)
    ntoken, bptt, batch_size, lr, clip = 40, 8, 4, 20.0, 0.25
    train_data = batchify(corpus(steps * bptt * batch_size + batch_size, ntoken), batch_size)
    model = RNNModel(rnn_type, ntoken, 16, 16, 2, dropout=0.2, tie_weights=True)
    criterion = nn.NLLLoss()
    model.train()
    hidden = model.init_hidden(batch_size)
    for step, i in enumerate(range(0, steps * bptt, bptt)):
        data, targets = get_batch(train_data, i, bptt)
        model.zero_grad()
        hidden = repackage_hidden(hidden)
        output, hidden = model(data, hidden)
        loss = criterion(output, targets)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), clip)
        for p in model.parameters():
            p.data.add_(p.grad, alpha=-lr)
        print(f"step {step} loss {loss.item():.7f} ppl {math.exp(loss.item()):.5f}")
    model.eval()
    with torch.no_grad():
        output, _ = model(train_data[:bptt], model.init_hidden(batch_size))
    print(f"eval {output.exp().sum(1).mean().item():.4f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50,
         sys.argv[2] if len(sys.argv) > 2 else "LSTM")
