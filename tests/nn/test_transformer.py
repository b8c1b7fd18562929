"""nn.Transformer and its layers against torch: seeded weights, training steps with
dropout (torch's masks), every mask argument, eval mode's fast paths, refusals."""
import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, to_glass

torch = pytest.importorskip("torch")
pytestmark = pytest.mark.filterwarnings("ignore:enable_nested_tensor is True",
                                        "ignore:The PyTorch API of nested tensors")


def _pair(cls_name, *args, seed=0, **kwargs):
    torch.manual_seed(seed)
    theirs = getattr(torch.nn, cls_name)(*args, **kwargs)
    gt.manual_seed(seed)
    ours = getattr(gt.nn, cls_name)(*args, **kwargs)
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert_close(a, b, rtol=0, atol=0), name
    return theirs, ours


def _converted(kwargs: dict) -> dict:
    return {k: to_glass(v) if isinstance(v, torch.Tensor) else v for k, v in kwargs.items()}


def _step(theirs, ours, inputs: list, kwargs: dict, seed: int = 5):
    """One seeded forward and backward in both; compares outputs and every gradient."""
    g_inputs = [to_glass(t) for t in inputs]
    torch.manual_seed(seed)
    expected = theirs(*inputs, **kwargs)
    gt.manual_seed(seed)
    actual = ours(*g_inputs, **_converted(kwargs))
    assert_close(actual, expected, rtol=1e-4, atol=1e-5)
    expected.pow(2).sum().backward()
    actual.pow(2).sum().backward()
    for a, e in zip(g_inputs, inputs):
        assert_close(a.grad, e.grad, rtol=1e-4, atol=1e-4)
    for (name, a), (_, e) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert_close(a.grad, e.grad, rtol=1e-4, atol=1e-4), name


def _randn(*shape):
    return torch.randn(*shape, requires_grad=True)


@pytest.mark.parametrize("options", [
    dict(), dict(norm_first=True, activation="gelu"), dict(batch_first=True, bias=False)])
def test_transformer_training_step_with_dropout(options):
    theirs, ours = _pair("Transformer", 8, 2, 2, 2, 16, dropout=0.2, **options)
    torch.manual_seed(1)
    src, tgt = (_randn(2, 5, 8), _randn(2, 4, 8)) if options.get("batch_first") else \
        (_randn(5, 2, 8), _randn(4, 2, 8))
    kwargs = dict(tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask(4),
                  src_key_padding_mask=torch.tensor([[False] * 5, [False] * 3 + [True] * 2]),
                  memory_key_padding_mask=torch.tensor([[False] * 5, [False] * 4 + [True]]))
    _step(theirs, ours, [src, tgt], kwargs)


def test_decoder_layer_masks_and_causal_hints():
    theirs, ours = _pair("TransformerDecoderLayer", 8, 4, 12, dropout=0.1,
                         activation=torch.nn.functional.gelu)
    ours.activation = gt.nn.functional.gelu
    torch.manual_seed(2)
    tgt, memory = _randn(3, 2, 8), _randn(6, 2, 8)
    kwargs = dict(tgt_mask=torch.nn.Transformer.generate_square_subsequent_mask(3),
                  memory_mask=torch.rand(3, 6) > 0.8, tgt_is_causal=True,
                  tgt_key_padding_mask=torch.tensor([[False, False, True], [False] * 3]))
    kwargs["memory_mask"][:, 0] = False
    _step(theirs, ours, [tgt, memory], kwargs)


def test_encoder_stack_detects_the_causal_mask():
    layer_t = torch.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    layer_g = gt.nn.TransformerEncoderLayer(8, 2, 16, dropout=0.0)
    layer_g.load_state_dict({k: to_glass(v) for k, v in layer_t.state_dict().items()})
    with pytest.warns(UserWarning, match="enable_nested_tensor is True, but "
                                         "self.use_nested_tensor is False because "
                                         "encoder_layer.self_attn.batch_first was not True"):
        ours = gt.nn.TransformerEncoder(layer_g, 2, norm=gt.nn.LayerNorm(8))
    theirs = torch.nn.TransformerEncoder(layer_t, 2, norm=torch.nn.LayerNorm(8))
    torch.manual_seed(3)
    mask = torch.nn.Transformer.generate_square_subsequent_mask(5)
    _step(theirs, ours, [_randn(5, 3, 8)], dict(mask=mask))
    assert gt.nn.modules.transformer._detect_is_causal_mask(to_glass(mask))
    assert not gt.nn.modules.transformer._detect_is_causal_mask(to_glass(mask).T)


