"""torch.nn.functional's multi-head attention: `multi_head_attention_forward` (what
nn.MultiheadAttention runs) and the mask helpers the transformer layers share.

Like torch's, the function is ordinary Python over operators (linear, bmm, softmax,
scaled_dot_product_attention), so autograd records their nodes and a seeded dropout
draws torch's numbers. Its inputs are sequence-first, ``(L, N, E)`` (or ``(L, E)``
unbatched). Bad shapes raise AssertionError or RuntimeError with torch's messages.

Note [Attention with and without weights]
    Two routes compute the attention, as in torch:

    * ``need_weights=True``: scaled query times keys (`baddbmm` adds the mask),
      softmax, dropout, times values; the weights are returned, per head or averaged.
    * ``need_weights=False``: the heads go to `scaled_dot_product_attention`, whose
      softmax gives 0 (not NaN) for a query whose every key is masked.

    The results agree to rounding except on such fully masked queries. torch's
    inference fast path takes the first route's softmax (Note [The inference fast
    path] in `nn/modules/activation_attention.py`).
"""
from __future__ import annotations

import math
import warnings

import glasstorch as torch

from ...aten.binding import get_binding
from .activation import softmax
from .dropout import dropout

__all__ = ["multi_head_attention_forward"]
Tensor = torch.Tensor


def _linear(input, weight, bias):
    return get_binding("nn", "linear")(input, weight, bias)


def _none_or_dtype(input: Tensor | None):
    """The dtype of a mask, or None when there is no mask."""
    if input is None:
        return None
    if isinstance(input, Tensor):
        return input.dtype
    raise RuntimeError("input to _none_or_dtype() must be None or torch.Tensor")


def _canonical_mask(mask: Tensor | None, mask_name: str, other_type, other_name: str,
                    target_type, check_other: bool = True) -> Tensor | None:
    """A mask in its additive form: a bool mask becomes 0 where False and -inf where True
    (in `target_type`); a float mask is returned as it is. Warns, as torch does, when
    the mask's dtype differs from `other_type` (the dtype of the mask it goes with)."""
    if mask is None:
        return None
    is_float = torch.is_floating_point(mask)
    if mask.dtype != torch.bool and not is_float:
        raise AssertionError(f"only bool and floating types of {mask_name} are supported")
    if check_other and other_type is not None and mask.dtype != other_type:
        warnings.warn(f"Support for mismatched {mask_name} and {other_name} is deprecated. "
                      "Use same type for both instead.", stacklevel=2)
    if is_float:
        return mask
    return torch.zeros_like(mask, dtype=target_type).masked_fill_(mask, float("-inf"))


def _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads: int) -> bool:
    """Check the ranks of the inputs and masks; True for batched (3-D) inputs."""
    if query.dim() not in (2, 3):
        raise AssertionError("query should be unbatched 2D or batched 3D tensor but received "
                             f"{query.dim()}-D query tensor")
    batched = query.dim() == 3
    kind = "batched (3-D)" if batched else "unbatched (2-D)"
    rank = query.dim()
    if key.dim() != rank or value.dim() != rank:
        raise AssertionError(f"For {kind} `query`, expected `key` and `value` to be {rank}-D but "
                             f"found {key.dim()}-D and {value.dim()}-D tensors respectively")
    if key_padding_mask is not None and key_padding_mask.dim() != rank - 1:
        raise AssertionError(f"For {kind} `query`, expected `key_padding_mask` to be `None` or "
                             f"{rank - 1}-D but found {key_padding_mask.dim()}-D tensor instead")
    if attn_mask is None:
        return batched
    if attn_mask.dim() not in (2, 3):
        raise AssertionError(f"For {kind} `query`, expected `attn_mask` to be `None`, 2-D or 3-D"
                             f" but found {attn_mask.dim()}-D tensor instead")
    expected = (num_heads, query.shape[0], key.shape[0])
    if not batched and attn_mask.dim() == 3 and attn_mask.shape != expected:
        raise AssertionError(f"Expected `attn_mask` shape to be {expected} but got "
                             f"{attn_mask.shape}")
    return batched


