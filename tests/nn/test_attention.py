"""F.scaled_dot_product_attention against torch 2.13: values, gradients and node names on
both backends (the fused CPU kernel and the math path), masks, causal, scale, grouped-query
attention, dropout from equal seeds, and errors. The torch-free tests check the math
against a NumPy softmax."""
import math

import numpy as np
import pytest

import glasstorch as gt
import glasstorch.nn.functional as F

from nn_compare import assert_close, numpy_of

try:
    import torch
except ImportError:
    torch = None
needs_torch = pytest.mark.skipif(torch is None, reason="needs torch")
_TOLERANCE = {"float32": (1e-5, 1e-5), "float64": (1e-10, 1e-10),
              "bfloat16": (2e-2, 2e-2), "float16": (2e-3, 2e-3)}


def _values(shape, seed, dtype="float32", requires_grad=True):
    array = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    mine = gt.from_numpy(array).to(getattr(gt, dtype))
    return mine.requires_grad_(requires_grad and dtype != "bool")


def _both(t):
    """(glasstorch tensor, torch twin): same values, dtype, strides and requires_grad."""
    if t is None:
        return None, None
    theirs = torch.from_numpy(numpy_of(t)).to(getattr(torch, str(t.dtype).split(".")[-1]))
    return t, theirs.requires_grad_(t.requires_grad)


def _run(module, args, kwargs):
    functional = gt.nn.functional if module is gt else torch.nn.functional
    return functional.scaled_dot_product_attention(*args, **kwargs)


def _compare(q, k, v, mask=None, dtype="float32", same_node=True, **kwargs):
    """Forward and backward in both libraries: values, node name, input gradients."""
    pairs = [_both(t) for t in (q, k, v, mask)]
    mine = _run(gt, [p[0] for p in pairs[:3]], dict(kwargs, attn_mask=pairs[3][0]))
    theirs = _run(torch, [p[1] for p in pairs[:3]], dict(kwargs, attn_mask=pairs[3][1]))
    rtol, atol = _TOLERANCE[dtype]
    assert_close(mine, theirs, rtol=rtol, atol=atol)
    assert not same_node or type(mine.grad_fn).__name__ == type(theirs.grad_fn).__name__
    upstream = np.random.default_rng(9).standard_normal(tuple(mine.shape)).astype(np.float32)
    leaves = [(a, b) for a, b in pairs if a is not None and a.requires_grad]
    got = gt.autograd.grad(mine, [a for a, _ in leaves],
                           gt.from_numpy(upstream).to(mine.dtype))
    want = torch.autograd.grad(theirs, [b for _, b in leaves],
                               torch.from_numpy(upstream).to(theirs.dtype))
    for a, b in zip(got, want):
        assert_close(a, b, rtol=rtol * 10, atol=atol * 10)
    return mine


