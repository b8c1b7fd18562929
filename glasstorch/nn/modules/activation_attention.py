"""nn.MultiheadAttention: the layer around `F.multi_head_attention_forward`.

Note [The inference fast path]
    In eval mode, with no gradient to record, torch's MultiheadAttention (and
    TransformerEncoderLayer) hand batch-first self-attention with an even number of
    heads to a fused kernel. Its numbers are those of the ordinary path, to rounding,
    with one visible difference: a query whose every key is masked gets NaN there (a
    plain softmax over -inf), where the ordinary ``need_weights=False`` path, through
    scaled_dot_product_attention, gets 0. glasstorch has no second kernel to fall into:
    `MultiheadAttention._fast_path_applies` checks torch's conditions, and
    `_fast_path_forward` computes the same attention on the with-weights route (whose
    softmax is the plain one: Note [Attention with and without weights]), dropping the
    weights unless asked for. The fast path
    also ignores the `is_causal` hint (it reads only the masks), and so does this route.
    TransformerEncoder's nested-tensor route is described where it is emulated
    (`transformer.py`).
"""
from __future__ import annotations

import glasstorch as torch
from .. import functional as F
from .. import init
from ..parameter import Parameter
from .linear import NonDynamicallyQuantizableLinear
from .module import Module

__all__ = ["MultiheadAttention"]


def _fast_path_blocked(module, query, key, value) -> bool:
    """Whether torch's MultiheadAttention would refuse its fast path for this module and
    these inputs (the masks are checked by the caller)."""
    if not torch.backends.mha.get_fastpath_enabled() or query.dim() != 3:
        return True
    if query is not key or key is not value or module.in_proj_weight is None:
        return True
    if module.in_proj_bias is None or query.dtype != module.in_proj_weight.dtype \
            or query.dtype != module.in_proj_bias.dtype:
        return True
    if module.training or module.num_heads % 2 or not module.batch_first:
        return True
    if module.bias_k is not None or module.bias_v is not None or module.add_zero_attn:
        return True
    return torch.is_autocast_enabled()


def _records_grad(tensors) -> bool:
    """Whether autograd would record a computation on any of `tensors` (None skipped)."""
    return torch.is_grad_enabled() and any(t is not None and t.requires_grad for t in tensors)


