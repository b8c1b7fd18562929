"""The Transformer of "Attention Is All You Need": encoder and decoder layers
(self-attention, cross-attention, a feed-forward block, each with a residual connection
and LayerNorm, after or before: `norm_first`), their stacks, and the whole model.

A stack holds deep copies of the layer it is given, so every layer starts from the same
weights (as torch's); `Transformer` then redraws every matrix xavier-uniform.

Note [TransformerEncoder's nested route]
    In eval mode, with no gradient to record and a left-aligned `src_key_padding_mask`,
    torch's TransformerEncoder packs the batch into a nested tensor (each sequence
    without its padding), runs the layers on it, and pads the result with zeros. Only
    the padded positions change: they come out 0 (then through the final norm), where
    the masked computation leaves values in them. glasstorch has no nested tensors: it
    runs the masked computation and zeroes the padded positions, under torch's
    conditions (`TransformerEncoder._nested_route_applies`). A sequence keeps as many
    leading positions as its mask leaves unmasked: with ``mask_check=False`` torch packs
    a mask that is not left-aligned so too (`_packed_padding`).
"""
from __future__ import annotations

import copy
import warnings
from typing import Any, Callable

import glasstorch as torch
from .. import functional as F
from .. import init
from .activation import GELU, ReLU
from .activation_attention import MultiheadAttention, _records_grad
from .container import ModuleList
from .dropout import Dropout
from .linear import Linear
from .module import Module
from .normalization import LayerNorm

__all__ = ["Transformer", "TransformerEncoder", "TransformerDecoder",
           "TransformerEncoderLayer", "TransformerDecoderLayer"]


def _generate_square_subsequent_mask(sz: int, device=None, dtype=None):
    """The ``(sz, sz)`` causal mask: -inf above the diagonal (a position may not attend to
    later ones), 0 elsewhere."""
    return torch.triu(torch.full((sz, sz), float("-inf"), dtype=dtype, device=device),
                      diagonal=1)


def _get_seq_len(src, batch_first: bool) -> int | None:
    """The sequence length of ``(S, E)``, ``(S, N, E)`` or (batch first) ``(N, S, E)``."""
    if src.is_nested:
        return None
    if src.dim() == 2:
        return src.size(0)
    return src.size(1 if batch_first else 0)


def _detect_is_causal_mask(mask, is_causal: bool | None = None,
                           size: int | None = None) -> bool:
    """`is_causal` when given; otherwise whether `mask` is the causal mask of `size` (or
    of its own size) in its dtype."""
    if is_causal is not None or mask is None:
        return is_causal is True
    causal = _generate_square_subsequent_mask(size if size is not None else mask.size(-2),
                                              device=mask.device, dtype=mask.dtype)
    return mask.size() == causal.size() and bool((mask == causal).all())


def _get_clones(module: Module, n: int) -> ModuleList:
    return ModuleList([copy.deepcopy(module) for _ in range(n)])


def _get_activation_fn(activation: str) -> Callable:
    if activation == "relu":
        return F.relu
    if activation == "gelu":
        return F.gelu
    raise RuntimeError(f"activation should be relu/gelu, not {activation}")


def _activation_code(activation) -> int:
    """torch's `activation_relu_or_gelu`: 1 for ReLU, 2 for GELU, 0 for anything else."""
    if activation is F.relu or isinstance(activation, ReLU):
        return 1
    if activation is F.gelu or isinstance(activation, GELU):
        return 2
    return 0


def _canonical_pair(key_padding_mask, mask, names: tuple, dtype) -> tuple:
    """Both masks additive (see `F._canonical_mask`); `names` are the padding mask's and
    the other mask's argument names, for the mismatch warning."""
    key_padding_mask = F._canonical_mask(key_padding_mask, names[0], F._none_or_dtype(mask),
                                         names[1], dtype)
    mask = F._canonical_mask(mask, names[1], None, "", dtype, check_other=False)
    return key_padding_mask, mask