def _unpack_projection(projection, count: int, size: int) -> list:
    """Split the last dim of a packed projection into `count` contiguous tensors of `size`
    (query, key, value in that order), each shaped like the input."""
    parts = projection.unflatten(-1, (count, size)).unsqueeze(0).transpose(0, -2)
    parts = parts.squeeze(-2).contiguous()
    return [parts[index] for index in range(count)]


def _in_projection_packed(q, k, v, w, b=None) -> list:
    """Project query, key and value by the stacked ``(3E, E)`` weight `w` (and bias `b`):
    one matmul for self-attention (q is k is v), two when only key is value."""
    size = q.size(-1)
    if k is v and q is k:
        return _unpack_projection(_linear(q, w, b), 3, size)
    if k is v:
        w_q, w_kv = w.split([size, size * 2])
        b_q, b_kv = (None, None) if b is None else b.split([size, size * 2])
        return [_linear(q, w_q, b_q)] + _unpack_projection(_linear(k, w_kv, b_kv), 2, size)
    w_q, w_k, w_v = w.chunk(3)
    b_q, b_k, b_v = (None, None, None) if b is None else b.chunk(3)
    return [_linear(q, w_q, b_q), _linear(k, w_k, b_k), _linear(v, w_v, b_v)]


def _in_projection(q, k, v, w_q, w_k, w_v, b_q=None, b_k=None, b_v=None) -> tuple:
    """Project query, key and value by their own weights, checking that each maps its
    input's embedding size onto the query's."""
    eq, ek, ev = q.size(-1), k.size(-1), v.size(-1)
    for name, weight, shape in (("query", w_q, (eq, eq)), ("key", w_k, (eq, ek)),
                                ("value", w_v, (eq, ev))):
        if weight.shape != shape:
            raise AssertionError(f"expecting {name} weights shape of {shape}, but got "
                                 f"{weight.shape}")
    for name, bias in (("query", b_q), ("key", b_k), ("value", b_v)):
        if bias is not None and bias.shape != (eq,):
            raise AssertionError(f"expecting {name} bias shape of {(eq,)}, but got {bias.shape}")
    return _linear(q, w_q, b_q), _linear(k, w_k, b_k), _linear(v, w_v, b_v)


def _check_key_padding_mask(key_padding_mask, src_len: int, bsz: int) -> None:
    if key_padding_mask.shape[0] != bsz:
        raise AssertionError(f"Expected key_padded_mask.shape[0] to be {bsz}, but got "
                             f"{key_padding_mask.shape[0]}")
    if key_padding_mask.shape[1] != src_len:
        raise AssertionError(f"Expected key_padded_mask.shape[1] to be {src_len}, but got "
                             f"{key_padding_mask.shape[1]}")


def _checked_attn_mask(attn_mask, tgt_len: int, src_len: int, heads: int):
    """A 2-D ``(L, S)`` mask as ``(1, L, S)``; a 3-D one must be ``(N * heads, L, S)``."""
    if attn_mask is None:
        return None
    if attn_mask.dim() == 2:
        if attn_mask.shape != (tgt_len, src_len):
            raise RuntimeError(f"The shape of the 2D attn_mask is {attn_mask.shape}, but should "
                               f"be {(tgt_len, src_len)}.")
        return attn_mask.unsqueeze(0)
    if attn_mask.dim() == 3:
        if attn_mask.shape != (heads, tgt_len, src_len):
            raise RuntimeError(f"The shape of the 3D attn_mask is {attn_mask.shape}, but should "
                               f"be {(heads, tgt_len, src_len)}.")
        return attn_mask
    raise RuntimeError(f"attn_mask's dimension {attn_mask.dim()} is not supported")


def _pad_masks(attn_mask, key_padding_mask) -> tuple:
    """Both masks with one more (unmasked) key column, for an appended key."""
    pad = get_binding("nn", "pad")
    return (None if attn_mask is None else pad(attn_mask, (0, 1)),
            None if key_padding_mask is None else pad(key_padding_mask, (0, 1)))


