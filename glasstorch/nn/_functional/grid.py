"""torch.nn.functional.affine_grid and grid_sample: the positions of affine transforms,
and an image read at given positions (`aten/native/nn/grid_sampler.py`, Note [Grid
sampling in operators])."""
from __future__ import annotations

import warnings

import glasstorch as torch

__all__ = ["affine_grid", "grid_sample"]

_MODES = {"bilinear": 0, "nearest": 1, "bicubic": 2}
_PADDING_MODES = {"zeros": 0, "border": 1, "reflection": 2}


def _default_align_corners(align_corners: bool | None) -> bool:
    """None means False, with torch's warning about the change of default."""
    if align_corners is not None:
        return align_corners
    warnings.warn("Default grid_sample and affine_grid behavior has changed to "
                  "align_corners=False since 1.3.0. Please specify align_corners=True if the "
                  "old behavior is desired. See the documentation of grid_sample for "
                  "details.", stacklevel=3)
    return False


def affine_grid(theta: torch.Tensor, size: list, align_corners: bool | None = None
                ) -> torch.Tensor:
    """The sampling grid of a batch of affine transforms, for `grid_sample`.

    Args:
        theta (Tensor): ``(N, 2, 3)`` (2-D) or ``(N, 3, 4)`` (3-D) matrices mapping
            output positions to input positions, both in [-1, 1].
        size (torch.Size): the output's size, ``(N, C, H, W)`` or ``(N, C, D, H, W)``.
        align_corners (bool, optional): -1 and 1 are the corner pixels' centres (True)
            or their outer edges (False, the default; None warns).

    Returns:
        Tensor: ``(N, H, W, 2)`` or ``(N, D, H, W, 3)`` positions.

    Example::

        >>> F.affine_grid(torch.tensor([[[1., 0, 0], [0, 1, 0]]]), (1, 1, 1, 2), False)
        tensor([[[[-0.5000,  0.0000],
                  [ 0.5000,  0.0000]]]])
    """
    align_corners = _default_align_corners(align_corners)
    if not theta.is_floating_point():
        raise ValueError(f"Expected theta to have floating point type, but got {theta.dtype}")
    shapes = {4: (2, 3, "2D", "Nx2x3"), 5: (3, 4, "3D", "Nx3x4")}
    if len(size) not in shapes:
        raise NotImplementedError(f"affine_grid only supports 4D and 5D sizes, for 2D and 3D "
                                  f"affine transforms, respectively. Got size {size}.")
    rows, cols, kind, shape = shapes[len(size)]
    if theta.dim() != 3 or theta.shape[-2] != rows or theta.shape[-1] != cols:
        raise ValueError(f"Expected a batch of {kind} affine matrices of shape {shape} for "
                         f"size {size}. Got {theta.shape}.")
    if align_corners and min(size[2:]) == 1:
        warnings.warn("Since version 1.3.0, affine_grid behavior has changed for unit-size "
                      "grids when align_corners=True. This is not an intended use case of "
                      "affine_grid. See the documentation of affine_grid for details.",
                      stacklevel=2)
    elif min(size) <= 0:
        raise ValueError(f"Expected non-zero, positive output size. Got {size}")
    return torch.affine_grid_generator(theta, size, align_corners)


def grid_sample(input: torch.Tensor, grid: torch.Tensor, mode: str = "bilinear",
                padding_mode: str = "zeros", align_corners: bool | None = None
                ) -> torch.Tensor:
    """Read `input` at the positions of `grid`.

    Args:
        input (Tensor): ``(N, C, H, W)``, or ``(N, C, D, H, W)``.
        grid (Tensor): ``(N, Ho, Wo, 2)`` (x, y) positions in [-1, 1], or
            ``(N, Do, Ho, Wo, 3)`` (x, y, z) ones.
        mode (str): ``'bilinear'`` (trilinear for 5-D inputs), ``'nearest'`` or
            ``'bicubic'`` (4-D inputs only). Default: bilinear.
        padding_mode (str): what positions outside read: ``'zeros'``, ``'border'``
            (the nearest edge) or ``'reflection'``. Default: zeros.
        align_corners (bool, optional): as for `affine_grid` (None warns, means False).

    Returns:
        Tensor: ``(N, C, Ho, Wo)`` or ``(N, C, Do, Ho, Wo)``.

    Example::

        >>> F.grid_sample(torch.arange(4.).view(1, 1, 2, 2), torch.zeros(1, 1, 1, 2),
        ...               align_corners=False)
        tensor([[[[1.5000]]]])
    """
    if mode not in _MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected mode to be 'bilinear', "
                         f"'nearest' or 'bicubic', but got: '{mode}'")
    if padding_mode not in _PADDING_MODES:
        raise ValueError(f"nn.functional.grid_sample(): expected padding_mode to be 'zeros', "
                         f"'border', or 'reflection', but got: '{padding_mode}'")
    align_corners = _default_align_corners(align_corners)
    return torch.grid_sampler(input, grid, _MODES[mode], _PADDING_MODES[padding_mode],
                              align_corners)
