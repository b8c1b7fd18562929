# Written by tools/stubs.py from the operator schemas and the namespace: do not edit.
from __future__ import annotations

import builtins
from typing import Any, Iterator, Sequence, overload

from glasstorch.c10.device import device as _device
from glasstorch.c10.dtype import dtype as _dtype
from glasstorch.c10.generator import Generator as _Generator
from glasstorch.c10.layout import layout as _layout, memory_format as _memory_format
from glasstorch.c10.dtype import dtype
from glasstorch import adaptive_avg_pool1d as adaptive_avg_pool1d
from glasstorch import avg_pool1d as avg_pool1d
from glasstorch import bilinear as bilinear
from glasstorch import celu_ as celu_
from glasstorch import channel_shuffle as channel_shuffle
from glasstorch import conv1d as conv1d
from glasstorch import conv2d as conv2d
from glasstorch import conv3d as conv3d
from glasstorch import conv_tbc as conv_tbc
from glasstorch import conv_transpose1d as conv_transpose1d
from glasstorch import conv_transpose2d as conv_transpose2d
from glasstorch import conv_transpose3d as conv_transpose3d
from glasstorch import cosine_similarity as cosine_similarity
from glasstorch import hardshrink as hardshrink
from glasstorch import native_channel_shuffle as native_channel_shuffle
from glasstorch import pairwise_distance as pairwise_distance
from glasstorch import pdist as pdist
from glasstorch import pixel_shuffle as pixel_shuffle
from glasstorch import pixel_unshuffle as pixel_unshuffle
from glasstorch import prelu as prelu
from glasstorch import relu_ as relu_
from glasstorch import rrelu_ as rrelu_
from glasstorch import selu_ as selu_
from glasstorch import threshold_ as threshold_
from glasstorch._tensor import Tensor
from glasstorch.nn._functional.activation import celu as celu
from glasstorch.nn._functional.activation import elu as elu
from glasstorch.nn._functional.activation import glu as glu
from glasstorch.nn._functional.activation import hardsigmoid as hardsigmoid
from glasstorch.nn._functional.activation import hardswish as hardswish
from glasstorch.nn._functional.activation import hardtanh as hardtanh
from glasstorch.nn._functional.activation import leaky_relu as leaky_relu
from glasstorch.nn._functional.activation import log_softmax as log_softmax
from glasstorch.nn._functional.activation import logsigmoid as logsigmoid
from glasstorch.nn._functional.activation import mish as mish
from glasstorch.nn._functional.activation import relu as relu
from glasstorch.nn._functional.activation import relu6 as relu6
from glasstorch.nn._functional.activation import rrelu as rrelu
from glasstorch.nn._functional.activation import selu as selu
from glasstorch.nn._functional.activation import sigmoid as sigmoid
from glasstorch.nn._functional.activation import silu as silu
from glasstorch.nn._functional.activation import softmax as softmax
from glasstorch.nn._functional.activation import softmin as softmin
from glasstorch.nn._functional.activation import softsign as softsign
from glasstorch.nn._functional.activation import tanh as tanh
from glasstorch.nn._functional.activation import tanhshrink as tanhshrink
from glasstorch.nn._functional.activation import threshold as threshold
from glasstorch.nn._functional.attention import multi_head_attention_forward as multi_head_attention_forward
from glasstorch.nn._functional.dropout import alpha_dropout as alpha_dropout
from glasstorch.nn._functional.dropout import dropout as dropout
from glasstorch.nn._functional.dropout import dropout1d as dropout1d
from glasstorch.nn._functional.dropout import dropout2d as dropout2d
from glasstorch.nn._functional.dropout import dropout3d as dropout3d
from glasstorch.nn._functional.dropout import feature_alpha_dropout as feature_alpha_dropout
from glasstorch.nn._functional.embedding_bag import embedding_bag as embedding_bag
from glasstorch.nn._functional.fold import fold as fold
from glasstorch.nn._functional.fold import unfold as unfold
from glasstorch.nn._functional.grid import affine_grid as affine_grid
from glasstorch.nn._functional.grid import grid_sample as grid_sample
from glasstorch.nn._functional.loss import binary_cross_entropy as binary_cross_entropy
from glasstorch.nn._functional.loss import binary_cross_entropy_with_logits as binary_cross_entropy_with_logits
from glasstorch.nn._functional.loss import cross_entropy as cross_entropy
from glasstorch.nn._functional.loss import huber_loss as huber_loss
from glasstorch.nn._functional.loss import kl_div as kl_div
from glasstorch.nn._functional.loss import l1_loss as l1_loss
from glasstorch.nn._functional.loss import mse_loss as mse_loss
from glasstorch.nn._functional.loss import nll_loss as nll_loss
from glasstorch.nn._functional.loss import smooth_l1_loss as smooth_l1_loss
from glasstorch.nn._functional.loss import soft_margin_loss as soft_margin_loss
from glasstorch.nn._functional.loss_linear import linear_cross_entropy as linear_cross_entropy
from glasstorch.nn._functional.loss_margin import cosine_embedding_loss as cosine_embedding_loss
from glasstorch.nn._functional.loss_margin import ctc_loss as ctc_loss
from glasstorch.nn._functional.loss_margin import gaussian_nll_loss as gaussian_nll_loss
from glasstorch.nn._functional.loss_margin import hinge_embedding_loss as hinge_embedding_loss
from glasstorch.nn._functional.loss_margin import margin_ranking_loss as margin_ranking_loss
from glasstorch.nn._functional.loss_margin import multi_margin_loss as multi_margin_loss
from glasstorch.nn._functional.loss_margin import multilabel_margin_loss as multilabel_margin_loss
from glasstorch.nn._functional.loss_margin import multilabel_soft_margin_loss as multilabel_soft_margin_loss
from glasstorch.nn._functional.loss_margin import poisson_nll_loss as poisson_nll_loss
from glasstorch.nn._functional.loss_margin import triplet_margin_loss as triplet_margin_loss
from glasstorch.nn._functional.loss_margin import triplet_margin_with_distance_loss as triplet_margin_with_distance_loss
from glasstorch.nn._functional.normalization import batch_norm as batch_norm
from glasstorch.nn._functional.normalization import group_norm as group_norm
from glasstorch.nn._functional.normalization import instance_norm as instance_norm
from glasstorch.nn._functional.normalization import layer_norm as layer_norm
from glasstorch.nn._functional.normalization import local_response_norm as local_response_norm
from glasstorch.nn._functional.normalization import normalize as normalize
from glasstorch.nn._functional.normalization import rms_norm as rms_norm
from glasstorch.nn._functional.pooling import adaptive_avg_pool2d as adaptive_avg_pool2d
from glasstorch.nn._functional.pooling import adaptive_avg_pool3d as adaptive_avg_pool3d
from glasstorch.nn._functional.pooling import adaptive_max_pool1d as adaptive_max_pool1d
from glasstorch.nn._functional.pooling import adaptive_max_pool1d_with_indices as adaptive_max_pool1d_with_indices
from glasstorch.nn._functional.pooling import adaptive_max_pool2d as adaptive_max_pool2d
from glasstorch.nn._functional.pooling import adaptive_max_pool2d_with_indices as adaptive_max_pool2d_with_indices
from glasstorch.nn._functional.pooling import adaptive_max_pool3d as adaptive_max_pool3d
from glasstorch.nn._functional.pooling import adaptive_max_pool3d_with_indices as adaptive_max_pool3d_with_indices
from glasstorch.nn._functional.pooling import fractional_max_pool2d as fractional_max_pool2d
from glasstorch.nn._functional.pooling import fractional_max_pool2d_with_indices as fractional_max_pool2d_with_indices
from glasstorch.nn._functional.pooling import fractional_max_pool3d as fractional_max_pool3d
from glasstorch.nn._functional.pooling import fractional_max_pool3d_with_indices as fractional_max_pool3d_with_indices
from glasstorch.nn._functional.pooling import lp_pool1d as lp_pool1d
from glasstorch.nn._functional.pooling import lp_pool2d as lp_pool2d
from glasstorch.nn._functional.pooling import lp_pool3d as lp_pool3d
from glasstorch.nn._functional.pooling import max_pool1d as max_pool1d
from glasstorch.nn._functional.pooling import max_pool1d_with_indices as max_pool1d_with_indices
from glasstorch.nn._functional.pooling import max_pool2d as max_pool2d
from glasstorch.nn._functional.pooling import max_pool2d_with_indices as max_pool2d_with_indices
from glasstorch.nn._functional.pooling import max_pool3d as max_pool3d
from glasstorch.nn._functional.pooling import max_pool3d_with_indices as max_pool3d_with_indices
from glasstorch.nn._functional.pooling import max_unpool1d as max_unpool1d
from glasstorch.nn._functional.pooling import max_unpool2d as max_unpool2d
from glasstorch.nn._functional.pooling import max_unpool3d as max_unpool3d
from glasstorch.nn._functional.resample import interpolate as interpolate
from glasstorch.nn._functional.resample import upsample as upsample
from glasstorch.nn._functional.resample import upsample_bilinear as upsample_bilinear
from glasstorch.nn._functional.resample import upsample_nearest as upsample_nearest
from glasstorch.nn._functional.sparse import embedding as embedding

