"""Transformers: one training step of a TransformerEncoder at the size of pytorch/examples'
word_language_model Transformer (2 layers, width 200, 2 heads, feed-forward 200, dropout
0.2, sequence 35, batch 20, causal mask): forward, a squared-error loss, backward and an
SGD update; and MultiheadAttention alone, forward and backward.

The encoder layers' self-attention goes through scaled_dot_product_attention (the causal
mask as an additive mask, dropout drawn as torch's). No NumPy program does the same
work: that column is left empty.
"""
from bench import case

GROUP = "transformers (TransformerEncoder)"


def _encoder(torch, np):
    torch.manual_seed(0)
    nn = torch.nn
    width, steps, batch = 200, 35, 20
    layer = nn.TransformerEncoderLayer(width, 2, 200, 0.2)
    encoder = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    attention = nn.MultiheadAttention(width, 2)
    mask = nn.Transformer.generate_square_subsequent_mask(steps)
    x = torch.randn(steps, batch, width, requires_grad=True)
    target = torch.randn(steps, batch, width)
    parameters = list(encoder.parameters())

    def step():
        for p in parameters:
            p.grad = None
        loss = nn.functional.mse_loss(encoder(x, mask=mask), target)
        loss.backward()
        with torch.no_grad():
            for p in parameters:
                p.add_(p.grad, alpha=-0.1)

    def mha():
        output, _ = attention(x, x, x, attn_mask=mask, need_weights=False)
        output.sum().backward()
    return {"step": step, "mha": mha}


case("step()", group=GROUP, name="TransformerEncoder training step (2 layers, 200 wide, 35 x 20)")(
    _encoder)
case("mha()", group=GROUP, name="MultiheadAttention fwd+bwd (35 x 20 x 200, 2 heads)")(_encoder)