def _has_hooks(module: Module) -> bool:
    return any(len(getattr(m, "_forward_hooks", {})) + len(getattr(m, "_forward_pre_hooks", {}))
               for m in module.modules())


class TransformerEncoderLayer(Module):
    r"""One encoder layer: self-attention, then a feed-forward block
    ``linear2(dropout(activation(linear1(x))))``, each added back to its input and
    normalised (after the addition, or before the block with ``norm_first=True``).

    Args:
        d_model: the model size ``E``
        nhead: the number of attention heads
        dim_feedforward: the feed-forward block's hidden size. Default: 2048
        dropout: the dropout probability everywhere in the layer. Default: 0.1
        activation: "relu", "gelu" or a callable. Default: relu
        layer_norm_eps: the LayerNorms' eps. Default: 1e-5
        batch_first: inputs are ``(N, S, E)`` instead of ``(S, N, E)``. Default: False
        norm_first: normalise before each block instead of after. Default: False
        bias: learn biases in the linear and LayerNorm layers. Default: True
        device: the device of the parameters
        dtype: the dtype of the parameters

    Example::

        >>> layer = nn.TransformerEncoderLayer(d_model=16, nhead=4)
        >>> layer(torch.rand(10, 32, 16)).shape
        torch.Size([10, 32, 16])
    """
    __constants__ = ["norm_first"]

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable = F.relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout, bias=bias,
                                            batch_first=batch_first, **factory)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        if isinstance(activation, str):
            activation = _get_activation_fn(activation)
        self.activation_relu_or_gelu = _activation_code(activation)
        self.activation = activation

    def __setstate__(self, state: dict) -> None:
        super().__setstate__(state)
        if not hasattr(self, "activation"):
            self.activation = F.relu

    def forward(self, src, src_mask=None, src_key_padding_mask=None, is_causal: bool = False):
        """Pass `src` through the layer. `src_mask` ``(S, S)`` or ``(N * nhead, S, S)``
        and `src_key_padding_mask` ``(N, S)`` are bool (True: masked) or float (added);
        `is_causal` hints that `src_mask` is the causal mask."""
        src_key_padding_mask, src_mask = _canonical_pair(
            src_key_padding_mask, src_mask, ("src_key_padding_mask", "src_mask"), src.dtype)
        fast = self._fast_path_applies(src)
        x = src
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), src_mask, src_key_padding_mask, is_causal,
                                   fast)
            return x + self._ff_block(self.norm2(x))
        x = self.norm1(x + self._sa_block(x, src_mask, src_key_padding_mask, is_causal, fast))
        return self.norm2(x + self._ff_block(x))

    def _fast_path_applies(self, src) -> bool:
        """torch's conditions for its fused encoder-layer kernel, whose attention is the
        MultiheadAttention fast path's (Note [The inference fast path])."""
        attention = self.self_attn
        if not torch.backends.mha.get_fastpath_enabled() or src.dim() != 3 or self.training:
            return False
        if not attention.batch_first or attention.in_proj_bias is None \
                or not attention._qkv_same_embed_dim:
            return False
        if not self.activation_relu_or_gelu or self.norm1.eps != self.norm2.eps:
            return False
        if attention.num_heads % 2 or torch.is_autocast_enabled() or _has_hooks(self):
            return False
        return not _records_grad((src, attention.in_proj_weight, attention.in_proj_bias,
                                  attention.out_proj.weight, attention.out_proj.bias,
                                  self.norm1.weight, self.norm1.bias, self.norm2.weight,
                                  self.norm2.bias, self.linear1.weight, self.linear1.bias,
                                  self.linear2.weight, self.linear2.bias))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal: bool = False,
                  fast: bool = False):
        if fast:
            x = self.self_attn._fast_path_forward(x, attn_mask, key_padding_mask, False)[0]
        else:
            x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                               need_weights=False, is_causal=is_causal)[0]
        return self.dropout1(x)

    def _ff_block(self, x):
        return self.dropout2(self.linear2(self.dropout(self.activation(self.linear1(x)))))


