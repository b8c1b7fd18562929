"""Sampling at given positions: affine_grid_generator (the positions of an affine
transform) and grid_sampler_2d / grid_sampler (an image read at them).

Note [Grid sampling in operators]
    A grid holds, per output pixel, an (x, y) position in [-1, 1] across the input
    (the corners' centres with align_corners, their outer edges without). The kernel
    maps it to pixel units, applies the padding mode to the coordinate (border clamps
    it, reflection folds it back inside), and reads the neighbours: one for nearest
    (rounded half to even), four for bilinear, sixteen for bicubic (where the padding
    mode applies to each neighbour's coordinate instead); neighbours outside the image
    read zero. Everything is written in tensor operators (gather for the reads), so
    the gradients reach both the input and the grid, as torch's do, and meta tensors
    get shapes.
"""
from __future__ import annotations

from ....c10.dtype import scalar_type_name
from ... import functions as at
from ...meta.shape import holds_data
from ...registry import composite
from .pixel_shuffle import fresh

_CUBIC_A = -0.75
_BILINEAR, _NEAREST, _BICUBIC = 0, 1, 2
_ZEROS, _BORDER, _REFLECTION = 0, 1, 2


def _base_coordinates(theta, steps: int, align_corners: bool):
    """``steps`` positions spread over [-1, 1] (pixel centres unless align_corners)."""
    if steps <= 1:
        return theta.new_zeros((steps,))
    positions = at.linspace(-1, 1, steps, dtype=theta.dtype, device=theta.device)
    return positions if align_corners else positions * ((steps - 1) / steps)


@composite("affine_grid_generator(Tensor theta, SymInt[] size, bool align_corners) -> Tensor")
def affine_grid_generator(theta, size, align_corners):
    """The sampling grid of the affine transforms `theta` (``(N, 2, 3)`` or
    ``(N, 3, 4)``) for an output of `size` ``(N, C, H, W)`` or ``(N, C, D, H, W)``:
    ``(N, H, W, 2)`` or ``(N, D, H, W, 3)`` positions.

    Example::

        >>> torch.affine_grid_generator(torch.tensor([[[1., 0, 0], [0, 1, 0]]]),
        ...                             [1, 1, 1, 2], False)
        tensor([[[[-0.5000,  0.0000],
                  [ 0.5000,  0.0000]]]])
    """
    n, spatial = size[0], list(size[2:])
    axes = [_base_coordinates(theta, steps, align_corners) for steps in reversed(spatial)]
    grids = _meshgrid(axes, spatial)
    ones = grids[0].new_ones(grids[0].shape)
    base = at.stack(grids + [ones], -1).expand(n, *spatial, len(spatial) + 1)
    flat = base.reshape(n, -1, len(spatial) + 1)
    return fresh(flat.bmm(theta.transpose(1, 2)).reshape(n, *spatial, len(spatial)))


def _meshgrid(axes: list, spatial: list) -> list:
    """Each axis (x first) broadcast over the spatial shape (outermost dim first)."""
    k = len(spatial)
    grids = []
    for i, axis in enumerate(axes):
        dim = k - 1 - i
        shape = [1] * k
        shape[dim] = spatial[dim]
        grids.append(axis.reshape(shape).expand(*spatial))
    return grids


# ----------------------------------------------------------------------------------
# grid_sampler_2d
# ----------------------------------------------------------------------------------
def _unnormalize(coordinate, size: int, align_corners: bool):
    """[-1, 1] to pixel units: corner centres at -1 and 1, or corner edges."""
    if align_corners:
        return (coordinate + 1) * ((size - 1) / 2)
    return (coordinate + 1) * (size / 2) - 0.5


def _reflect(coordinate, twice_low: int, twice_high: int):
    """Fold `coordinate` back into [low, high] by reflecting at the edges (repeatedly)."""
    if twice_low == twice_high:
        return coordinate * 0
    low, span = twice_low / 2, (twice_high - twice_low) / 2
    distance = (coordinate - low).abs()
    extra = distance.fmod(span)
    flips = (distance / span).floor()
    even = flips.remainder(2) == 0
    return at.where(even, extra + low, span - extra + low)


