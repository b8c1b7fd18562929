"""OpInfo entries for `aten/native/nn/grid_sampler.py`: affine_grid_generator,
grid_sampler_2d, grid_sampler_3d and grid_sampler, with references that sample one point
at a time."""
import dataclasses
import math

import numpy as np

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor

DTYPES = (gt.float32, gt.float64)


def _np_affine_grid(theta, size, align_corners):
    def axis(steps):
        if steps <= 1:
            return np.zeros(steps)
        points = np.linspace(-1, 1, steps)
        return points if align_corners else points * (steps - 1) / steps
    spatial = list(size[2:])
    axes = list(np.meshgrid(*[axis(n) for n in spatial], indexing="ij"))[::-1]   # x first
    base = np.stack(axes + [np.ones(spatial)], axis=-1)
    grid = np.einsum("...k,njk->n...j", base, theta.astype(np.float64))
    return grid.astype(theta.dtype)


def _padded(coordinate, size, padding_mode, align_corners):
    if padding_mode == 1:
        return min(max(coordinate, 0), size - 1)
    if padding_mode == 2:
        low, high = (0, 2 * (size - 1)) if align_corners else (-1, 2 * size - 1)
        if low == high:
            return 0.0
        span, start = (high - low) / 2, low / 2
        distance = abs(coordinate - start)
        extra, flips = math.fmod(distance, span), math.floor(distance / span)
        reflected = extra + start if flips % 2 == 0 else span - extra + start
        return min(max(reflected, 0), size - 1)
    return coordinate


def _cubic(t):
    a = -0.75
    near = lambda x: ((a + 2) * x - (a + 3)) * x * x + 1          # noqa: E731
    far = lambda x: ((a * x - 5 * a) * x + 8 * a) * x - 4 * a    # noqa: E731
    return [far(t + 1), near(t), near(1 - t), far(2 - t)]


def _point(image, x, y, mode, padding_mode, align_corners):
    """One output pixel: ``image`` is ``(C, H, W)``, (x, y) pixel coordinates."""
    height, width = image.shape[1:]

    def read(i, j):
        inside = 0 <= i <= width - 1 and 0 <= j <= height - 1
        return image[:, int(j), int(i)] if inside else np.zeros(image.shape[0])
    if mode == 2:
        x0, y0 = math.floor(x), math.floor(y)
        wx, wy = _cubic(x - x0), _cubic(y - y0)
        return sum(wy[j] * sum(wx[i] * read(_padded(x0 - 1 + i, width, padding_mode,
                                                     align_corners),
                                            _padded(y0 - 1 + j, height, padding_mode,
                                                    align_corners)) for i in range(4))
                   for j in range(4))
    x = _padded(x, width, padding_mode, align_corners)
    y = _padded(y, height, padding_mode, align_corners)
    if mode == 1:
        return read(np.round(x), np.round(y))
    x0, y0 = math.floor(x), math.floor(y)
    dx, dy = x - x0, y - y0
    return ((1 - dx) * (1 - dy) * read(x0, y0) + dx * (1 - dy) * read(x0 + 1, y0)
            + (1 - dx) * dy * read(x0, y0 + 1) + dx * dy * read(x0 + 1, y0 + 1))


def _np_grid_sampler(input, grid, mode, padding_mode, align_corners):
    height, width = input.shape[2:]

    def pixels(coordinate, size):
        if align_corners:
            return (coordinate + 1) / 2 * (size - 1)
        return ((coordinate + 1) * size - 1) / 2
    out = np.zeros(input.shape[:2] + grid.shape[1:3])
    for n in range(grid.shape[0]):
        for i in range(grid.shape[1]):
            for j in range(grid.shape[2]):
                x = pixels(float(grid[n, i, j, 0]), width)
                y = pixels(float(grid[n, i, j, 1]), height)
                out[n, :, i, j] = _point(input[n].astype(np.float64), x, y, mode,
                                         padding_mode, align_corners)
    return out.astype(input.dtype)