class TransformerDecoderLayer(Module):
    r"""One decoder layer: self-attention over the target, attention from the target to
    the encoder's output (`memory`), then a feed-forward block; each added back to its
    input and normalised (after, or before the block with ``norm_first=True``).

    Args:
        d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps, batch_first,
        norm_first, bias, device, dtype: as :class:`TransformerEncoderLayer`'s

    Example::

        >>> layer = nn.TransformerDecoderLayer(d_model=16, nhead=4)
        >>> memory, tgt = torch.rand(10, 32, 16), torch.rand(20, 32, 16)
        >>> layer(tgt, memory).shape
        torch.Size([20, 32, 16])
    """
    __constants__ = ["norm_first"]

    def __init__(self, d_model: int, nhead: int, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable = F.relu,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        self.self_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                            batch_first=batch_first, bias=bias, **factory)
        self.multihead_attn = MultiheadAttention(d_model, nhead, dropout=dropout,
                                                 batch_first=batch_first, bias=bias, **factory)
        self.linear1 = Linear(d_model, dim_feedforward, bias=bias, **factory)
        self.dropout = Dropout(dropout)
        self.linear2 = Linear(dim_feedforward, d_model, bias=bias, **factory)
        self.norm_first = norm_first
        self.norm1 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm2 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.norm3 = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
        self.dropout1 = Dropout(dropout)
        self.dropout2 = Dropout(dropout)
        self.dropout3 = Dropout(dropout)
        self.activation = _get_activation_fn(activation) if isinstance(activation, str) \
            else activation

    def __setstate__(self, state: dict) -> None:
        state.setdefault("activation", F.relu)
        super().__setstate__(state)

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal: bool = False,
                memory_is_causal: bool = False):
        """Pass `tgt` through the layer, attending to `memory`. The masks are as
        :meth:`TransformerEncoderLayer.forward`'s: `tgt_mask` ``(T, T)``, `memory_mask`
        ``(T, S)``, the padding masks ``(N, T)`` and ``(N, S)``."""
        x = tgt
        if self.norm_first:
            x = x + self._sa_block(self.norm1(x), tgt_mask, tgt_key_padding_mask,
                                   tgt_is_causal)
            x = x + self._mha_block(self.norm2(x), memory, memory_mask,
                                    memory_key_padding_mask, memory_is_causal)
            return x + self._ff_block(self.norm3(x))
        x = self.norm1(x + self._sa_block(x, tgt_mask, tgt_key_padding_mask, tgt_is_causal))
        x = self.norm2(x + self._mha_block(x, memory, memory_mask, memory_key_padding_mask,
                                           memory_is_causal))
        return self.norm3(x + self._ff_block(x))

    def _sa_block(self, x, attn_mask, key_padding_mask, is_causal: bool = False):
        x = self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                           is_causal=is_causal, need_weights=False)[0]
        return self.dropout1(x)

    def _mha_block(self, x, mem, attn_mask, key_padding_mask, is_causal: bool = False):
        x = self.multihead_attn(x, mem, mem, attn_mask=attn_mask,
                                key_padding_mask=key_padding_mask, is_causal=is_causal,
                                need_weights=False)[0]
        return self.dropout2(x)

    def _ff_block(self, x):
        return self.dropout3(self.linear2(self.dropout(self.activation(self.linear1(x)))))


