"""Which operators CPU autocast casts, and how: torch's AutocastCPU table, as data.

Each entry is an operator overload (``"conv1d.padding"``; a bare name is its default
overload) and its cast policy:

- ``LOWER``: run in the autocast dtype (bfloat16 by default): the matrix products and
  convolutions that gain speed from it. Every floating point tensor argument but a
  float64 one is cast.
- ``FP32``: run in float32: ops whose accuracy suffers in lower precision (losses,
  decompositions, FFTs, reductions of products). Lower precision arguments are widened.
- ``PROMOTE``: run in the widest floating dtype among the arguments: ops that join
  tensors (`cat`, `stack`), which must not narrow any of them.

The table names every operator torch's CPU autocast lists; glasstorch registers a kernel
for those it declares (`aten/autocast.py`), so an operator added later is cast as soon
as it is declared.
"""
from __future__ import annotations

LOWER = "lower_precision_fp"
FP32 = "fp32"
PROMOTE = "promote"

_LOWER_PRECISION_OPS = (
    "conv1d", "conv1d.padding", "conv2d", "conv2d.padding", "conv3d", "conv3d.padding",
    "bmm", "mm", "linalg_vecdot", "baddbmm", "addmm", "_addmm_activation", "addbmm",
    "linear", "_convolution.deprecated", "matmul", "conv_tbc", "mkldnn_rnn_layer",
    "conv_transpose1d", "conv_transpose2d.input", "conv_transpose3d.input", "prelu",
    "scaled_dot_product_attention", "_native_multi_head_attention")

_FP32_OPS = (
    "avg_pool3d", "binary_cross_entropy", "grid_sampler", "polar", "prod", "prod.dim_int",
    "prod.dim_Dimname", "quantile", "quantile.scalar", "nanquantile", "nanquantile.scalar",
    "stft", "stft.center", "cdist", "grid_sampler_2d", "_grid_sampler_2d_cpu_fallback",
    "grid_sampler_3d", "trace", "view_as_complex", "cholesky", "cholesky_inverse",
    "cholesky_solve", "inverse", "lu_solve", "orgqr", "ormqr", "pinverse", "max_pool3d",
    "max_unpool2d", "max_unpool3d", "adaptive_avg_pool3d", "reflection_pad1d",
    "reflection_pad2d", "replication_pad1d", "replication_pad2d", "replication_pad3d",
    "mse_loss", "cosine_embedding_loss", "nll_loss", "nll_loss2d", "hinge_embedding_loss",
    "poisson_nll_loss", "smooth_l1_loss", "cross_entropy_loss", "l1_loss", "huber_loss",
    "margin_ranking_loss", "soft_margin_loss", "triplet_margin_loss", "multi_margin_loss",
    "ctc_loss.IntList", "ctc_loss.Tensor", "kl_div", "multilabel_margin_loss",
    "binary_cross_entropy_with_logits", "fft_fft", "fft_ifft", "fft_fft2", "fft_ifft2",
    "fft_fftn", "fft_ifftn", "fft_rfft", "fft_irfft", "fft_rfft2", "fft_irfft2", "fft_rfftn",
    "fft_irfftn", "fft_hfft", "fft_ihfft", "linalg_cond", "linalg_cond.p_str",
    "linalg_matrix_rank", "linalg_matrix_rank.tol_tensor",
    "linalg_matrix_rank.atol_rtol_tensor", "linalg_matrix_rank.atol_rtol_float",
    "linalg_solve", "linalg_cholesky", "linalg_svdvals", "linalg_eigvals", "linalg_eigvalsh",
    "linalg_inv", "linalg_householder_product", "linalg_tensorinv", "linalg_tensorsolve",
    "fake_quantize_per_tensor_affine", "geqrf", "_lu_with_info", "qr", "svd",
    "triangular_solve", "fractional_max_pool2d", "fractional_max_pool3d",
    "adaptive_max_pool3d", "multilabel_margin_loss_forward", "linalg_qr",
    "linalg_cholesky_ex", "linalg_svd", "linalg_eig", "linalg_eigh", "linalg_lstsq",
    "linalg_inv_ex")

_PROMOTE_OPS = ("stack", "cat", "index_copy", "index_copy.dimname")

# overload name -> cast policy
CPU_POLICY = {**dict.fromkeys(_LOWER_PRECISION_OPS, LOWER), **dict.fromkeys(_FP32_OPS, FP32),
              **dict.fromkeys(_PROMOTE_OPS, PROMOTE)}