# ----- fused kernel (4-D, equal head sizes, no dropout) ----------------------------
@needs_torch
@pytest.mark.parametrize("dtype", ["float32", "float64", "bfloat16"])
@pytest.mark.parametrize("is_causal", [False, True])
def test_fused_kernel(dtype, is_causal):
    q, k, v = (_values((2, 3, 5, 4), s, dtype) for s in (0, 1, 2))
    out = _compare(q, k, v, dtype=dtype, is_causal=is_causal)
    assert type(out.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"


@needs_torch
@pytest.mark.parametrize("mask_shape", [(5, 6), (2, 1, 5, 6), (1, 3, 1, 6)])
@pytest.mark.parametrize("kind", ["bool", "float"])
def test_fused_kernel_masks(mask_shape, kind):
    q = _values((2, 3, 5, 4), 0)
    k, v = _values((2, 3, 6, 4), 1), _values((2, 3, 6, 4), 2)
    mask = _values(mask_shape, 3, requires_grad=False)
    if kind == "bool":
        mask = mask > 0
        mask[..., 0] = True
    _compare(q, k, v, mask, scale=0.3)


@needs_torch
def test_fully_masked_rows_give_zeros():
    q, k, v = (_values((1, 2, 4, 3), s) for s in (0, 1, 2))
    mask = gt.ones(4, 4, dtype=gt.bool)
    mask[1] = False
    out = _compare(q, k, v, mask)
    assert not numpy_of(out)[:, :, 1].any()


@needs_torch
def test_transposed_layout_and_causal_with_longer_keys():
    """A (B, L, H, E) projection viewed as (B, H, L, E), as attention layers make it; keys
    longer than queries (the causal triangle is aligned top-left)."""
    q = _values((2, 5, 3, 4), 0).transpose(1, 2)
    k, v = _values((2, 3, 7, 4), 1), _values((2, 3, 7, 4), 2)
    out = _compare(q, k, v, is_causal=True)
    assert out.stride() == torch.empty(2, 5, 3, 4).transpose(1, 2).stride()


@needs_torch
def test_grouped_query_attention_fused():
    q = _values((2, 6, 5, 4), 0)
    k, v = _values((2, 2, 5, 4), 1), _values((2, 2, 5, 4), 2)
    out = _compare(q, k, v, is_causal=True, enable_gqa=True)
    assert type(out.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"


@needs_torch
def test_causal_tiles_over_long_sequences():
    """Sequences longer than the kernel's causal query blocks (64): every block sees only
    the keys before its end; grouped heads and a 4-D mask on top."""
    q = _values((2, 4, 150, 8), 0)
    k, v = _values((2, 2, 130, 8), 1), _values((2, 2, 130, 8), 2)
    out = _compare(q, k, v, _values((2, 1, 150, 130), 3, requires_grad=False),
                   dropout_p=0.0, enable_gqa=True)
    assert type(out.grad_fn).__name__ == "ScaledDotProductFlashAttentionForCpuBackward0"
    _compare(q, k, v, is_causal=True, enable_gqa=True)


# ----- math path ---------------------------------------------------------------------
@needs_torch
@pytest.mark.parametrize("shapes", [((5, 4), (6, 4), (6, 3)), ((3, 5, 4), (3, 6, 4), (3, 6, 4)),
                                    ((2, 3, 5, 4), (2, 3, 6, 4), (2, 3, 6, 7)),
                                    ((2, 3, 5, 4), (1, 3, 6, 4), (1, 3, 6, 4))])
def test_math_path_shapes(shapes):
    q, k, v = (_values(shape, seed) for seed, shape in enumerate(shapes))
    # glasstorch's matmul of two 3-D tensors returns bmm's result (BmmBackward0) where
    # torch's views it once more (UnsafeViewBackward0): matmul.py's choice
    _compare(q, k, v, scale=-0.7, same_node=len(shapes[0]) != 3)


@needs_torch
def test_math_path_mask_requiring_grad_and_3d_mask():
    q, k, v = (_values((2, 3, 5, 4), s) for s in (0, 1, 2))
    _compare(q, k, v, _values((5, 5), 3))
    _compare(q, k, v, _values((3, 5, 5), 4, requires_grad=False))


@needs_torch
@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_math_path_low_precision(dtype):
    q, k, v = (_values((2, 3, 5, 4), s, dtype) for s in (0, 1, 2))
    _compare(q, k, v[..., :3], dtype=dtype, is_causal=True)


@needs_torch
def test_grouped_query_attention_math_path():
    q = _values((2, 6, 5, 4), 0)
    k, v = _values((2, 3, 5, 4), 1), _values((2, 3, 5, 5), 2)
    _compare(q, k, v, enable_gqa=True)


@needs_torch
@pytest.mark.parametrize("is_causal", [False, True])
def test_dropout_draws_torchs_numbers(is_causal):
    q, k, v = (_values((2, 3, 5, 4), s) for s in (0, 1, 2))
    torch.manual_seed(5)
    gt.manual_seed(5)
    out = _compare(q, k, v, dropout_p=0.4, is_causal=is_causal)
    assert type(out.grad_fn).__name__ == "UnsafeViewBackward0"
    assert gt.rand(3).tolist() == torch.rand(3).tolist()     # same draws consumed


# ----- errors --------------------------------------------------------------------------
_ERRORS = [
    (lambda x, m: ((x, x.double(), x), {}),
     "Expected query, key, and value to have the same dtype, but got query.dtype: float "
     "key.dtype: double and value.dtype: float instead."),
    (lambda x, m: ((x[0, 0, 0], x, x), {}),
     "Expected query, key, and value to all be  at least 2 dimensional, but got query.dim: 1 "
     "key.dim: 4 and value.dim: 4 instead."),
    (lambda x, m: ((x, x, x), {"attn_mask": m.long()}),
     "Expected attn_mask dtype to be bool or float or to match query dtype, but got "
     "attn_mask.dtype: long int and  query.dtype: float instead."),
    (lambda x, m: ((x, x, x), {"attn_mask": m, "is_causal": True, "dropout_p": 0.2}),
     "_scaled_dot_product_attention: Explicit attn_mask should not be set when "
     "is_causal=True"),
    (lambda x, m: ((x, x[:, :2], x[:, :2]), {"enable_gqa": True}),
     "Number of heads in key and value must divide the number of heads in "),
    (lambda x, m: ((x, x, x), {"dropout_p": 1.5}),
     "dropout probability has to be between 0 and 1, but got 1.5"),
    (lambda x, m: ((x, x, x), {"dropout_p": -0.5}),
     "scaled_dot_product_attention_flash_attention: Currently do not support dropout > 0"),
    (lambda x, m: ((x, x, x[:, :, :4, :2]), {}),
     "Expected size for first two dimensions of batch2 tensor to be: [6, 5] but got: [6, 4]."),
]


@needs_torch
@pytest.mark.parametrize("case", range(len(_ERRORS)))
def test_errors_as_torchs(case):
    make, message = _ERRORS[case]
    for module in (gt, torch):
        x = module.ones(2, 3, 5, 4)
        args, kwargs = make(x, module.ones(5, 5, dtype=module.bool))
        with pytest.raises(RuntimeError) as caught:
            _run(module, args, kwargs)
        assert str(caught.value) == message


# ----- without torch: the math itself --------------------------------------------------
def _reference(q, k, v, mask=None, scale=None):
    scores = q @ np.swapaxes(k, -1, -2) * (scale or 1 / math.sqrt(q.shape[-1]))
    if mask is not None:
        scores = scores + mask
    weights = np.exp(scores - scores.max(-1, keepdims=True))
    return weights / weights.sum(-1, keepdims=True) @ v


@pytest.mark.parametrize("shape", [(2, 3, 5, 4), (3, 5, 4)])
@pytest.mark.parametrize("is_causal", [False, True])
def test_matches_numpy(shape, is_causal):
    q, k, v = (_values(shape, s, requires_grad=False) for s in (0, 1, 2))
    mask = np.where(np.tril(np.ones((5, 5), bool)), 0.0, -np.inf) if is_causal else None
    expected = _reference(*(numpy_of(t).astype(np.float64) for t in (q, k, v)), mask)
    got = F.scaled_dot_product_attention(q, k, v, is_causal=is_causal)
    np.testing.assert_allclose(numpy_of(got), expected, rtol=1e-5, atol=1e-6)


def test_grouped_query_attention_repeats_heads():
    q = _values((1, 4, 3, 2), 0, requires_grad=False)
    k, v = _values((1, 2, 3, 2), 1, requires_grad=False), _values((1, 2, 3, 2), 2, requires_grad=False)
    got = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    wide = [numpy_of(t).repeat(2, axis=1).astype(np.float64) for t in (k, v)]
    expected = _reference(numpy_of(q).astype(np.float64), *wide)
    np.testing.assert_allclose(numpy_of(got), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("shape, dim", [((6, 40, 33), -1), ((6, 40, 33), 1), ((300, 70), -1)])
def test_safe_softmax_is_softmax_with_masked_rows_zeroed(shape, dim):
    """torch's _safe_softmax is its _softmax with rows of -inf only set to 0: bit for
    bit the same elsewhere (last dim and middle dims alike)."""
    x = gt.randn(*shape, generator=gt.Generator().manual_seed(0))
    masked = [slice(None)] * len(shape)
    masked[dim] = slice(None)
    masked[0] = 2
    x[tuple(masked)] = float("-inf")
    safe = gt.ops.aten._safe_softmax(x, dim).numpy()
    plain = gt.ops.aten._softmax(x, dim, False).numpy()
    kept = np.ones(shape, bool)
    kept[tuple(masked)] = False
    assert safe[kept].view(np.uint32).tobytes() == plain[kept].view(np.uint32).tobytes()
    assert (safe[~kept] == 0).all() and np.isnan(plain[~kept]).all()