def _pad_coordinate(coordinate, size: int, padding_mode: int, align_corners: bool):
    """The coordinate the padding mode reads instead (border and reflection)."""
    if padding_mode == _BORDER:
        return coordinate.clamp(0, size - 1)
    if padding_mode == _REFLECTION:
        twice = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        return _reflect(coordinate, *twice).clamp(0, size - 1)
    return coordinate


def _read(planes, coordinates: list, sizes: list):
    """The input at integer positions (``coordinates``: x first, float tensors
    ``(N, P)``; ``sizes``: W first), zero outside: ``(N, C, P)``."""
    inside, flat, stride = None, None, 1
    for coordinate, size in zip(coordinates, sizes):
        within = (coordinate >= 0) & (coordinate <= size - 1)
        inside = within if inside is None else inside & within
        term = coordinate.clamp(0, size - 1) * stride
        flat = term if flat is None else flat + term
        stride *= size
    index = flat.long().unsqueeze(1).expand(planes.shape[0], planes.shape[1], flat.shape[1])
    return planes.gather(2, index).masked_fill(~inside.unsqueeze(1), 0)


def _cubic_weights(t) -> list:
    """Keys' cubic convolution weights (A = -0.75) of the four taps around fraction t."""
    a = _CUBIC_A

    def near(x):
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _sample_bicubic(planes, x, y, sizes, padding_mode, align_corners):
    x0, y0 = x.floor(), y.floor()
    wx, wy = _cubic_weights(x - x0), _cubic_weights(y - y0)
    total = None
    for j in range(4):
        ty = _pad_coordinate(y0 + (j - 1), sizes[1], padding_mode, align_corners)
        row = None
        for i in range(4):
            tx = _pad_coordinate(x0 + (i - 1), sizes[0], padding_mode, align_corners)
            term = _read(planes, [tx, ty], sizes) * wx[i].unsqueeze(1)
            row = term if row is None else row + term
        term = row * wy[j].unsqueeze(1)
        total = term if total is None else total + term
    return total


def _sample(planes, coordinates: list, sizes: list, mode: int):
    """Nearest or (bi/tri)linear reads at (padded) pixel coordinates, x first."""
    if mode == _NEAREST:
        # a weight of 1 keeping the grid in the graph: its gradient is zeros, not None
        weight = sum(coordinates) * 0 + 1
        rounded = [coordinate.round() for coordinate in coordinates]
        return _read(planes, rounded, sizes) * weight.unsqueeze(1)
    floors = [coordinate.floor() for coordinate in coordinates]
    fractions = [coordinate - low for coordinate, low in zip(coordinates, floors)]
    total = None
    for corner in range(2 ** len(coordinates)):      # x varies fastest, as torch's taps
        steps = [(corner >> d) & 1 for d in range(len(coordinates))]
        weight = None
        for step, fraction in zip(steps, fractions):
            factor = fraction if step else 1 - fraction
            weight = factor if weight is None else weight * factor
        tap = [low + step for low, step in zip(floors, steps)]
        term = _read(planes, tap, sizes) * weight.unsqueeze(1)
        total = term if total is None else total + term
    return total


def _grid_sample(input, grid, interpolation_mode, padding_mode, align_corners, kernel):
    """Note [Grid sampling in operators], for 2 or 3 spatial dims."""
    _check_grid(input, grid, interpolation_mode)
    if holds_data(input) and not input.dtype.is_floating_point:
        raise NotImplementedError(f"\"{kernel}\" not implemented for "
                                  f"'{scalar_type_name(input.dtype)}'")
    n, c, *spatial = input.shape
    out_spatial = list(grid.shape[1:-1])
    k = len(spatial)
    points = grid.reshape(n, -1, k)
    sizes = spatial[::-1]                                   # W first, as the grid's x
    coordinates = [_unnormalize(points[..., d], sizes[d], align_corners) for d in range(k)]
    planes = input.reshape(n, c, -1)
    if interpolation_mode == _BICUBIC:
        result = _sample_bicubic(planes, *coordinates, sizes, padding_mode, align_corners)
    else:
        coordinates = [_pad_coordinate(coordinate, size, padding_mode, align_corners)
                       for coordinate, size in zip(coordinates, sizes)]
        result = _sample(planes, coordinates, sizes, interpolation_mode)
    return fresh(result.reshape(n, c, *out_spatial))


