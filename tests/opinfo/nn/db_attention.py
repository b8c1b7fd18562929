"""OpInfo entries for attention (`aten/native/nn/attention.py`, `attention_flash.py`):
scaled_dot_product_attention, the fused CPU kernel and its backward, the math path,
_safe_softmax and the backend choice _fused_sdp_choice.

References are NumPy in float64: scores ``q @ k^T * scale + mask``, a softmax whose
fully masked rows are 0, the weighted sum of the values. Samples cover both backends
(4-D equal head sizes for the fused kernel; 3-D, unequal value heads and masks of other
ranks for the math path), bool and float masks, causal with more keys than queries,
custom and negative scales, and grouped-query attention.
"""
import math

import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor

FLOATING = (gt.float16, gt.bfloat16, gt.float32, gt.float64)
# A copy whose last dim has a stride other than 1 takes the math path (torch's rule),
# whose float16 / bfloat16 rounding differs from the fused kernel's.
_OTHER_BACKEND = {"test_noncontiguous": pytest.mark.skip(
    reason="non-contiguous copies switch backend (torch's choice), see _OTHER_BACKEND")}


def _operand(shape, dtype, seed, layout="contiguous"):
    return make_tensor(shape, dtype, layout, low=-2, high=2, seed=seed)


def _accumulate(dtype):
    return np.float64 if dtype == np.float64 else np.float32


