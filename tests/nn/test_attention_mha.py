"""F.multi_head_attention_forward and nn.MultiheadAttention against torch: every argument,
gradients, torch's refusals (type and message), and the inference fast path's results."""
import warnings

import numpy as np
import pytest

import glasstorch as gt
from nn_compare import assert_close, to_glass

torch = pytest.importorskip("torch")


def _mha_pair(seed=0, **kwargs):
    """The same MultiheadAttention in torch and glasstorch (glasstorch's built from the
    same seed: its initial values must be torch's)."""
    torch.manual_seed(seed)
    theirs = torch.nn.MultiheadAttention(**kwargs)
    gt.manual_seed(seed)
    ours = gt.nn.MultiheadAttention(**kwargs)
    for (name, a), (_, b) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert_close(a, b, rtol=0, atol=0), name
    return theirs, ours


def _inputs(*shapes, seed=1):
    torch.manual_seed(seed)
    tensors = [torch.randn(*shape, requires_grad=True) for shape in shapes]
    return tensors, [to_glass(t) for t in tensors]


def _compare_call(theirs, ours, t_args, g_args, kwargs, g_kwargs=None):
    """Call both, compare outputs and the gradients of every input and parameter."""
    expected = theirs(*t_args, **kwargs)
    actual = ours(*g_args, **(kwargs if g_kwargs is None else g_kwargs))
    for a, e in zip(actual, expected):
        assert (a is None) == (e is None)
        if e is not None:
            assert_close(a, e, rtol=1e-4, atol=1e-5)
    sum(e.sum() for e in expected if e is not None).backward()
    sum(a.sum() for a in actual if a is not None).backward()
    for a, e in zip(g_args, t_args):
        assert_close(a.grad, e.grad, rtol=1e-4, atol=1e-5)
    for (name, a), (_, e) in zip(ours.named_parameters(), theirs.named_parameters()):
        assert_close(a.grad, e.grad, rtol=1e-4, atol=1e-5), name


@pytest.mark.parametrize("options", [
    dict(), dict(bias=False), dict(add_bias_kv=True), dict(add_zero_attn=True),
    dict(kdim=5, vdim=3), dict(add_bias_kv=True, add_zero_attn=True, kdim=6),
    dict(batch_first=True)])
@pytest.mark.parametrize("need_weights, average", [(True, True), (True, False), (False, True)])
def test_module_options_match_torch(options, need_weights, average):
    theirs, ours = _mha_pair(embed_dim=8, num_heads=2, **options)
    kdim, vdim = options.get("kdim", 8), options.get("vdim", 8)
    batch_first = options.get("batch_first", False)
    shapes = [(2, 4, 8), (2, 5, kdim), (2, 5, vdim)] if batch_first else \
        [(4, 2, 8), (5, 2, kdim), (5, 2, vdim)]
    t_args, g_args = _inputs(*shapes)
    _compare_call(theirs, ours, t_args, g_args,
                  dict(need_weights=need_weights, average_attn_weights=average))


@pytest.mark.parametrize("mask_dtype", ["bool", "float32"])
@pytest.mark.parametrize("need_weights", [True, False])
def test_masks_match_torch(mask_dtype, need_weights):
    theirs, ours = _mha_pair(embed_dim=8, num_heads=2)
    t_args, g_args = _inputs((4, 3, 8), (5, 3, 8), (5, 3, 8))
    torch.manual_seed(2)
    padding = torch.rand(3, 5) > 0.6
    padding[:, 0] = False                   # every query keeps a key
    attn = torch.rand(3 * 2, 4, 5) > 0.7
    attn[..., 0] = False
    if mask_dtype == "float32":
        padding = torch.zeros(3, 5).masked_fill(padding, -1e4)
        attn = torch.randn(3 * 2, 4, 5)
    kwargs = dict(key_padding_mask=padding, attn_mask=attn, need_weights=need_weights)
    g_kwargs = {**kwargs, "key_padding_mask": to_glass(padding), "attn_mask": to_glass(attn)}
    _compare_call(theirs, ours, t_args, g_args, kwargs, g_kwargs)


def test_unbatched_causal_and_two_dimensional_mask():
    theirs, ours = _mha_pair(embed_dim=6, num_heads=3)
    t_args, g_args = _inputs((4, 6), (4, 6), (4, 6))
    causal = torch.nn.Transformer.generate_square_subsequent_mask(4)
    kwargs = dict(attn_mask=causal, is_causal=True, need_weights=False)
    _compare_call(theirs, ours, t_args, g_args, kwargs,
                  {**kwargs, "attn_mask": to_glass(causal)})


def test_functional_static_keys_and_dropout_draw_torchs_numbers():
    torch.manual_seed(3)
    w, b = torch.randn(12, 4), torch.randn(12)
    ow, ob = torch.randn(4, 4), torch.randn(4)
    q = torch.randn(3, 2, 4)
    static_k, static_v = torch.randn(2 * 2, 5, 2), torch.randn(2 * 2, 5, 2)
    args = (q, q, q, 4, 2, w, b, None, None, False, 0.5, ow, ob)
    torch.manual_seed(7)
    expected = torch.nn.functional.multi_head_attention_forward(
        *args, static_k=static_k, static_v=static_v)
    gt.manual_seed(7)
    g = [to_glass(t) if isinstance(t, torch.Tensor) else t for t in args]
    actual = gt.nn.functional.multi_head_attention_forward(
        *g, static_k=to_glass(static_k), static_v=to_glass(static_v))
    assert_close(actual[0], expected[0], rtol=1e-4, atol=1e-5)
    assert_close(actual[1], expected[1], rtol=1e-4, atol=1e-6)