def _check_separate_kv(key, value, use_separate_proj_weight: bool) -> None:
    if use_separate_proj_weight:
        if key.shape[:2] != value.shape[:2]:
            raise AssertionError(f"key's sequence and batch dims {key.shape[:2]} do not match "
                                 f"value's {value.shape[:2]}")
    elif key.shape != value.shape:
        raise AssertionError(f"key shape {key.shape} does not match value shape {value.shape}")


def _project(query, key, value, in_proj_weight, in_proj_bias, separate) -> tuple:
    """The in-projection: packed weights, or the three of `separate` (q, k, v weights)
    when given; the packed bias splits in three either way."""
    if separate is None:
        if in_proj_weight is None:
            raise AssertionError("use_separate_proj_weight is False but in_proj_weight is None")
        return _in_projection_packed(query, key, value, in_proj_weight, in_proj_bias)
    for letter, weight in zip("qkv", separate):
        if weight is None:
            raise AssertionError(f"use_separate_proj_weight is True but {letter}_proj_weight "
                                 "is None")
    biases = (None, None, None) if in_proj_bias is None else in_proj_bias.chunk(3)
    return _in_projection(query, key, value, *separate, *biases)


def _heads(projected, static, name: str, bsz: int, heads: int, head_dim: int):
    """``(S, N, E)`` as ``(N * heads, S, head_dim)``, or the given `static` keys/values."""
    if static is None:
        return projected.view(projected.shape[0], bsz * heads, head_dim).transpose(0, 1)
    if static.size(0) != bsz * heads:
        raise AssertionError(f"expecting {name}.size(0) of {bsz * heads}, but got "
                             f"{static.size(0)}")
    if static.size(2) != head_dim:
        raise AssertionError(f"expecting {name}.size(2) of {head_dim}, but got {static.size(2)}")
    return static


def _extend_keys(k, v, masks: tuple, bias_kv: tuple, statics: tuple, bsz: int) -> tuple:
    """Keys and values ``(S, N, E)`` with the learned `bias_kv` pair appended as one more
    position (masks padded to match)."""
    bias_k, bias_v = bias_kv
    if bias_k is None or bias_v is None:
        if bias_k is not None:
            raise AssertionError("bias_k is set but bias_v is None")
        if bias_v is not None:
            raise AssertionError("bias_v is set but bias_k is None")
        return k, v, masks
    if statics[0] is not None:
        raise AssertionError("bias cannot be added to static key.")
    if statics[1] is not None:
        raise AssertionError("bias cannot be added to static value.")
    k = torch.cat([k, bias_k.repeat(1, bsz, 1)])
    v = torch.cat([v, bias_v.repeat(1, bsz, 1)])
    return k, v, _pad_masks(*masks)


def _append_zero_key(k, v, masks: tuple) -> tuple:
    """Keys and values ``(N * heads, S, head_dim)`` with an all-zero position appended."""
    shape = (k.size(0), 1, k.size(2))
    k = torch.cat([k, torch.zeros(shape, dtype=k.dtype, device=k.device)], dim=1)
    v = torch.cat([v, torch.zeros(shape, dtype=v.dtype, device=v.device)], dim=1)
    return k, v, _pad_masks(*masks)


def _merged_mask(attn_mask, key_padding_mask, bsz: int, heads: int, src_len: int):
    """The attention mask plus the key padding mask spread over the heads:
    ``(N * heads, 1 or L, S)``, or ``(1, L, S)`` with no padding mask."""
    if key_padding_mask is None:
        return attn_mask
    _check_key_padding_mask(key_padding_mask, src_len, bsz)
    padding = key_padding_mask.view(bsz, 1, 1, src_len).expand(-1, heads, -1, -1)
    padding = padding.reshape(bsz * heads, 1, src_len)
    return padding if attn_mask is None else attn_mask + padding