def _eval_pair(num_layers=None, **layer_options):
    """An eval-mode encoder layer (or a stack of `num_layers`) in both libraries."""
    theirs, ours = _pair("TransformerEncoderLayer", 8, 2, 16, batch_first=True,
                         **layer_options)
    if num_layers:
        theirs = torch.nn.TransformerEncoder(theirs, num_layers, norm=torch.nn.LayerNorm(8))
        ours = gt.nn.TransformerEncoder(ours, num_layers, norm=gt.nn.LayerNorm(8))
        ours.load_state_dict({k: to_glass(v) for k, v in theirs.state_dict().items()})
    return theirs.eval(), ours.eval()


def _eval_call(theirs, ours, x, **kwargs):
    with torch.no_grad(), gt.no_grad():
        return theirs(x, **kwargs), ours(to_glass(x), **_converted(kwargs))


@pytest.mark.parametrize("num_layers", [None, 2])
@pytest.mark.parametrize("padding", [
    [[False, False, True, True], [False, True, True, True]],     # left-aligned
    [[False, False, True, True], [True, True, True, True]],      # one sequence all padding
    [[False, True, False, True], [False, False, False, False]],  # not left-aligned
])
def test_eval_fast_paths_give_torchs_results(num_layers, padding):
    """Eval without grad: the fused layer gives NaN for a fully masked sequence, and the
    encoder's nested route gives zeros at padded positions (Notes in the sources)."""
    theirs, ours = _eval_pair(num_layers)
    torch.manual_seed(4)
    x = torch.randn(2, 4, 8)
    expected, actual = _eval_call(theirs, ours, x, src_key_padding_mask=torch.tensor(padding))
    assert_close(actual, expected, rtol=1e-4, atol=1e-5)


def test_nested_route_without_mask_check_keeps_leading_positions():
    """With ``mask_check=False`` torch packs each sequence's first (unmasked count)
    positions, whatever the mask's layout."""
    theirs, ours = _eval_pair()
    theirs = torch.nn.TransformerEncoder(theirs, 2, mask_check=False).eval()
    ours = gt.nn.TransformerEncoder(ours, 2, mask_check=False).eval()
    ours.load_state_dict({k: to_glass(v) for k, v in theirs.state_dict().items()})
    torch.manual_seed(6)
    padding = torch.tensor([[False, True, False, True], [False, False, False, True]])
    expected, actual = _eval_call(theirs, ours, torch.randn(2, 4, 8),
                                  src_key_padding_mask=padding)
    assert_close(actual, expected, rtol=1e-4, atol=1e-5)


def test_fast_path_conditions_follow_torch():
    """Hooks, an odd head count, training or a grad-requiring input keep the ordinary
    path (whose fully masked rows are 0, not NaN), as in torch."""
    padding = torch.tensor([[False, False, True, True], [True] * 4])
    torch.manual_seed(5)
    x = torch.randn(2, 4, 8)
    theirs, ours = _eval_pair()
    theirs.register_forward_hook(lambda *args: None)
    ours.register_forward_hook(lambda *args: None)
    expected, actual = _eval_call(theirs, ours, x, src_key_padding_mask=padding)
    assert_close(actual, expected, rtol=1e-4, atol=1e-5)
    assert not np.isnan(actual.numpy()).any()
    theirs, ours = _eval_pair(activation=lambda t: t.relu())
    with torch.no_grad(), gt.no_grad():
        expected = theirs(x, src_key_padding_mask=padding)
        ours.activation = lambda t: t.relu()
        actual = ours(to_glass(x), src_key_padding_mask=to_glass(padding))
    assert_close(actual, expected, rtol=1e-4, atol=1e-5)


def test_refusals_match_torch():
    theirs, ours = _pair("Transformer", 8, 2, 1, 1, 16)
    for src, tgt in [((5, 2, 8), (4, 3, 8)), ((5, 2, 8), (4, 2, 6))]:
        with pytest.raises(RuntimeError) as expected:
            theirs(torch.zeros(src), torch.zeros(tgt))
        with pytest.raises(RuntimeError) as actual:
            ours(gt.zeros(src), gt.zeros(tgt))
        assert str(actual.value) == str(expected.value)
    with pytest.raises(RuntimeError, match="activation should be relu/gelu, not tanh"):
        gt.nn.TransformerEncoderLayer(8, 2, activation="tanh")


def test_generate_square_subsequent_mask():
    expected = torch.nn.Transformer.generate_square_subsequent_mask(4, dtype=torch.float64)
    actual = gt.nn.Transformer.generate_square_subsequent_mask(4, dtype=gt.float64)
    assert_close(actual, expected, rtol=0, atol=0)