def _np_grid_sampler_3d(input, grid, mode, padding_mode, align_corners):
    """Trilinear or nearest: each output point from its eight (or one) neighbours."""
    sizes = input.shape[:1:-1]                              # W, H, D

    def pixels(coordinate, size):
        unnormalized = ((coordinate + 1) / 2 * (size - 1) if align_corners
                        else ((coordinate + 1) * size - 1) / 2)
        return _padded(unnormalized, size, padding_mode, align_corners)
    out = np.zeros(input.shape[:2] + grid.shape[1:4])
    for n, *where in np.ndindex(*grid.shape[:4]):
        xyz = [pixels(float(grid[(n, *where, d)]), sizes[d]) for d in range(3)]
        corners = ([[np.round(v) for v in xyz]], [1.0]) if mode == 1 else ([], [])
        if mode == 0:
            for corner in np.ndindex(2, 2, 2):
                steps = corner[::-1]                         # x varies fastest
                corners[0].append([math.floor(v) + s for v, s in zip(xyz, steps)])
                corners[1].append(np.prod([v - math.floor(v) if s else 1 - (v - math.floor(v))
                                           for v, s in zip(xyz, steps)]))
        for (i, j, k), weight in zip(*corners):
            if all(0 <= v <= size - 1 for v, size in zip((i, j, k), sizes)):
                out[(n, slice(None), *where)] += weight * input[n, :, int(k), int(j), int(i)]
    return out.astype(input.dtype)


def sample_grid_sampler_3d(dtype):
    seed = 0
    for mode in range(2):
        for padding_mode in range(3):
            for align_corners in (False, True):
                seed += 1
                image = make_tensor((2, 2, 3, 4, 2), dtype, seed=seed)
                grid = make_tensor((2, 2, 3, 2, 3), dtype, seed=seed + 100) * 0.15
                yield SampleInput(image, grid, mode, padding_mode, align_corners)


def sample_affine_grid(dtype):
    yield SampleInput(make_tensor((2, 2, 3), dtype), [2, 3, 4, 5], False)
    yield SampleInput(make_tensor((1, 2, 3), dtype, seed=1), [1, 1, 1, 3], True)
    yield SampleInput(make_tensor((2, 3, 4), dtype, seed=2), [2, 1, 2, 3, 4], False)
    yield SampleInput(make_tensor((1, 3, 4), dtype, seed=3), [1, 2, 3, 2, 2], True)


def sample_grid_sampler(dtype):
    seed = 0
    for mode in range(3):
        for padding_mode in range(3):
            for align_corners in (False, True):
                seed += 1
                image = make_tensor((2, 2, 3, 4), dtype, seed=seed)
                # positions beyond [-1, 1] exercise the padding modes
                grid = make_tensor((2, 3, 2, 2), dtype, seed=seed + 100) * 0.15
                yield SampleInput(image, grid, mode, padding_mode, align_corners)


META = ("grid_sampler: torch's meta function skips these checks; glasstorch raises the "
        "CPU kernel's message on meta too")


def errors_grid_sampler():
    x, g = make_tensor((2, 3, 4, 5), gt.float32), make_tensor((2, 6, 7, 2), gt.float32)
    yield ErrorInput(SampleInput(x, g[:1], 0, 0, False), RuntimeError,
                     r"^grid_sampler\(\): expected grid and input to have same batch size, but "
                     r"got input with sizes \[2, 3, 4, 5\] and grid with sizes \[1, 6, 7, 2\]$")
    yield ErrorInput(SampleInput(x, g[..., :1], 0, 0, False), RuntimeError,
                     r"^grid_sampler\(\): expected grid to have size 2 in last dimension, but "
                     r"got grid with sizes \[2, 6, 7, 1\]$")
    yield ErrorInput(SampleInput(x.double(), g, 0, 0, False), RuntimeError,
                     r"^expected scalar type Double but found Float$")
    yield ErrorInput(SampleInput(make_tensor((2, 3, 0, 5), gt.float32), g, 0, 0, False),
                     RuntimeError, r"^grid_sampler\(\): expected input to have non-empty "
                                   r"spatial dimensions, but input has sizes \[2, 3, 0, 5\] "
                                   r"with dimension 2 being empty$")


def _meta_differs(errors):
    return lambda: (dataclasses.replace(e, known_bug_on_meta=META) for e in errors())


OPS = [
    OpInfo("affine_grid_generator", variants=("affine_grid_generator",), ref=_np_affine_grid,
           dtypes=DTYPES, sample_inputs=sample_affine_grid),
    OpInfo("grid_sampler_2d", variants=("grid_sampler_2d",), ref=_np_grid_sampler,
           dtypes=DTYPES, sample_inputs=sample_grid_sampler,
           error_inputs=_meta_differs(errors_grid_sampler)),
    OpInfo("grid_sampler_3d", variants=("grid_sampler_3d",), ref=_np_grid_sampler_3d,
           dtypes=DTYPES, sample_inputs=sample_grid_sampler_3d),
    OpInfo("grid_sampler", variants=("grid_sampler",), ref=_np_grid_sampler,
           dtypes=DTYPES, sample_inputs=sample_grid_sampler),
]