def _canonical_masks(key_padding_mask, attn_mask, is_causal: bool, need_weights: bool,
                     dtype) -> tuple:
    """Both masks additive; `is_causal` (which needs a mask to stand for) kept only where
    scaled_dot_product_attention can apply it in the mask's place."""
    key_padding_mask = _canonical_mask(key_padding_mask, "key_padding_mask",
                                       _none_or_dtype(attn_mask), "attn_mask", dtype)
    if is_causal and attn_mask is None:
        raise RuntimeError("Need attn_mask if specifying the is_causal hint. You may use the "
                           "Transformer module method `generate_square_subsequent_mask` to "
                           "create this mask.")
    if is_causal and key_padding_mask is None and not need_weights:
        return None, None, True
    attn_mask = _canonical_mask(attn_mask, "attn_mask", None, "", dtype, check_other=False)
    return key_padding_mask, attn_mask, is_causal and key_padding_mask is None


def _attend_with_weights(q, k, v, attn_mask, dropout_p: float, heads: int,
                         average: bool) -> tuple:
    """Attention written out, keeping the weights: ``softmax(q k^T / sqrt(E) + mask)``,
    dropout, times v. Returns ``(L, N * heads, head_dim)`` and the weights per head
    ``(N, heads, L, S)`` or averaged ``(N, L, S)``."""
    batch_heads, tgt_len, head_dim = q.shape
    q_scaled = q * math.sqrt(1.0 / float(head_dim))
    if attn_mask is None:
        weights = torch.bmm(q_scaled, k.transpose(-2, -1))
    else:
        weights = torch.baddbmm(attn_mask, q_scaled, k.transpose(-2, -1))
    weights = softmax(weights, dim=-1)
    if dropout_p > 0.0:
        weights = dropout(weights, p=dropout_p)
    output = torch.bmm(weights, v).transpose(0, 1)
    weights = weights.view(batch_heads // heads, heads, tgt_len, k.size(1))
    return output, weights.mean(dim=1) if average else weights


def _attend_fused(q, k, v, attn_mask, dropout_p: float, is_causal: bool, heads: int):
    """Attention by scaled_dot_product_attention over ``(N, heads, L, head_dim)``;
    returns ``(L, N, heads, head_dim)``."""
    batch_heads, tgt_len, head_dim = q.shape
    bsz, src_len = batch_heads // heads, k.size(1)
    if attn_mask is not None:
        if attn_mask.size(0) == 1 and attn_mask.dim() == 3:
            attn_mask = attn_mask.unsqueeze(0)
        else:
            attn_mask = attn_mask.view(bsz, heads, -1, src_len)
    q = q.view(bsz, heads, tgt_len, head_dim)
    k = k.view(bsz, heads, src_len, head_dim)
    v = v.view(bsz, heads, src_len, head_dim)
    sdpa = get_binding("nn", "scaled_dot_product_attention")
    return sdpa(q, k, v, attn_mask, dropout_p, is_causal).permute(2, 0, 1, 3)


def multi_head_attention_forward(
        query: Tensor, key: Tensor, value: Tensor, embed_dim_to_check: int, num_heads: int,
        in_proj_weight: Tensor | None, in_proj_bias: Tensor | None, bias_k: Tensor | None,
        bias_v: Tensor | None, add_zero_attn: bool, dropout_p: float,
        out_proj_weight: Tensor, out_proj_bias: Tensor | None, training: bool = True,
        key_padding_mask: Tensor | None = None, need_weights: bool = True,
        attn_mask: Tensor | None = None, use_separate_proj_weight: bool = False,
        q_proj_weight: Tensor | None = None, k_proj_weight: Tensor | None = None,
        v_proj_weight: Tensor | None = None, static_k: Tensor | None = None,
        static_v: Tensor | None = None, average_attn_weights: bool = True,
        is_causal: bool = False) -> tuple[Tensor, Tensor | None]:
    """Multi-head attention over sequence-first inputs: project query, key and value,
    attend in `num_heads` heads of ``E / num_heads`` features, project the result.

    Args:
        query, key, value: ``(L, N, E)``, ``(S, N, E_k)``, ``(S, N, E_v)``, or without
            the batch dim ``N``.
        embed_dim_to_check (int): the model size ``E`` the query must have.
        num_heads (int): the number of heads (must divide ``E``).
        in_proj_weight, in_proj_bias: the stacked ``(3E, E)`` query/key/value projection
            and its ``(3E,)`` bias (the bias also serves the separate weights).
        bias_k, bias_v: ``(1, 1, E)`` learned key and value appended to the sequence.
        add_zero_attn (bool): append an all-zero key and value as well.
        dropout_p (float): dropout on the attention weights (in training).
        out_proj_weight, out_proj_bias: the ``(E, E)`` output projection and its bias.
        training (bool): apply the dropout. Default: True.
        key_padding_mask: ``(N, S)`` bool (True: ignore that key) or float (added).
        need_weights (bool): also return the attention weights. Default: True.
        attn_mask: ``(L, S)`` or ``(N * num_heads, L, S)``, bool or float as above.
        use_separate_proj_weight (bool): project by `q_proj_weight`, `k_proj_weight`,
            `v_proj_weight` instead of `in_proj_weight`.
        static_k, static_v: ``(N * num_heads, S, E / num_heads)`` keys and values used
            as they are instead of projections of `key` and `value`.
        average_attn_weights (bool): average the returned weights over the heads.
        is_causal (bool): a hint that `attn_mask` is the causal mask.

    Returns:
        the attention output ``(L, N, E)`` and the weights ``(N, L, S)`` (or
        ``(N, num_heads, L, S)``), None for the weights when ``need_weights=False``.

    Example::

        >>> m = nn.MultiheadAttention(4, 2)
        >>> x = torch.randn(3, 1, 4)
        >>> out, w = F.multi_head_attention_forward(
        ...     x, x, x, 4, 2, m.in_proj_weight, m.in_proj_bias, None, None, False, 0.0,
        ...     m.out_proj.weight, m.out_proj.bias)
        >>> out.shape, w.shape
        (torch.Size([3, 1, 4]), torch.Size([1, 3, 3]))
    """
    batched = _mha_shape_check(query, key, value, key_padding_mask, attn_mask, num_heads)
    if not batched:
        query, key, value = query.unsqueeze(1), key.unsqueeze(1), value.unsqueeze(1)
        if key_padding_mask is not None:
            key_padding_mask = key_padding_mask.unsqueeze(0)
    tgt_len, bsz, embed_dim = query.shape
    key_padding_mask, attn_mask, is_causal = _canonical_masks(
        key_padding_mask, attn_mask, is_causal, need_weights, query.dtype)
    if embed_dim != embed_dim_to_check:
        raise AssertionError(f"was expecting embedding dimension of {embed_dim_to_check}, "
                             f"but got {embed_dim}")
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise AssertionError(f"embed_dim {embed_dim} not divisible by num_heads {num_heads}")
    _check_separate_kv(key, value, use_separate_proj_weight)
    separate = (q_proj_weight, k_proj_weight, v_proj_weight) if use_separate_proj_weight \
        else None
    q, k, v = _project(query, key, value, in_proj_weight, in_proj_bias, separate)
    masks = (_checked_attn_mask(attn_mask, tgt_len, key.shape[0], bsz * num_heads),
             key_padding_mask)
    k, v, masks = _extend_keys(k, v, masks, (bias_k, bias_v), (static_k, static_v), bsz)
    q = q.view(tgt_len, bsz * num_heads, head_dim).transpose(0, 1)
    k = _heads(k, static_k, "static_k", bsz, num_heads, head_dim)
    v = _heads(v, static_v, "static_v", bsz, num_heads, head_dim)
    if add_zero_attn:
        k, v, masks = _append_zero_key(k, v, masks)
    attn_mask = _merged_mask(*masks, bsz, num_heads, k.size(1))
    dropout_p = dropout_p if training else 0.0
    weights = None
    if need_weights:
        output, weights = _attend_with_weights(q, k, v, attn_mask, dropout_p, num_heads,
                                               average_attn_weights)
    else:
        output = _attend_fused(q, k, v, attn_mask, dropout_p, is_causal, num_heads)
    output = _linear(output.reshape(tgt_len * bsz, embed_dim), out_proj_weight, out_proj_bias)
    output = output.view(tgt_len, bsz, output.size(1))
    if not batched:
        output = output.squeeze(1)
        weights = None if weights is None else weights.squeeze(0)
    return output, weights
