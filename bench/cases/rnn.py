"""Recurrent networks: the LSTM language model of pytorch/examples' word_language_model
at its default size (vocabulary 10k, embedding and hidden 200, 2 layers, sequence 35,
batch 20), one training step: embedding, a 2-layer LSTM over 35 steps, the decoder,
log-softmax and NLL loss, backward, clipping and SGD; and the LSTM layer alone, forward
and backward.

A layer projects the inputs of all 35 steps in one GEMM and loops over time only for
the recurrent product (Note [One GEMM for the inputs] in aten/native/nn/rnn.py). No
NumPy program does the same work: that column is left empty.
"""
from bench import case

GROUP = "recurrent networks (LSTM)"


def _language_model(torch, np):
    torch.manual_seed(0)
    nn = torch.nn
    vocabulary, width, steps, batch = 10000, 200, 35, 20
    embedding = nn.Embedding(vocabulary, width)
    lstm = nn.LSTM(width, width, 2, dropout=0.2)
    decoder = nn.Linear(width, vocabulary)
    dropout = nn.Dropout(0.2)
    parameters = [*embedding.parameters(), *lstm.parameters(), *decoder.parameters()]
    data = torch.randint(0, vocabulary, (steps, batch))
    targets = torch.randint(0, vocabulary, (steps * batch,))
    hidden = (torch.zeros(2, batch, width), torch.zeros(2, batch, width))
    x = torch.randn(steps, batch, width, requires_grad=True)

    def step():
        for p in parameters:
            p.grad = None
        output, _ = lstm(dropout(embedding(data)), hidden)
        logits = decoder(dropout(output)).view(-1, vocabulary)
        loss = nn.functional.nll_loss(nn.functional.log_softmax(logits, dim=1), targets)
        loss.backward()
        nn.utils.clip_grad_norm_(parameters, 0.25)
        with torch.no_grad():
            for p in parameters:
                p.add_(p.grad, alpha=-20.0)

    def layer():
        output, (h, c) = lstm(x, hidden)
        output.sum().backward()
    return {"step": step, "layer": layer}


case("step()", group=GROUP, name="LSTM LM training step (10k vocab, 200 wide, 35 x 20)")(
    _language_model)
case("layer()", group=GROUP, name="LSTM 2 layers fwd+bwd (35 x 20 x 200)")(_language_model)