def _check_grid(input, grid, interpolation_mode: int) -> None:
    """grid_sampler's checks of the input and grid shapes."""
    if input.dtype is not grid.dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(input.dtype)} but found "
                           f"{scalar_type_name(grid.dtype)}")
    if input.shape[0] != grid.shape[0]:
        raise RuntimeError(f"grid_sampler(): expected grid and input to have same batch size, "
                           f"but got input with sizes {list(input.shape)} and grid with sizes "
                           f"{list(grid.shape)}")
    if grid.shape[-1] != input.dim() - 2:
        raise RuntimeError(f"grid_sampler(): expected grid to have size {input.dim() - 2} in "
                           f"last dimension, but got grid with sizes {list(grid.shape)}")
    for dim in range(2, input.dim()):
        if input.shape[dim] <= 0:
            raise RuntimeError(f"grid_sampler(): expected input to have non-empty spatial "
                               f"dimensions, but input has sizes {list(input.shape)} with "
                               f"dimension {dim} being empty")
    if interpolation_mode == _BICUBIC and input.dim() != 4:
        raise RuntimeError("grid_sampler(): bicubic interpolation only supports 4D input")


@composite("grid_sampler_2d(Tensor input, Tensor grid, int interpolation_mode, "
           "int padding_mode, bool align_corners) -> Tensor")
def grid_sampler_2d(input, grid, interpolation_mode, padding_mode, align_corners):
    """Read ``(N, C, H, W)`` `input` at the positions of ``(N, Ho, Wo, 2)`` `grid`:
    ``(N, C, Ho, Wo)`` (modes 0 bilinear, 1 nearest, 2 bicubic; padding 0 zeros,
    1 border, 2 reflection; Note [Grid sampling in operators]).

    Example::

        >>> torch.grid_sampler_2d(torch.arange(4.).view(1, 1, 2, 2),
        ...                       torch.zeros(1, 1, 1, 2), 0, 0, False)
        tensor([[[[1.5000]]]])
    """
    return _grid_sample(input, grid, interpolation_mode, padding_mode, align_corners,
                        "grid_sampler_2d_cpu_kernel_impl")


@composite("grid_sampler_3d(Tensor input, Tensor grid, int interpolation_mode, "
           "int padding_mode, bool align_corners) -> Tensor")
def grid_sampler_3d(input, grid, interpolation_mode, padding_mode, align_corners):
    """Read ``(N, C, D, H, W)`` `input` at the positions of ``(N, Do, Ho, Wo, 3)``
    `grid`: ``(N, C, Do, Ho, Wo)`` (modes 0 trilinear, 1 nearest; padding as
    `grid_sampler_2d`).

    Example::

        >>> torch.grid_sampler_3d(torch.arange(8.).view(1, 1, 2, 2, 2),
        ...                       torch.zeros(1, 1, 1, 1, 3), 0, 0, False)
        tensor([[[[[3.5000]]]]])
    """
    return _grid_sample(input, grid, interpolation_mode, padding_mode, align_corners,
                        "grid_sampler_3d_cpu")


@composite("grid_sampler(Tensor input, Tensor grid, int interpolation_mode, int padding_mode, "
           "bool align_corners) -> Tensor")
def grid_sampler(input, grid, interpolation_mode, padding_mode, align_corners):
    """`grid_sampler_2d` for 4-D inputs, `grid_sampler_3d` for 5-D ones."""
    sampler = grid_sampler_2d if input.dim() == 4 else grid_sampler_3d
    return sampler.call(input, grid, interpolation_mode, padding_mode, align_corners)