def _refusal(call_theirs, call_ours):
    with pytest.raises(Exception) as expected:
        call_theirs()
    with pytest.raises(type(expected.value)) as actual:
        call_ours()
    assert str(actual.value) == str(expected.value)


@pytest.mark.parametrize("case", [
    dict(query=(4, 2, 8), key=(5, 8), value=(5, 8)),
    dict(query=(4, 8), key=(5, 8), value=(5, 8), key_padding_mask=(1, 5)),
    dict(query=(4, 2, 2, 8), key=(5, 8), value=(5, 8)),
    dict(query=(4, 2, 8), key=(5, 2, 8), value=(5, 2, 8), attn_mask=(4, 4)),
    dict(query=(4, 2, 8), key=(5, 2, 8), value=(5, 2, 8), attn_mask=(3, 4, 5)),
    dict(query=(4, 2, 8), key=(5, 2, 8), value=(5, 2, 8), attn_mask=(1, 1, 4, 5)),
    dict(query=(4, 2, 8), key=(5, 2, 8), value=(5, 2, 8), key_padding_mask=(2, 4)),
    dict(query=(4, 2, 8), key=(5, 2, 8), value=(6, 2, 8)),
    dict(query=(4, 2, 6), key=(5, 2, 6), value=(5, 2, 6)),
    dict(query=(4, 8), key=(5, 8), value=(5, 8), attn_mask=(3, 4, 5)),
])
def test_bad_shapes_raise_torchs_errors(case):
    theirs, ours = _mha_pair(embed_dim=8, num_heads=2)
    tensors = {name: torch.zeros(shape) for name, shape in case.items()}
    for name in ("key_padding_mask", "attn_mask"):
        if name in tensors:
            tensors[name] = tensors[name].bool()
    glass = {name: to_glass(t) for name, t in tensors.items()}
    _refusal(lambda: theirs(**tensors), lambda: ours(**glass))


def test_bad_arguments_raise_torchs_errors():
    _refusal(lambda: torch.nn.MultiheadAttention(0, 2), lambda: gt.nn.MultiheadAttention(0, 2))
    _refusal(lambda: torch.nn.MultiheadAttention(9, 2), lambda: gt.nn.MultiheadAttention(9, 2))
    theirs, ours = _mha_pair(embed_dim=8, num_heads=2)
    x, gx = torch.zeros(4, 2, 8), gt.zeros(4, 2, 8)
    _refusal(lambda: theirs(x, x, x, attn_mask=torch.zeros(4, 4, dtype=torch.int64)),
             lambda: ours(gx, gx, gx, attn_mask=gt.zeros(4, 4, dtype=gt.int64)))
    _refusal(lambda: theirs(x, x, x, is_causal=True),
             lambda: ours(gx, gx, gx, is_causal=True))


def test_mismatched_mask_types_warn_as_torch():
    _, ours = _mha_pair(embed_dim=8, num_heads=2)
    x = gt.zeros(4, 2, 8)
    with pytest.warns(UserWarning, match="Support for mismatched key_padding_mask and "
                                         "attn_mask is deprecated"):
        ours(x, x, x, key_padding_mask=gt.zeros(2, 4, dtype=gt.bool), attn_mask=gt.zeros(4, 4))


@pytest.mark.parametrize("kwargs", [
    dict(), dict(need_weights=False), dict(padding=True), dict(padding=True, need_weights=False),
    dict(causal=True, need_weights=False), dict(padding=True, causal=True)])
def test_inference_fast_path_results(kwargs):
    """Eval mode without grad: torch's fused kernel gives NaN for a fully masked query
    (where the sdpa route gives 0), and ignores nothing else."""
    theirs, ours = _mha_pair(embed_dim=8, num_heads=2, batch_first=True)
    theirs.eval(), ours.eval()
    torch.manual_seed(4)
    x = torch.randn(2, 4, 8)
    call = {"need_weights": kwargs.get("need_weights", True)}
    if kwargs.get("padding"):
        call["key_padding_mask"] = torch.tensor([[False, False, True, True], [True] * 4])
    if kwargs.get("causal"):
        call["attn_mask"] = torch.triu(torch.ones(4, 4, dtype=torch.bool), 1)
    g_call = {k: to_glass(v) if isinstance(v, torch.Tensor) else v for k, v in call.items()}
    with torch.no_grad(), gt.no_grad():
        expected = theirs(x, x, x, **call)
        gx = to_glass(x)
        actual = ours(gx, gx, gx, **g_call)
    for a, e in zip(actual, expected):
        assert (a is None) == (e is None)
        if e is not None:
            assert_close(a, e, rtol=1e-4, atol=1e-5)
    if kwargs.get("padding"):
        assert np.isnan(actual[0][1].numpy()).all()


def test_disabled_fast_path_keeps_the_sdpa_route():
    """With torch.backends.mha's fast path off, a fully masked query gets 0, as torch's."""
    theirs, ours = _mha_pair(embed_dim=8, num_heads=2, batch_first=True)
    theirs.eval(), ours.eval()
    x = torch.randn(2, 4, 8)
    padding = torch.tensor([[False, False, True, True], [True] * 4])
    torch.backends.mha.set_fastpath_enabled(False)
    gt.backends.mha.set_fastpath_enabled(False)
    try:
        with torch.no_grad(), gt.no_grad():
            expected = theirs(x, x, x, key_padding_mask=padding, need_weights=False)[0]
            gx = to_glass(x)
            actual = ours(gx, gx, gx, key_padding_mask=to_glass(padding), need_weights=False)[0]
    finally:
        torch.backends.mha.set_fastpath_enabled(True)
        gt.backends.mha.set_fastpath_enabled(True)
    assert_close(actual, expected, rtol=1e-4, atol=1e-5)
    assert (actual[1].numpy() == 0).all()