_int = builtins.int
_float = builtins.float
_bool = builtins.bool
_complex = builtins.complex
_Number = _int | _float | _bool | _complex
_size = Sequence[_int]


def avg_pool2d(input: Tensor, kernel_size: _int | _size, stride: _int | _size = ..., padding: _int | _size = ..., ceil_mode: _bool = ..., count_include_pad: _bool = ..., divisor_override: _int | None = ...) -> Tensor: ...

def avg_pool3d(input: Tensor, kernel_size: _int | _size, stride: _int | _size = ..., padding: _int | _size = ..., ceil_mode: _bool = ..., count_include_pad: _bool = ..., divisor_override: _int | None = ...) -> Tensor: ...

def elu_(input: Tensor, alpha: _Number = ..., scale: _Number = ..., input_scale: _Number = ...) -> Tensor: ...

def gelu(input: Tensor, *, approximate: str = ..., out: Tensor | None = ...) -> Tensor: ...

def hardtanh_(input: Tensor, min_val: _Number = ..., max_val: _Number = ...) -> Tensor: ...

def leaky_relu_(input: Tensor, negative_slope: _Number = ...) -> Tensor: ...

def linear(input: Tensor, weight: Tensor, bias: Tensor | None = ..., *, out: Tensor | None = ...) -> Tensor: ...

def one_hot(input: Tensor, num_classes: _int = ...) -> Tensor: ...

def pad(input: Tensor, pad: _size, mode: str = ..., value: _float | None = ...) -> Tensor: ...

def scaled_dot_product_attention(query: Tensor, key: Tensor, value: Tensor, attn_mask: Tensor | None = ..., dropout_p: _float = ..., is_causal: _bool = ..., *, scale: _float | None = ..., enable_gqa: _bool = ...) -> Tensor: ...

def softplus(input: Tensor, beta: _Number = ..., threshold: _Number = ..., *, out: Tensor | None = ...) -> Tensor: ...

def softshrink(input: Tensor, lambd: _Number = ..., *, out: Tensor | None = ...) -> Tensor: ...