# ----- the NumPy reference -------------------------------------------------------------
def _exps(q, k, mask=None, is_causal=False, scale=None):
    """The max-shifted exps of the scores, their row sums and log-sum-exps (a fully
    masked row: exps 0, sum taken as 1, log-sum-exp 0)."""
    q, k = q.astype(np.float64), k.astype(np.float64)
    if q.ndim == 4 and k.shape[1] != q.shape[1]:            # grouped-query attention
        k = k.repeat(q.shape[1] // k.shape[1], axis=1)
    scores = q @ np.swapaxes(k, -1, -2) * (1 / math.sqrt(q.shape[-1]) if scale is None
                                           else scale)
    if mask is not None:
        scores = scores + (np.where(mask, 0.0, -np.inf) if mask.dtype == bool
                           else mask.astype(np.float64))
    if is_causal:
        scores = scores + np.where(np.tril(np.ones(scores.shape[-2:], bool)), 0.0, -np.inf)
    top = scores.max(-1, keepdims=True)
    top[top == -np.inf] = 0
    exps = np.exp(scores - top)
    total = exps.sum(-1, keepdims=True)
    lse = np.where(total == 0, 0.0, np.log(np.where(total == 0, 1, total)) + top)
    return exps, np.where(total == 0, 1, total), lse[..., 0]


def _weights(*args, **kwargs):
    """The attention weights and each row's log-sum-exp."""
    exps, total, lse = _exps(*args, **kwargs)
    return exps / total, lse


def _wide(v, q_heads):
    v = v.astype(np.float64)
    if v.ndim == 4 and v.shape[1] != q_heads:
        v = v.repeat(q_heads // v.shape[1], axis=1)
    return v


def _fused_attend(q, k, v, mask=None, is_causal=False, scale=None):
    """The fused kernel's product: float16 / bfloat16 inputs have their exps rounded to
    their dtype before the product with v, divided by the row sums after it."""
    exps, total, lse = _exps(q, k, mask, is_causal, scale)
    if v.dtype.itemsize < 4:
        exps = exps.astype(v.dtype).astype(np.float64)
    return (exps @ _wide(v, q.shape[1]) / total).astype(q.dtype), lse


def _sdpa_ref(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
              enable_gqa=False):
    if _choice_ref(q, k, v, attn_mask, dropout_p, is_causal, scale, enable_gqa):
        return _fused_attend(q, k, v, attn_mask, is_causal, scale)[0]
    weights, _ = _weights(q, k, attn_mask, is_causal, scale)
    return (weights @ _wide(v, q.shape[-3] if q.ndim >= 3 else 1)).astype(q.dtype)


def _flash_ref(q, k, v, dropout_p=0.0, is_causal=False, attn_mask=None, scale=None):
    output, lse = _fused_attend(q, k, v, attn_mask, is_causal, scale)
    return [output, lse.astype(_accumulate(q.dtype))]


def _math_ref(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, dropout_mask=None,
              scale=None, enable_gqa=False):
    if attn_mask is not None and attn_mask.dtype == bool:     # added as 0 / 1 here
        attn_mask = attn_mask.astype(np.float64)
    weights, _ = _weights(q, k, attn_mask, is_causal, scale)
    if dropout_mask is not None:
        weights = np.where(dropout_mask, weights, 0.0)
        v = v.astype(np.float64) / (1 - dropout_p)
    heads = q.shape[-3] if q.ndim >= 3 else 1
    return [(weights @ _wide(v, heads)).astype(q.dtype), weights.astype(q.dtype)]


def _flash_backward_ref(grad, q, k, v, out, lse, dropout_p, is_causal, attn_mask=None,
                        scale=None):
    weights, _ = _weights(q, k, attn_mask, is_causal, scale)
    group = q.shape[1] // k.shape[1]
    grad, out = grad.astype(np.float64), out.astype(np.float64)
    wide_v = v.astype(np.float64).repeat(group, axis=1)
    wide_k = k.astype(np.float64).repeat(group, axis=1)
    factor = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    grad_scores = _rounded(weights * (grad @ np.swapaxes(wide_v, -1, -2)
                                      - (grad * out).sum(-1, keepdims=True)), q.dtype) * factor
    grad_v = np.swapaxes(_rounded(weights, q.dtype), -1, -2) @ grad
    grad_k = np.swapaxes(grad_scores, -1, -2) @ q.astype(np.float64)

    def ungroup(g):
        return g.reshape(g.shape[0], -1, group, *g.shape[2:]).sum(2)
    return [(grad_scores @ wide_k).astype(q.dtype), ungroup(grad_k).astype(k.dtype),
            ungroup(grad_v).astype(v.dtype)]


def _rounded(array, dtype):
    """Rounded to a float16 / bfloat16 `dtype` (torch's kernel rounds the probabilities
    and their gradients before each matmul), else as it is."""
    return array.astype(dtype).astype(np.float64) if dtype.itemsize < 4 else array


def _safe_softmax_ref(x, dim, dtype=None):
    wanted = gt.empty(0, dtype=dtype).numpy().dtype if dtype else x.dtype
    shape = x.shape
    x = np.atleast_1d(x).astype(np.float64)          # a 0-dim input is one slice
    top = x.max(dim, keepdims=True)
    top[top == -np.inf] = 0
    exps = np.exp(x - top)
    total = exps.sum(dim, keepdims=True)
    result = exps / np.where(total == 0, 1, total)
    return result.reshape(shape).astype(wanted)


# ----- samples -------------------------------------------------------------------------
def _fused_cases(dtype):
    """(q, k, v, kwargs) the fused kernel takes: masks 2-D / 4-D, bool / float."""
    q, k, v = (_operand((2, 3, 5, 4), dtype, s) for s in (0, 1, 2))
    longer = [_operand((2, 3, 7, 4), dtype, s) for s in (3, 4)]
    keep = make_tensor((5, 7), gt.bool, seed=5)
    keep[:, 0] = True
    yield q, k, v, {}
    yield q, *longer, {"is_causal": True}
    yield _operand((2, 5, 3, 4), dtype, 6).transpose(1, 2), *longer, {"scale": 0.25}
    yield q, *longer, {"attn_mask": _operand((5, 7), dtype, 7)}
    yield q, *longer, {"attn_mask": _operand((2, 1, 1, 7), dtype, 8), "is_causal": True}
    yield q, *longer, {"attn_mask": keep}
    yield _operand((2, 6, 5, 4), dtype, 9), *longer, {"enable_gqa": True}


def sample_sdpa(dtype):
    for q, k, v, kwargs in _fused_cases(dtype):
        yield SampleInput(q, k, v, **kwargs)
    q, k, v = (_operand((3, 5, 4), dtype, s) for s in (0, 1, 2))
    yield SampleInput(q, k, v, is_causal=True)                            # 3-D: math
    yield SampleInput(q[0], k[0], _operand((5, 6), dtype, 3), scale=-0.5)   # 2-D, Ev != E
    q4 = _operand((2, 4, 5, 4), dtype, 4)
    kv = _operand((2, 2, 5, 4), dtype, 5)
    yield SampleInput(q4, kv, kv, enable_gqa=True, is_causal=True)
    yield SampleInput(q4, kv, _operand((2, 2, 5, 3), dtype, 6), enable_gqa=True)  # math
    yield SampleInput(q4, q4, q4, attn_mask=_operand((4, 5, 5), dtype, 7))       # 3-D mask
    blocked = gt.ones(5, 5, dtype=gt.bool)
    blocked[2] = False
    yield SampleInput(q4, q4, q4, attn_mask=blocked)                    # a fully masked row


def sample_flash(dtype):
    for q, k, v, kwargs in _fused_cases(dtype):
        mask = kwargs.pop("attn_mask", None)
        if mask is not None and mask.dtype is gt.bool:
            continue                               # the kernel takes additive masks
        kwargs.pop("enable_gqa", None)          # the kernel groups heads by itself
        yield SampleInput(q, k, v, 0.0, kwargs.pop("is_causal", False), attn_mask=mask,
                          **kwargs)


def sample_flash_backward(dtype):
    flash = gt.ops.aten._scaled_dot_product_flash_attention_for_cpu
    for sample in sample_flash(dtype):
        out, lse = flash(*sample.args, **sample.kwargs)
        grad = _operand(tuple(out.shape), dtype, 11)
        q, k, v, dropout_p, is_causal = sample.args
        yield SampleInput(grad, q, k, v, out, lse, dropout_p, is_causal, **sample.kwargs)


def sample_math(dtype):
    for sample in sample_sdpa(dtype):
        q, k, v = sample.args
        kwargs = dict(sample.kwargs)
        mask = kwargs.pop("attn_mask", None)
        if mask is not None and kwargs.get("is_causal"):
            continue
        yield SampleInput(q, k, v, mask, **kwargs)
    q, k, v = (_operand((2, 3, 5, 4), dtype, s) for s in (0, 1, 2))
    keep = make_tensor((2, 3, 5, 5), gt.bool, seed=9)
    yield SampleInput(q, k, v, None, 0.3, False, keep)                   # dropout_mask


def sample_safe_softmax(dtype):
    x = _operand((3, 4), dtype, 0)
    x[1] = -math.inf
    yield SampleInput(x, -1)
    yield SampleInput(x, 0)
    yield SampleInput(_operand((2, 3, 4), dtype, 1, "transposed"), 1)
    yield SampleInput(_operand((), dtype, 2), 0)
    yield SampleInput(_operand((0, 3), dtype, 3), 1)
    yield SampleInput(x, -1, dtype=gt.float64)


def sample_choice(dtype):
    for sample in sample_sdpa(dtype):
        yield sample
    q = _operand((2, 3, 5, 4), dtype, 0)
    yield SampleInput(q, q, q, dropout_p=0.1)
    yield SampleInput(q, q, q[:, :, :0])


def _choice_ref(q, k, v, attn_mask=None, dropout_p=0.0, is_causal=False, scale=None,
                enable_gqa=False):
    """torch's use_flash_attention_cpp on the arrays' shapes and strides."""
    if dropout_p > 0 or not q.ndim == k.ndim == v.ndim == 4:
        return 0
    heads = (k.shape[1] == v.shape[1] and q.shape[1] % k.shape[1] == 0) if enable_gqa \
        else q.shape[1] == k.shape[1] == v.shape[1]
    mask = attn_mask is None or (attn_mask.ndim == 2 and attn_mask.shape[0] in (1, q.shape[2])
                                 and attn_mask.shape[1] in (1, k.shape[2])) or (
        attn_mask.ndim == 4 and attn_mask.shape[0] in (1, q.shape[0])
        and attn_mask.shape[1] in (1, q.shape[1]) and attn_mask.shape[2] in (1, q.shape[2])
        and attn_mask.shape[3] in (1, k.shape[2]))
    return int(heads and mask and q.shape[0] == k.shape[0] == v.shape[0]
               and q.shape[-1] == k.shape[-1] == v.shape[-1]
               and q.shape[2] > 0 and k.shape[2] > 0)


# ----- errors --------------------------------------------------------------------------
def errors_sdpa():
    x = make_tensor((2, 3, 5, 4), gt.float32)
    keep = gt.ones(5, 5, dtype=gt.bool)
    yield ErrorInput(SampleInput(x, x.double(), x), RuntimeError,
                     r"^Expected query, key, and value to have the same dtype, but got "
                     r"query\.dtype: float key\.dtype: double and value\.dtype: float instead\.$")
    yield ErrorInput(SampleInput(x[0, 0, 0], x, x), RuntimeError,
                     r"^Expected query, key, and value to all be  at least 2 dimensional")
    yield ErrorInput(SampleInput(x, x, x, attn_mask=keep.long()), RuntimeError,
                     r"^Expected attn_mask dtype to be bool or float or to match query dtype")
    yield ErrorInput(SampleInput(x, x, x, attn_mask=keep, is_causal=True, dropout_p=0.2),
                     RuntimeError, r"^_scaled_dot_product_attention: Explicit attn_mask "
                                   r"should not be set when is_causal=True$")
    yield ErrorInput(SampleInput(x, x[:, :2], x[:, :2], enable_gqa=True), RuntimeError,
                     r"^Number of heads in key and value must divide the number of heads in $")
    yield ErrorInput(SampleInput(x, x, x, dropout_p=1.5), RuntimeError,
                     r"^dropout probability has to be between 0 and 1, but got 1\.5$")


def errors_flash():
    x = make_tensor((2, 3, 5, 4), gt.float32)
    prefix = r"^scaled_dot_product_attention_flash_attention: "
    yield ErrorInput(SampleInput(x.int(), x.int(), x.int()), RuntimeError,
                     prefix + r"Expected data type in FP32, FP64, BF16, FP16, but got Int")
    yield ErrorInput(SampleInput(x[0], x[0], x[0]), RuntimeError,
                     prefix + r"Accept only 4 dims inputs shape of \{B, H, T, K\}$",
                     known_bug_on_meta="attention_flash.py: torch's meta kernel describes a "
                                       "3-D input's results from its sizes as if it were 4-D")
    yield ErrorInput(SampleInput(x, x, x, 0.5), RuntimeError,
                     prefix + r"Currently do not support dropout > 0$")
    yield ErrorInput(SampleInput(x, x, x[..., :2]), RuntimeError,
                     prefix + r"Q/K/V should have the same head size$")
    yield ErrorInput(SampleInput(x, x, x, attn_mask=gt.ones(5, 5, dtype=gt.bool)),
                     RuntimeError, prefix + r"Attention mask is the same data type as query$")
    yield ErrorInput(SampleInput(x, x, x, attn_mask=gt.ones(1, 5, 5)), RuntimeError,
                     prefix + r"Attention mask dim in \{2, 4\}$")


OPS = [
    OpInfo("scaled_dot_product_attention",
           variants=("nn.functional.scaled_dot_product_attention",), ref=_sdpa_ref,
           sample_inputs=sample_sdpa, error_inputs=errors_sdpa, dtypes=FLOATING,
           marks=_OTHER_BACKEND),
    OpInfo("_scaled_dot_product_flash_attention_for_cpu",
           variants=("_scaled_dot_product_flash_attention_for_cpu",), ref=_flash_ref,
           sample_inputs=sample_flash, error_inputs=errors_flash, dtypes=FLOATING),
    OpInfo("_scaled_dot_product_flash_attention_for_cpu_backward",
           variants=("ops.aten._scaled_dot_product_flash_attention_for_cpu_backward",),
           ref=_flash_backward_ref, sample_inputs=sample_flash_backward, dtypes=FLOATING),
    OpInfo("_scaled_dot_product_attention_math",
           variants=("_scaled_dot_product_attention_math",), ref=_math_ref,
           sample_inputs=sample_math, dtypes=FLOATING),
    OpInfo("_safe_softmax", variants=("_safe_softmax",), ref=_safe_softmax_ref,
           sample_inputs=sample_safe_softmax, dtypes=FLOATING),
    OpInfo("_fused_sdp_choice", variants=("_fused_sdp_choice",), ref=_choice_ref,
           sample_inputs=sample_choice, dtypes=FLOATING, marks={
               **_OTHER_BACKEND,
               "test_meta": pytest.mark.skip(reason="returns an int, no tensor to describe")}),
]