class MultiheadAttention(Module):
    r"""Attention from a query sequence to a key/value sequence in several heads at once:
    :math:`\text{MultiHead}(Q, K, V) = \text{Concat}(head_1, \dots, head_h) W^O` with
    :math:`head_i = \text{softmax}(Q W_i^Q (K W_i^K)^T / \sqrt{d}) V W_i^V`.

    Args:
        embed_dim: the model size ``E`` (split evenly among the heads)
        num_heads: the number of parallel heads (must divide ``embed_dim``)
        dropout: dropout on the attention weights in training. Default: 0.0
        bias: learn biases for the input and output projections. Default: True
        add_bias_kv: learn a key and a value appended to every sequence. Default: False
        add_zero_attn: append an all-zero key and value. Default: False
        kdim: the size of the keys' features (default: ``embed_dim``)
        vdim: the size of the values' features (default: ``embed_dim``)
        batch_first: inputs and outputs are ``(N, L, E)`` instead of ``(L, N, E)``.
            Default: False
        device: the device of the parameters
        dtype: the dtype of the parameters

    Attributes:
        in_proj_weight: the stacked ``(3E, E)`` query/key/value projection (None when
            ``kdim`` or ``vdim`` differ from ``E``; then `q_proj_weight`,
            `k_proj_weight`, `v_proj_weight` hold them apart); xavier-uniform
        in_proj_bias: ``(3E,)``, zeros
        out_proj: the output projection, a Linear ``E -> E`` whose bias starts at zero

    Example::

        >>> attention = nn.MultiheadAttention(16, 4)
        >>> x = torch.randn(5, 2, 16)
        >>> out, weights = attention(x, x, x)
        >>> out.shape, weights.shape
        (torch.Size([5, 2, 16]), torch.Size([2, 5, 5]))
    """
    __constants__ = ["batch_first"]

    def __init__(self, embed_dim: int, num_heads: int, dropout: float = 0.0, bias: bool = True,
                 add_bias_kv: bool = False, add_zero_attn: bool = False, kdim: int | None = None,
                 vdim: int | None = None, batch_first: bool = False, device=None,
                 dtype=None) -> None:
        if embed_dim <= 0 or num_heads <= 0:
            raise ValueError(f"embed_dim and num_heads must be greater than 0, got "
                             f"embed_dim={embed_dim} and num_heads={num_heads} instead")
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.embed_dim = embed_dim
        self.kdim = kdim if kdim is not None else embed_dim
        self.vdim = vdim if vdim is not None else embed_dim
        self._qkv_same_embed_dim = self.kdim == embed_dim and self.vdim == embed_dim
        self.num_heads = num_heads
        self.dropout = dropout
        self.batch_first = batch_first
        self.head_dim = embed_dim // num_heads
        if self.head_dim * num_heads != self.embed_dim:
            raise AssertionError("embed_dim must be divisible by num_heads")
        self._make_projections(bias, factory)
        self.out_proj = NonDynamicallyQuantizableLinear(embed_dim, embed_dim, bias=bias,
                                                        **factory)
        if add_bias_kv:
            self.bias_k = Parameter(torch.empty((1, 1, embed_dim), **factory))
            self.bias_v = Parameter(torch.empty((1, 1, embed_dim), **factory))
        else:
            self.bias_k = self.bias_v = None
        self.add_zero_attn = add_zero_attn
        self._reset_parameters()

    def _make_projections(self, bias: bool, factory: dict) -> None:
        """The input projection's parameters, packed or (for other key/value sizes) apart."""
        size = self.embed_dim
        if self._qkv_same_embed_dim:
            self.in_proj_weight = Parameter(torch.empty((3 * size, size), **factory))
            for name in ("q_proj_weight", "k_proj_weight", "v_proj_weight"):
                self.register_parameter(name, None)
        else:
            self.q_proj_weight = Parameter(torch.empty((size, size), **factory))
            self.k_proj_weight = Parameter(torch.empty((size, self.kdim), **factory))
            self.v_proj_weight = Parameter(torch.empty((size, self.vdim), **factory))
            self.register_parameter("in_proj_weight", None)
        if bias:
            self.in_proj_bias = Parameter(torch.empty(3 * size, **factory))
        else:
            self.register_parameter("in_proj_bias", None)

    def _reset_parameters(self) -> None:
        if self._qkv_same_embed_dim:
            init.xavier_uniform_(self.in_proj_weight)
        else:
            for weight in (self.q_proj_weight, self.k_proj_weight, self.v_proj_weight):
                init.xavier_uniform_(weight)
        if self.in_proj_bias is not None:
            init.constant_(self.in_proj_bias, 0.0)
            init.constant_(self.out_proj.bias, 0.0)
        if self.bias_k is not None:
            init.xavier_normal_(self.bias_k)
        if self.bias_v is not None:
            init.xavier_normal_(self.bias_v)

    def __setstate__(self, state: dict) -> None:
        state.setdefault("_qkv_same_embed_dim", True)      # pickles older than kdim/vdim
        super().__setstate__(state)

    def forward(self, query, key, value, key_padding_mask=None, need_weights: bool = True,
                attn_mask=None, average_attn_weights: bool = True, is_causal: bool = False):
        """Attend from `query` to `key`/`value`; returns ``(output, weights)``, weights
        None when ``need_weights=False``. See `F.multi_head_attention_forward` for the
        masks' shapes."""
        float_masks = (attn_mask is not None and torch.is_floating_point(attn_mask)) or (
            key_padding_mask is not None and torch.is_floating_point(key_padding_mask))
        key_padding_mask = F._canonical_mask(key_padding_mask, "key_padding_mask",
                                             F._none_or_dtype(attn_mask), "attn_mask",
                                             query.dtype)
        attn_mask = F._canonical_mask(attn_mask, "attn_mask", None, "", query.dtype,
                                      check_other=False)
        if not float_masks and self._fast_path_applies(query, key, value):
            return self._fast_path_forward(query, attn_mask, key_padding_mask, need_weights,
                                           average_attn_weights)
        batched = query.dim() == 3
        if self.batch_first and batched:
            query, key, value = self._sequence_first(query, key, value)
        output, weights = self._attend(query, key, value, key_padding_mask, need_weights,
                                       attn_mask, average_attn_weights, is_causal)
        if self.batch_first and batched:
            return output.transpose(1, 0), weights
        return output, weights

    @staticmethod
    def _sequence_first(query, key, value) -> tuple:
        """The three transposed to ``(L, N, E)``, keeping which of them are the same
        tensor (the projection packs its matmuls by that)."""
        if key is value and query is key:
            query = key = value = query.transpose(1, 0)
        elif key is value:
            query, key = query.transpose(1, 0), key.transpose(1, 0)
            value = key
        else:
            query, key, value = (x.transpose(1, 0) for x in (query, key, value))
        return query, key, value

    def _attend(self, query, key, value, key_padding_mask, need_weights, attn_mask,
                average_attn_weights, is_causal) -> tuple:
        separate = {} if self._qkv_same_embed_dim else {
            "use_separate_proj_weight": True, "q_proj_weight": self.q_proj_weight,
            "k_proj_weight": self.k_proj_weight, "v_proj_weight": self.v_proj_weight}
        return F.multi_head_attention_forward(
            query, key, value, self.embed_dim, self.num_heads, self.in_proj_weight,
            self.in_proj_bias, self.bias_k, self.bias_v, self.add_zero_attn, self.dropout,
            self.out_proj.weight, self.out_proj.bias, training=self.training,
            key_padding_mask=key_padding_mask, need_weights=need_weights,
            attn_mask=attn_mask, average_attn_weights=average_attn_weights,
            is_causal=is_causal, **separate)

    def _fast_path_applies(self, query, key, value) -> bool:
        """torch's conditions for its inference fast path (Note [The inference fast
        path])."""
        if _fast_path_blocked(self, query, key, value):
            return False
        return not _records_grad((query, key, value, self.in_proj_weight, self.in_proj_bias,
                                  self.out_proj.weight, self.out_proj.bias))

    def _fast_path_forward(self, query, attn_mask, key_padding_mask, need_weights: bool,
                           average_attn_weights: bool = True) -> tuple:
        """The fast path's results for batch-first self-attention (Note [The inference
        fast path]): the with-weights route, no dropout, the causal hint unread."""
        x = query.transpose(1, 0)
        output, weights = F.multi_head_attention_forward(
            x, x, x, self.embed_dim, self.num_heads, self.in_proj_weight, self.in_proj_bias,
            None, None, False, 0.0, self.out_proj.weight, self.out_proj.bias, training=False,
            key_padding_mask=key_padding_mask, need_weights=True, attn_mask=attn_mask,
            average_attn_weights=average_attn_weights)
        return output.transpose(1, 0), weights if need_weights else None

    def merge_masks(self, attn_mask, key_padding_mask, query) -> tuple:
        """The attention and key padding masks (additive) combined for batch-first `query`
        ``(N, L, E)``: ``(merged mask or None, mask type)``, the type None (no mask), 1
        (padding only, ``(N, S)``) or 2 (``(N, heads, L, S)``)."""
        if attn_mask is None:
            return key_padding_mask, None if key_padding_mask is None else 1
        batch_size, seq_len, _ = query.shape
        if attn_mask.dim() == 3:
            merged = attn_mask.view(batch_size, -1, seq_len, seq_len)
        else:
            merged = attn_mask.view(1, 1, seq_len, seq_len).expand(batch_size, self.num_heads,
                                                                   -1, -1)
        if key_padding_mask is not None:
            merged = merged + key_padding_mask.view(batch_size, 1, 1, seq_len).expand(
                -1, self.num_heads, -1, -1)
        return merged, 2
