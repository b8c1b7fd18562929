"""Scaled dot-product attention: `scaled_dot_product_attention` (torch.nn.functional's),
the backend choice `_fused_sdp_choice`, the math path `_scaled_dot_product_attention_math`
and its `_safe_softmax`.

As torch on CPU, `scaled_dot_product_attention` checks its arguments, turns a bool mask
into an additive one (-inf where False), and runs one of two backends:

* the fused kernel `_scaled_dot_product_flash_attention_for_cpu` (`attention_flash.py`)
  for 4-D float inputs of equal head sizes without dropout, whose mask (if any) does not
  require grad and broadcasts as ``(B|1, H|1, L|1, S|1)`` (torch's
  `use_flash_attention_cpp`): one node, `ScaledDotProductFlashAttentionForCpuBackward0`;
* otherwise the math path, written in ordinary operators (matmul, `_safe_softmax`,
  `dropout`), so autograd records their nodes and a seeded ``dropout_p`` draws torch's
  numbers (its `dropout` is the composite of `dropout.py`).
"""
from __future__ import annotations

import functools
import math
import warnings

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import type_meta_name
from ...context import GLOBAL_CONTEXT
from ...dispatcher import ops
from ...meta.shape import wrap_dim
from ...registry import TensorMeta, composite, op
from .attention_flash import _scaled_dot_product_flash_attention_for_cpu as flash_attention
from .attention_flash import default_scale
from .softmax import _max_along, _softmax_rows, along_rows

_aten = ops.aten
MATH, FLASH = 0, 1          # torch's SDPBackend numbers (what _fused_sdp_choice returns)
_FLASH_DTYPES = (dtypes.float32, dtypes.float64, dtypes.bfloat16, dtypes.float16)
_SDPA_SCHEMA = ("Tensor query, Tensor key, Tensor value, Tensor? attn_mask=None, "
                "float dropout_p=0.0, bool is_causal=False, *, float? scale=None, "
                "bool enable_gqa=False")


# ----------------------------------------------------------------------------------
# _safe_softmax: softmax whose fully masked rows (all -inf) give zeros, not NaN
# ----------------------------------------------------------------------------------
def _safe_softmax_meta(self, dim, dtype=None):
    wrap_dim(dim, self.dim())
    result = dtype or self._dtype
    if self.numel() and result not in _FLASH_DTYPES:
        last = self.dim() <= 1 or wrap_dim(dim, self.dim()) == self.dim() - 1
        kernel = "softmax_lastdim_kernel_impl" if last else "softmax_kernel_impl"
        raise NotImplementedError(f'"{kernel}" not implemented for '
                                  f"'{dtypes.scalar_type_name(result)}'")
    return TensorMeta(self._size, result)


def _safe_softmax_rows(x: np.ndarray, *, out: np.ndarray, last: bool) -> None:
    """`_softmax`'s block math, then 0 for the rows of -inf only (their softmax is NaN),
    as torch's kernel masks its softmax."""
    _softmax_rows(x, out=out, last=last)
    masked = np.nonzero(_max_along(x) == -np.inf)
    if masked[0].size:
        out[masked[0], :, masked[2]] = 0


@op("_safe_softmax(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
    meta=_safe_softmax_meta,
    grad={"self": "_softmax_backward_data(grad, result, dim, self_scalar_type)"})
def _safe_softmax(self, dim, dtype, *, out):
    """Softmax along `dim` (in `dtype` if given), with 0 for slices that are all -inf
    (attention rows whose every key is masked).

    Example::

        >>> torch._safe_softmax(torch.tensor([[0., 0.], [-inf, -inf]]), -1)
        tensor([[0.5000, 0.5000],
                [0.0000, 0.0000]])
    """
    if dtype is not None:                       # torch converts the input first
        self = self.astype(out.dtype)
    dim = wrap_dim(dim, self.ndim)
    last = self.ndim == 0 or dim == self.ndim - 1
    along_rows(functools.partial(_safe_softmax_rows, last=last), (self,), dim, out)


# ----------------------------------------------------------------------------------
# Argument checks and the backend choice
# ----------------------------------------------------------------------------------
def _validate(query, key, value, attn_mask) -> None:
    """torch's validate_sdpa_input."""
    if not query._dtype is key._dtype is value._dtype:
        raise RuntimeError(f"Expected query, key, and value to have the same dtype, but got "
                           f"query.dtype: {type_meta_name(query._dtype)} key.dtype: "
                           f"{type_meta_name(key._dtype)} and value.dtype: "
                           f"{type_meta_name(value._dtype)} instead.")
    if query.dim() < 2 or key.dim() < 2 or value.dim() < 2:
        raise RuntimeError(f"Expected query, key, and value to all be  at least 2 dimensional, "
                           f"but got query.dim: {query.dim()} key.dim: {key.dim()} and "
                           f"value.dim: {value.dim()} instead.")
    if attn_mask is not None and attn_mask._dtype not in (dtypes.bool, dtypes.float32,
                                                          query._dtype):
        raise RuntimeError(f"Expected attn_mask dtype to be bool or float or to match query "
                           f"dtype, but got attn_mask.dtype: {type_meta_name(attn_mask._dtype)} "
                           f"and  query.dtype: {type_meta_name(query._dtype)} instead.")