def _why_not_nested(layer) -> str:
    """Why TransformerEncoder cannot take its nested route with copies of `layer` ("" when
    it can), in torch's words."""
    name = "encoder_layer"
    if not isinstance(layer, TransformerEncoderLayer):
        return f"{name} was not TransformerEncoderLayer"
    if layer.norm_first:
        return f"{name}.norm_first was True"
    if not layer.self_attn.batch_first:
        return (f"{name}.self_attn.batch_first was not True(use batch_first for better "
                "inference performance)")
    if not layer.self_attn._qkv_same_embed_dim:
        return f"{name}.self_attn._qkv_same_embed_dim was not True"
    if layer.self_attn.in_proj_bias is None:
        return f"{name}.self_attn was passed bias=False"
    if not layer.activation_relu_or_gelu:
        return f"{name}.activation_relu_or_gelu was not True"
    if layer.norm1.eps != layer.norm2.eps:
        return f"{name}.norm1.eps was not equal to {name}.norm2.eps"
    if layer.self_attn.num_heads % 2 == 1:
        return f"{name}.self_attn.num_heads is odd"
    return ""


def _packed_padding(key_padding_mask):
    """The padding a nested tensor built from `key_padding_mask` has: each sequence keeps
    as many leading positions as the mask leaves unmasked (the mask's layout unread, as
    torch's packing with ``mask_check=False``), as an additive mask."""
    kept = key_padding_mask.logical_not().sum(dim=1, keepdim=True)
    positions = torch.arange(key_padding_mask.size(1), device=key_padding_mask.device)
    return torch.zeros_like(key_padding_mask).masked_fill(positions >= kept, float("-inf"))


def _left_aligned(valid) -> bool:
    """Whether every row of the bool `valid` is a run of True then a run of False."""
    steps = valid.to(torch.int8)
    return bool((steps[:, 1:] <= steps[:, :-1]).all())


