"""torch.nn.functional's resampling: interpolate and its older spellings upsample,
upsample_nearest and upsample_bilinear.

interpolate picks the operator of `aten/native/nn/upsample.py` for the mode and the
input's rank (Note [Upsampling source positions]) and hands it the sizes or the scale
factors, as torch's Python function does; area mode is adaptive average pooling.
"""
from __future__ import annotations

import math
import warnings

import glasstorch as torch

from ...aten.binding import get_binding

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear"]

_OPERATORS = {("nearest", 3): "upsample_nearest1d", ("nearest", 4): "upsample_nearest2d",
              ("nearest", 5): "upsample_nearest3d",
              ("nearest-exact", 3): "_upsample_nearest_exact1d",
              ("nearest-exact", 4): "_upsample_nearest_exact2d",
              ("nearest-exact", 5): "_upsample_nearest_exact3d",
              ("linear", 3): "upsample_linear1d", ("bilinear", 4): "upsample_bilinear2d",
              ("trilinear", 5): "upsample_trilinear3d", ("bicubic", 4): "upsample_bicubic2d",
              ("lanczos", 4): "upsample_lanczos2d"}     # antialiased only
_RANKS = {"linear": 3, "bilinear": 4, "trilinear": 5}


def _sizes_and_factors(input, size, scale_factor, dim: int) -> tuple:
    """(output sizes or None, scale factors or None), with torch's checks."""
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    spatial = list(input.shape[2:])
    if size is not None:
        if not isinstance(size, (list, tuple)):
            return [size] * dim, None
        if len(size) != dim:
            raise ValueError(
                f"Input and output must have the same number of spatial dimensions, but got "
                f"input with spatial dimensions of {spatial} and output size of {size}. Please "
                f"provide input tensor in (N, C, d1, d2, ...,dK) format and output size in "
                f"(o1, o2, ...,oK) format.")
        if not all(isinstance(n, int) for n in size):
            raise TypeError(f"expected size to be one of int or Tuple[int] or Tuple[int, int] "
                            f"or Tuple[int, int, int], but got size with types "
                            f"{[type(n) for n in size]}")
        return list(size), None
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if not isinstance(scale_factor, (list, tuple)):
        return None, [scale_factor] * dim
    if len(scale_factor) != dim:
        raise ValueError(
            f"Input and scale_factor must have the same number of spatial dimensions, but got "
            f"input with spatial dimensions of {spatial} and scale_factor of shape "
            f"{scale_factor}. Please provide input tensor in (N, C, d1, d2, ...,dK) format and "
            f"scale_factor in (s1, s2, ...,sK) format.")
    return None, list(scale_factor)


def interpolate(input: torch.Tensor, size=None, scale_factor=None, mode: str = "nearest",
                align_corners: bool | None = None, recompute_scale_factor: bool | None = None,
                antialias: bool = False) -> torch.Tensor:
    """Resize the spatial dims (all but the first two) of `input`.

    Args:
        input (Tensor): ``(N, C, *spatial)`` with 1 to 3 spatial dims.
        size (int or tuple of ints, optional): the output's spatial sizes.
        scale_factor (float or tuple of floats, optional): multiplies the spatial sizes
            (rounded down); give exactly one of `size` and `scale_factor`.
        mode (str): ``'nearest'``, ``'nearest-exact'``, ``'linear'`` (3-D input),
            ``'bilinear'``, ``'bicubic'`` (4-D), ``'trilinear'`` (5-D), ``'lanczos'``
            (4-D, Lanczos-3, with ``antialias=True`` only) or ``'area'``.
            Default: ``'nearest'``.
        align_corners (bool, optional): interpolating modes only: map the corner
            pixels' centres onto each other (True) or their outer edges (False, the
            default).
        recompute_scale_factor (bool, optional): compute the positions from the
            rounded output size rather than from `scale_factor`.
        antialias (bool): bilinear, bicubic and lanczos modes: widen the filter when
            shrinking, so that every input pixel contributes (as image libraries resize).
            Default: False.

    Returns:
        Tensor: ``(N, C, *size)``.

    Example::

        >>> F.interpolate(torch.tensor([[[1., 2.]]]), scale_factor=2)
        tensor([[[1., 1., 2., 2.]]])
    """
    if mode in ("nearest", "area", "nearest-exact"):
        if align_corners is not None:
            raise ValueError("align_corners option can only be set with the interpolating "
                             "modes: linear | bilinear | bicubic | trilinear")
    elif align_corners is None:
        align_corners = False
    dim = input.dim() - 2
    output_size, factors = _sizes_and_factors(input, size, scale_factor, dim)
    if recompute_scale_factor and size is not None:
        raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
    if recompute_scale_factor or (mode == "area" and output_size is None):
        output_size = [math.floor(input.shape[2 + i] * factors[i]) for i in range(dim)]
        factors = None
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.dim() == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos "
                         "modes and requires a 4-D tensor as input")
    if mode == "area" and 3 <= input.dim() <= 5:
        return getattr(torch.nn.functional, f"adaptive_avg_pool{dim}d")(input, output_size)
    if mode == "lanczos" and input.dim() == 4:
        _refuse_lanczos(align_corners, antialias)
    operator = _OPERATORS.get((mode, input.dim()))
    if operator is not None and antialias:
        operator = f"_{operator}_aa"
    if operator is not None:
        extra = () if mode.startswith("nearest") else (align_corners,)
        return get_binding("nn", operator)(input, output_size, *extra, factors)
    if mode in _RANKS and 3 <= input.dim() <= 5:
        raise NotImplementedError(f"Got {input.dim()}D input, but {mode} mode needs "
                                  f"{_RANKS[mode]}D input")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported "
                              f"(got {input.dim()}D) for the modes: nearest | linear | "
                              f"bilinear | bicubic | trilinear | lanczos | area | "
                              f"nearest-exact (got {mode})")


def _refuse_lanczos(align_corners: bool, antialias: bool) -> None:
    """Lanczos resampling is only the antialiased kind, without corner alignment."""
    if align_corners:
        raise ValueError("Lanczos mode does not support align_corners=True")
    if not antialias:
        raise ValueError("Lanczos mode requires antialias=True")


def upsample(input: torch.Tensor, size=None, scale_factor=None, mode: str = "nearest",
             align_corners: bool | None = None) -> torch.Tensor:
    """Deprecated spelling of `interpolate` (warns).

    Example::

        >>> F.upsample(torch.tensor([[[1., 2.]]]), size=3)
        tensor([[[1., 1., 2.]]])
    """
    warnings.warn("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` "
                  "instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input: torch.Tensor, size=None, scale_factor=None) -> torch.Tensor:
    """Deprecated: ``interpolate(input, size, scale_factor, mode='nearest')`` (warns).

    Example::

        >>> F.upsample_nearest(torch.tensor([[[1., 2.]]]), scale_factor=2)
        tensor([[[1., 1., 2., 2.]]])
    """
    warnings.warn("`nn.functional.upsample_nearest` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input: torch.Tensor, size=None, scale_factor=None) -> torch.Tensor:
    """Deprecated: bilinear `interpolate` with ``align_corners=True`` (warns).

    Example::

        >>> F.upsample_bilinear(torch.ones(1, 1, 2, 2), size=3).shape
        torch.Size([1, 1, 3, 3])
    """
    warnings.warn("`nn.functional.upsample_bilinear` is deprecated. Use "
                  "`nn.functional.interpolate` instead.", stacklevel=2)
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