def _mask_fits_flash(attn_mask, query, key) -> bool:
    """A mask the fused kernel broadcasts itself: 2-D, or 4-D with batch and head dims
    of the query's size or 1; its last two dims the sequence lengths or 1."""
    if attn_mask is None:
        return True
    if attn_mask.requires_grad or attn_mask.dim() not in (2, 4):
        return False
    *lead, rows, columns = attn_mask._size
    if rows not in (query._size[2], 1) or columns not in (key._size[2], 1):
        return False
    return not lead or (lead[0] in (1, query._size[0]) and lead[1] in (1, query._size[1]))


def _heads_fit_flash(query, key, value, enable_gqa: bool) -> bool:
    """Equal batch sizes, and equal head counts (or, with `enable_gqa`, key and value
    heads equal and dividing the query's)."""
    if not query._size[0] == key._size[0] == value._size[0]:
        return False
    heads, kv_heads = query._size[1], key._size[1]
    if enable_gqa:
        return kv_heads == value._size[1] and heads % kv_heads == 0
    return heads == kv_heads == value._size[1]


@composite(f"_fused_sdp_choice({_SDPA_SCHEMA}) -> int")
def _fused_sdp_choice(query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False,
                      scale=None, enable_gqa=False):
    """The backend `scaled_dot_product_attention` runs for these arguments on CPU: 1 (the
    fused "flash" kernel) or 0 (the math path), as torch's `select_sdp_backend_cpp`,
    among the backends allowed (`torch.nn.attention.sdpa_kernel`).

    Example::

        >>> q = torch.ones(1, 1, 2, 4)
        >>> torch._fused_sdp_choice(q, q, q), torch._fused_sdp_choice(q, q, q, dropout_p=0.1)
        (1, 0)
    """
    four_dims = query.dim() == key.dim() == value.dim() == 4
    usable = (dropout_p <= 0.0 and four_dims
              and _heads_fit_flash(query, key, value, enable_gqa)
              and _mask_fits_flash(attn_mask, query, key)
              and query._size[-1] == key._size[-1] == value._size[-1]
              and query._size[-2] != 0 and key._size[-2] != 0
              and query._stride[-1] == key._stride[-1] == value._stride[-1] == 1
              and query._dtype is key._dtype is value._dtype
              and query._dtype in _FLASH_DTYPES)
    allowed = GLOBAL_CONTEXT.sdp_enabled
    if usable and allowed["flash"]:
        return FLASH
    if allowed["math"]:
        return MATH
    if allowed["flash"]:
        raise RuntimeError("No available kernel.  Aborting execution.")
    raise RuntimeError("No viable backend for scaled_dot_product_attention was found. This "
                       "is likely due to turning off both the math kernel and the fused "
                       "kernels.")


def _additive_mask(attn_mask, dtype):
    """A bool mask as 0 where True and -inf where False, in `dtype`; others as they are."""
    if attn_mask is None or attn_mask._dtype is not dtypes.bool:
        return attn_mask
    minus_infinity = _aten.scalar_tensor.default.call(-math.inf, dtype, None,
                                                      attn_mask._device, None)
    return _aten.where.self.call(attn_mask, 0.0, minus_infinity)


# ----------------------------------------------------------------------------------
# The math path
# ----------------------------------------------------------------------------------
def _scale_root(head_size: int, scale) -> float:
    """sqrt(|scale|) (default scale 1/sqrt(E)): the math path scales query and key by it
    each, keeping the product's magnitude moderate."""
    return math.sqrt(abs(default_scale(head_size) if scale is None else scale))


def _repeat_heads(t, repeats: int):
    """Each head `repeats` times in a row (torch's repeat_interleave on dim -3, which
    decomposes into unsqueeze, expand, clone and view)."""
    size = t._size
    wide = _aten.unsqueeze.default.call(t, t.dim() - 2)
    wide = _aten.expand.default.call(wide, size[:-2] + (repeats,) + size[-2:], False)
    wide = _aten.clone.default.call(wide, None)
    return _aten.view.default.call(wide, size[:-3] + (size[-3] * repeats,) + size[-2:])