class TransformerEncoder(Module):
    r"""A stack of `num_layers` copies of `encoder_layer`, then an optional `norm`.

    Args:
        encoder_layer: the layer to copy (a :class:`TransformerEncoderLayer`)
        num_layers: the number of copies
        norm: a module applied to the last layer's output (optional)
        enable_nested_tensor: allow the inference route that skips the padding
            (Note [TransformerEncoder's nested route]). Default: True
        mask_check: take that route only for left-aligned padding. Default: True

    Example::

        >>> layer = nn.TransformerEncoderLayer(d_model=16, nhead=4)
        >>> encoder = nn.TransformerEncoder(layer, num_layers=2)
        >>> encoder(torch.rand(10, 32, 16)).shape
        torch.Size([10, 32, 16])
    """
    __constants__ = ["norm"]

    def __init__(self, encoder_layer: Module, num_layers: int, norm: Module | None = None,
                 enable_nested_tensor: bool = True, mask_check: bool = True) -> None:
        super().__init__()
        self.layers = _get_clones(encoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm
        self.enable_nested_tensor = enable_nested_tensor
        self.use_nested_tensor = enable_nested_tensor
        self.mask_check = mask_check
        why_not = _why_not_nested(encoder_layer)
        if enable_nested_tensor and why_not:
            warnings.warn(f"enable_nested_tensor is True, but self.use_nested_tensor is False "
                          f"because {why_not}", stacklevel=2)
            self.use_nested_tensor = False

    def forward(self, src, mask=None, src_key_padding_mask=None, is_causal: bool | None = None):
        """Pass `src` through the layers in turn (masks as
        :meth:`TransformerEncoderLayer.forward`'s; `is_causal` None: detect whether
        `mask` is the causal mask)."""
        src_key_padding_mask, mask = _canonical_pair(
            src_key_padding_mask, mask, ("src_key_padding_mask", "mask"), src.dtype)
        nested = self._nested_route_applies(src, mask, src_key_padding_mask)
        if nested:
            src_key_padding_mask = _packed_padding(src_key_padding_mask)
        batch_first = self.layers[0].self_attn.batch_first
        is_causal = _detect_is_causal_mask(mask, is_causal, _get_seq_len(src, batch_first))
        output = src
        for layer in self.layers:
            output = layer(output, src_mask=mask, is_causal=is_causal,
                           src_key_padding_mask=src_key_padding_mask)
        if nested:
            output = output.masked_fill((src_key_padding_mask != 0).unsqueeze(-1), 0.0)
        return output if self.norm is None else self.norm(output)

    def _nested_route_applies(self, src, mask, src_key_padding_mask) -> bool:
        """torch's conditions for its nested-tensor route (Note [TransformerEncoder's
        nested route])."""
        first = self.layers[0]
        if not torch.backends.mha.get_fastpath_enabled() or \
                not getattr(self, "use_nested_tensor", False):
            return False
        if first.training or src.dim() != 3 or src_key_padding_mask is None:
            return False
        if getattr(self, "mask_check", True) and \
                not _left_aligned(src_key_padding_mask.logical_not()):
            return False
        if src.is_nested or mask is not None or torch.is_autocast_enabled():
            return False
        attention = first.self_attn
        return not _records_grad((src, attention.in_proj_weight, attention.in_proj_bias,
                                  attention.out_proj.weight, attention.out_proj.bias,
                                  first.norm1.weight, first.norm1.bias, first.norm2.weight,
                                  first.norm2.bias, first.linear1.weight, first.linear1.bias,
                                  first.linear2.weight, first.linear2.bias))


class TransformerDecoder(Module):
    r"""A stack of `num_layers` copies of `decoder_layer`, then an optional `norm`.

    Args:
        decoder_layer: the layer to copy (a :class:`TransformerDecoderLayer`)
        num_layers: the number of copies
        norm: a module applied to the last layer's output (optional)

    Example::

        >>> layer = nn.TransformerDecoderLayer(d_model=16, nhead=4)
        >>> decoder = nn.TransformerDecoder(layer, num_layers=2)
        >>> decoder(torch.rand(20, 32, 16), torch.rand(10, 32, 16)).shape
        torch.Size([20, 32, 16])
    """
    __constants__ = ["norm"]

    def __init__(self, decoder_layer: Module, num_layers: int,
                 norm: Module | None = None) -> None:
        super().__init__()
        self.layers = _get_clones(decoder_layer, num_layers)
        self.num_layers = num_layers
        self.norm = norm

    def forward(self, tgt, memory, tgt_mask=None, memory_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, tgt_is_causal: bool | None = None,
                memory_is_causal: bool = False):
        """Pass `tgt` through the layers in turn, each attending to `memory` (masks as
        :meth:`TransformerDecoderLayer.forward`'s; `tgt_is_causal` None: detect)."""
        seq_len = _get_seq_len(tgt, self.layers[0].self_attn.batch_first)
        tgt_is_causal = _detect_is_causal_mask(tgt_mask, tgt_is_causal, seq_len)
        output = tgt
        for layer in self.layers:
            output = layer(output, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                           tgt_key_padding_mask=tgt_key_padding_mask,
                           memory_key_padding_mask=memory_key_padding_mask,
                           tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)
        return output if self.norm is None else self.norm(output)


class Transformer(Module):
    r"""The encoder-decoder Transformer: ``decoder(tgt, encoder(src))``, each a stack of
    layers ending in a LayerNorm. Every parameter matrix is drawn xavier-uniform.

    Args:
        d_model: the model size. Default: 512
        nhead: the number of attention heads. Default: 8
        num_encoder_layers: Default: 6
        num_decoder_layers: Default: 6
        dim_feedforward: the feed-forward blocks' hidden size. Default: 2048
        dropout: Default: 0.1
        activation: "relu", "gelu" or a callable. Default: relu
        custom_encoder: a module used instead of the encoder stack (optional)
        custom_decoder: a module used instead of the decoder stack (optional)
        layer_norm_eps: Default: 1e-5
        batch_first: inputs are ``(N, S, E)`` instead of ``(S, N, E)``. Default: False
        norm_first: normalise before each block instead of after. Default: False
        bias: learn biases in the linear and LayerNorm layers. Default: True
        device: the device of the parameters
        dtype: the dtype of the parameters

    Example::

        >>> model = nn.Transformer(d_model=16, nhead=4, num_encoder_layers=2,
        ...                        num_decoder_layers=2, dim_feedforward=32)
        >>> model(torch.rand(10, 32, 16), torch.rand(20, 32, 16)).shape
        torch.Size([20, 32, 16])
    """

    def __init__(self, d_model: int = 512, nhead: int = 8, num_encoder_layers: int = 6,
                 num_decoder_layers: int = 6, dim_feedforward: int = 2048,
                 dropout: float = 0.1, activation: str | Callable = F.relu,
                 custom_encoder: Any | None = None, custom_decoder: Any | None = None,
                 layer_norm_eps: float = 1e-5, batch_first: bool = False,
                 norm_first: bool = False, bias: bool = True, device=None, dtype=None) -> None:
        factory = {"device": device, "dtype": dtype}
        super().__init__()
        layer_args = (d_model, nhead, dim_feedforward, dropout, activation, layer_norm_eps,
                      batch_first, norm_first, bias)
        if custom_encoder is not None:
            self.encoder = custom_encoder
        else:
            layer = TransformerEncoderLayer(*layer_args, **factory)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.encoder = TransformerEncoder(layer, num_encoder_layers, norm)
        if custom_decoder is not None:
            self.decoder = custom_decoder
        else:
            layer = TransformerDecoderLayer(*layer_args, **factory)
            norm = LayerNorm(d_model, eps=layer_norm_eps, bias=bias, **factory)
            self.decoder = TransformerDecoder(layer, num_decoder_layers, norm)
        self._reset_parameters()
        self.d_model = d_model
        self.nhead = nhead
        self.batch_first = batch_first

    def forward(self, src, tgt, src_mask=None, tgt_mask=None, memory_mask=None,
                src_key_padding_mask=None, tgt_key_padding_mask=None,
                memory_key_padding_mask=None, src_is_causal: bool | None = None,
                tgt_is_causal: bool | None = None, memory_is_causal: bool = False):
        """Encode `src` ``(S, N, E)`` and decode `tgt` ``(T, N, E)`` against it (batch
        first: ``(N, S, E)``, ``(N, T, E)``); returns ``(T, N, E)``. The masks are the
        layers' (`src_mask` ``(S, S)``, `tgt_mask` ``(T, T)``, `memory_mask` ``(T, S)``,
        the padding masks ``(N, S)``, ``(N, T)``, ``(N, S)``)."""
        batch_dim = 0 if self.batch_first else 1
        if src.dim() == 3 and src.size(batch_dim) != tgt.size(batch_dim):
            raise RuntimeError("the batch number of src and tgt must be equal")
        if src.size(-1) != self.d_model or tgt.size(-1) != self.d_model:
            raise RuntimeError("the feature number of src and tgt must be equal to d_model")
        memory = self.encoder(src, mask=src_mask, src_key_padding_mask=src_key_padding_mask,
                              is_causal=src_is_causal)
        return self.decoder(tgt, memory, tgt_mask=tgt_mask, memory_mask=memory_mask,
                            tgt_key_padding_mask=tgt_key_padding_mask,
                            memory_key_padding_mask=memory_key_padding_mask,
                            tgt_is_causal=tgt_is_causal, memory_is_causal=memory_is_causal)

    @staticmethod
    def generate_square_subsequent_mask(sz: int, device=None, dtype=None):
        """The ``(sz, sz)`` causal mask: -inf above the diagonal, 0 elsewhere.

        Example::

            >>> nn.Transformer.generate_square_subsequent_mask(3)
            tensor([[0., -inf, -inf],
                    [0., 0., -inf],
                    [0., 0., 0.]])
        """
        return _generate_square_subsequent_mask(sz, dtype=dtype, device=device)

    def _reset_parameters(self) -> None:
        for p in self.parameters():
            if p.dim() > 1:
                init.xavier_uniform_(p)