def _grouped_key_value(query, key, value, enable_gqa: bool) -> tuple:
    """Key and value with their heads repeated to the query's count (grouped-query
    attention), or as they are without `enable_gqa`."""
    if not enable_gqa:
        return key, value
    heads, key_heads, value_heads = query.size(-3), key.size(-3), value.size(-3)
    if heads == key_heads == value_heads:
        return key, value
    if heads % key_heads or heads % value_heads:
        raise RuntimeError("Number of heads in key and value must divide the number of "
                           "heads in ")
    return (_repeat_heads(key, heads // key_heads),
            _repeat_heads(value, heads // value_heads))


def _to(t, dtype):
    return _aten._to_copy.default.call(t, dtype, None, None, None, False, None)


def _causal_mask(query, key):
    """The additive top-left causal mask, (L, S): -inf above the diagonal."""
    ones = _aten.ones.default.call((query._size[-2], key._size[-2]), dtypes.bool, None,
                                   query._device, None)
    return _additive_mask(_aten.tril.default.call(ones, 0), query._dtype)


@composite("_scaled_dot_product_attention_math(Tensor query, Tensor key, Tensor value, "
           "Tensor? attn_mask=None, float dropout_p=0.0, bool is_causal=False, "
           "Tensor? dropout_mask=None, *, float? scale=None, bool enable_gqa=False) "
           "-> (Tensor, Tensor)")
def _scaled_dot_product_attention_math(query, key, value, attn_mask=None, dropout_p=0.0,
                                       is_causal=False, dropout_mask=None, scale=None,
                                       enable_gqa=False):
    """Attention written in operators: ``softmax(q k^T * scale + mask) v``, returning
    the output and the attention weights. float16 / bfloat16 inputs are computed in
    float32. `dropout_mask` (for testing) replaces the random dropout draws.

    Example::

        >>> q = torch.ones(1, 2, 4)
        >>> torch._scaled_dot_product_attention_math(q, q, q)[1]
        tensor([[[0.5000, 0.5000],
                 [0.5000, 0.5000]]])
    """
    origin = query._dtype
    if origin in (dtypes.float16, dtypes.bfloat16):
        query, key, value = _to(query, dtypes.float32), _to(key, dtypes.float32), \
            _to(value, dtypes.float32)
    root = _scale_root(query._size[-1], scale)
    # numbers scale through the Scalar overload, as in torch's C++ (MulBackward1)
    query = _aten.mul.Scalar.call(query, -root if scale is not None and scale < 0 else root)
    if is_causal:
        if attn_mask is not None:
            raise RuntimeError("_scaled_dot_product_attention: Explicit attn_mask should not "
                               "be set when is_causal=True")
        attn_mask = _causal_mask(query, key)
    key, value = _grouped_key_value(query, key, value, enable_gqa)
    scaled_key = _aten.mul.Scalar.call(_aten.transpose.int.call(key, -2, -1), root)
    attn = _aten.matmul.default.call(query, scaled_key)
    if attn_mask is not None:
        _aten.add_.Tensor.call(attn, attn_mask, 1)
    attn = _safe_softmax.call(attn, -1, None)
    if dropout_p > 0.0:
        if dropout_mask is None:
            attn = _aten.dropout.default.call(attn, dropout_p, True)
        else:
            warnings.warn("Dropout mask should only be used for testing purposes.")
            dropped = _aten.logical_not.default.call(dropout_mask)
            attn = _aten.masked_fill.Scalar.call(attn, dropped, 0.0)
            value = _aten.mul.Scalar.call(value, 1.0 / (1 - dropout_p))
    output = _aten.matmul.default.call(attn, value)
    if origin is not query._dtype:
        return _to(output, origin), _to(attn, origin)
    return output, attn


# ----------------------------------------------------------------------------------
# scaled_dot_product_attention
# ----------------------------------------------------------------------------------
@composite(f"scaled_dot_product_attention({_SDPA_SCHEMA}) -> Tensor", python_module="nn")
def scaled_dot_product_attention(query, key, value, attn_mask=None, dropout_p=0.0,
                                 is_causal=False, scale=None, enable_gqa=False):
    """Attention: ``softmax(query @ key^T * scale + mask) @ value``, each query position
    taking a weighted average of the values, weighted by its affinity with the keys.

    Args:
        query (Tensor): ``(N, ..., L, E)``.
        key (Tensor): ``(N, ..., S, E)``.
        value (Tensor): ``(N, ..., S, Ev)``.
        attn_mask (Tensor, optional): broadcastable to ``(N, ..., L, S)``: bool (True
            keeps a position, False masks it out) or float (added to the scores).
        dropout_p (float): the probability of dropping an attention weight (only pass
            a nonzero value in training).
        is_causal (bool): mask the positions after each query's own (the upper triangle,
            aligned top-left); an `attn_mask` may not be given too.
        scale (float, optional): the scores' factor, default ``1 / sqrt(E)``.
        enable_gqa (bool): grouped-query attention: key and value may have fewer heads
            (dim -3) than the query, a divisor of its count; each serves a group.

    Returns:
        ``(N, ..., L, Ev)``. A query position whose every key is masked gets zeros.

    Example::

        >>> q = torch.ones(1, 1, 3, 2)
        >>> v = torch.arange(6.).view(1, 1, 3, 2)
        >>> F.scaled_dot_product_attention(q, q, v, is_causal=True)
        tensor([[[[0., 1.],
                  [1., 2.],
                  [2., 3.]]]])
    """
    _validate(query, key, value, attn_mask)
    choice = _fused_sdp_choice.call(query, key, value, attn_mask, dropout_p, is_causal,
                                    scale, enable_gqa)
    mask = _additive_mask(attn_mask, query._dtype)
    if choice == FLASH:
        return flash_attention.call(query, key, value, dropout_p, is_causal, mask, scale)[0]
    return _scaled_dot_product_attention_math.call(query, key, value, mask, dropout_p,
                                                   is_causal, None, scale, enable_gqa)[0]
