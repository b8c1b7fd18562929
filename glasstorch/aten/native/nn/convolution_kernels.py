"""The NumPy kernels of `convolution`: im2col windows and one GEMM per group.

Note [Convolution as GEMM]
    A convolution of an input ``(N, G*Cig, *spatial)`` with a weight ``(G*Cog, Cig,
    *kernel)`` sums, for each output position, a window of ``Cig * prod(kernel)`` input
    values against each output channel's weights. An image's windows are one `as_strided`
    view of its zero-padded copy, ``(G, Cig, *kernel, *out_spatial)``: reshaped to ``(G,
    Cig*K, P)`` (im2col, the one large copy) each group is one matrix product with its
    ``(Cog, Cig*K)`` weights, written straight into the image's block of the result.
    The images go a few at a time, as many as keep their columns in cache (half a
    core's L2) until the products read them, so small images pay the per-call costs
    once per run of images; the runs are shared over the pool's threads (OpenBLAS
    itself on one thread: Note [One owner for the cores]). The columns are
    channel-major, as torch's CPU kernel orders them, so each output sums its terms in
    the order torch's GEMM does.

    A convolution with more kernel than output positions is the one that computes a
    weight's gradient (Note [Convolution backward in convolutions]): its input
    channels are the forward's images, its kernel the incoming gradient. Its sum over
    input channels is cut into chunks whose columns ``(G, N*P, cc*K)`` (kernel
    positions innermost, long runs in memory) fit in cache; each chunk's product is
    added to a per-thread sum, and the threads' sums are added in a fixed order, in
    float32 as torch accumulates (float64 for float64).

    The transposed convolution is the adjoint, a few images at a time as well: one
    GEMM per group spreads every input position over ``(Cog, *kernel)`` columns, and
    col2im adds each kernel offset's columns into the result's phase planes as long
    contiguous runs (a loop over the few kernel offsets, never over positions; Note
    [col2im over phase planes]), read into the result once. Every kernel computes
    float16/bfloat16 in float32 (opmath) and rounds once into the result, except the
    transposed one in float16: torch's slow kernel rounds each column to float16 and
    adds them (and the bias) in float16, in the kernel offsets' order.
"""
from __future__ import annotations

import itertools
import math

import numpy as np
from numpy.lib.stride_tricks import as_strided

from ...parallel import parallel_for
# imported for its effect: OpenBLAS on one thread, the pool owns the cores
from ..linalg import blas_threads  # noqa: F401

# elements of a chunk's columns: 512 KiB of float32, half of a core's L2 cache
_CHUNK_ELEMENTS = 1 << 17


def _compute(array: np.ndarray) -> np.ndarray:
    """float16/bfloat16 widened to float32; other dtypes as they are."""
    if array.dtype.kind == "V" or array.dtype.itemsize == 2:
        return array.astype(np.float32)
    return array


def convolution_forward(input: np.ndarray, weight: np.ndarray, bias, stride, padding,
                        dilation, groups: int, out: np.ndarray) -> None:
    """Write the convolution of `input` by `weight` into `out` (Note [Convolution as
    GEMM]); `padding` is symmetric zero padding."""
    input, weight = _compute(input), _compute(weight)
    bias = None if bias is None else _compute(bias)
    if math.prod(out.shape[2:]) >= math.prod(weight.shape[2:]):
        direct = out.flags.c_contiguous and out.dtype == weight.dtype
        target = out if direct else np.empty(out.shape, weight.dtype)
        _channels_first_forward(input, weight, bias, stride, padding, dilation, groups, target)
        if not direct:
            out[...] = target
        return
    product = _channel_chunks_forward(input, weight, padding, stride, dilation, groups,
                                      out.shape[2:])
    if bias is not None:
        product += bias.reshape((-1,) + (1,) * (out.ndim - 2))
    out[...] = product


def _channels_first_forward(input, weight, bias, stride, padding, dilation, groups: int,
                            out: np.ndarray) -> None:
    """Into the row-major ``(N, C_out, *out_spatial)`` array `out`, a few images at a
    time: their columns ``(b, G, Cig*K, P)``, channel-major as torch's own im2col
    orders them (so each sum runs in its order), stay in cache for their products
    (one per image and group), which land in the images' own blocks of `out`."""
    n, kernel, out_spatial = input.shape[0], weight.shape[2:], out.shape[2:]
    rows, positions = weight.shape[1] * math.prod(kernel), math.prod(out_spatial)
    weights = weight.reshape(groups, weight.shape[0] // groups, rows)
    blocks = out.reshape(n, groups, weight.shape[0] // groups, positions)
    biases = None if bias is None else bias.reshape(groups, -1, 1)
    width = input.shape[-1] + 2 * padding[-1]
    if not _widen_rows(out_spatial, width, stride):
        width = None

    def images(first: int, last: int) -> None:
        if width is None:
            columns = _image_columns(input[first:last], groups, kernel, stride, padding,
                                     dilation, out_spatial)
            np.matmul(weights, columns, out=blocks[first:last])
        else:
            columns = _wide_columns(input[first:last], groups, kernel, stride, padding,
                                    dilation, out_spatial)
            wide = np.matmul(weights, columns).reshape(
                (last - first, out.shape[1]) + out_spatial[:-1] + (width,))
            out[first:last] = wide[..., :out_spatial[-1]]
        if biases is not None:
            blocks[first:last] += biases
    _in_chunks(n, groups * rows * positions, images)


def _widen_rows(out_spatial, width: int, stride) -> bool:
    """Whether the columns are taken over widened rows (Note [Columns over widened
    rows]): 2 or more spatial dims, a last stride of 1, and under 1/8 extra positions
    (a 3x3 kernel's 16-wide rows measured no faster widened, 32-wide ones 13%)."""
    return len(out_spatial) > 1 and stride[-1] == 1 and 8 * (width - out_spatial[-1]) < \
        out_spatial[-1]


def _wide_columns(images: np.ndarray, groups: int, kernel, stride, padding, dilation,
                  out_spatial) -> np.ndarray:
    """Note [Columns over widened rows]
    With a last stride of 1, the windows of one kernel offset over a whole row of
    outputs are one contiguous run of the zero-padded row, and successive rows follow
    one padded width apart: computing each output row over the whole padded width
    (the positions past the row's end are cropped off after the product) makes every
    column row of the im2col copy one long run, ``(out rows) * width`` elements from
    the flat padded plane (a slack of zeros after it holds the last row's overrun).
    Each output is the same dot product as over the plain columns, in the same order
    (OpenBLAS may round the edge tiles of a product of another width differently);
    the copy costs less than the extra positions in the GEMM where rows are wide.
    Some images' columns ``(b, G, Cig*K, rows * width)``."""
    b, channels, spatial = images.shape[0], images.shape[1], images.shape[2:]
    sizes = tuple(s + 2 * p for s, p in zip(spatial, padding))
    plane, slack = math.prod(sizes), (kernel[-1] - 1) * dilation[-1]
    flat = np.zeros((b, channels, plane + slack), images.dtype)
    inside = tuple(slice(p, p + s) for p, s in zip(padding, spatial))
    flat[:, :, :plane].reshape((b, channels) + sizes)[(Ellipsis,) + inside] = images
    item, cig = flat.itemsize, channels // groups
    steps_in_plane = [math.prod(sizes[d + 1:]) * item for d in range(len(sizes))]
    shape = (b, groups, cig) + tuple(kernel) + tuple(out_spatial[:-1]) + (sizes[-1],)
    steps = (flat.strides[0], cig * flat.strides[1], flat.strides[1])
    steps += tuple(d * s for d, s in zip(dilation, steps_in_plane))
    steps += tuple(t * s for t, s in zip(stride[:-1], steps_in_plane[:-1])) + (item,)
    windows = as_strided(flat, shape, steps, writeable=False)
    return windows.reshape(b, groups, cig * math.prod(kernel),
                           math.prod(out_spatial[:-1]) * sizes[-1])


def _in_chunks(n: int, per_image: int, work) -> None:
    """``work(first, last)`` over runs of images whose columns (`per_image` elements
    each) fill about half of a core's cache, the runs shared over the pool's threads."""
    step = max(1, _CHUNK_ELEMENTS // max(1, per_image))

    def runs(start: int, stop: int) -> None:
        for first in range(start, stop, step):
            work(first, min(first + step, stop))
    parallel_for(0, n, step, runs)


def _image_columns(images: np.ndarray, groups: int, kernel, stride, padding, dilation,
                   out_spatial) -> np.ndarray:
    """Some images' im2col columns ``(b, G, Cig*K, P)``: their zero-padded windows,
    copied."""
    source = _padded(images, padding)
    strides = source.strides
    cig = source.shape[1] // groups
    shape = (source.shape[0], groups, cig) + tuple(kernel) + tuple(out_spatial)
    steps = (strides[0], cig * strides[1], strides[1])
    steps += tuple(d * s for d, s in zip(dilation, strides[2:]))
    steps += tuple(t * s for t, s in zip(stride, strides[2:]))
    windows = as_strided(source, shape, steps, writeable=False)
    return windows.reshape(source.shape[0], groups, cig * math.prod(kernel),
                           math.prod(out_spatial))


def _padded(input: np.ndarray, padding) -> np.ndarray:
    if not any(padding):
        return input
    result = np.zeros(input.shape[:2] + tuple(s + 2 * p for s, p in
                                              zip(input.shape[2:], padding)), input.dtype)
    result[(Ellipsis,) + tuple(slice(p, p + s) for p, s in
                               zip(padding, input.shape[2:]))] = input
    return result


def _channel_chunks_forward(input, weight, padding, stride, dilation, groups: int,
                            out_spatial) -> np.ndarray:
    """``(N, G*Cog, *out_spatial)`` for few output positions and a large kernel (the
    convolution that computes a weight's gradient, whose input channels are the
    forward's batch): the sum over input channels taken a chunk at a time, each
    chunk's columns ``(G, N*P, cc*K)`` small enough to stay in cache for its product,
    the products added up in float32 (float64 for float64), one sum per thread."""
    n, cig, kernel = input.shape[0], weight.shape[1], weight.shape[2:]
    cog, k, positions = weight.shape[0] // groups, math.prod(kernel), math.prod(out_spatial)
    weights = weight.reshape(groups, cog, cig, k)
    step = max(1, _CHUNK_ELEMENTS // max(1, n * positions * k))
    starts = range(0, cig, step)
    sums = {}

    def chunks(first: int, last: int) -> None:
        total = np.zeros((groups, n * positions, cog), weight.dtype)
        for start in starts[first:last]:
            stop = min(start + step, cig)
            columns = _chunk_columns(input, groups, start, stop, kernel, padding, stride,
                                     dilation, out_spatial)
            chunk = np.ascontiguousarray(weights[:, :, start:stop])  # BLAS reads it as is
            chunk = chunk.reshape(groups, cog, (stop - start) * k)
            total += np.matmul(columns, chunk.transpose(0, 2, 1))
        sums[first] = total
    parallel_for(0, len(starts), 1, chunks)
    product = np.zeros((groups, n * positions, cog), weight.dtype)
    for first in sorted(sums):                  # in a fixed order
        product += sums[first]
    product = product.reshape((groups, n) + tuple(out_spatial) + (cog,))
    product = np.moveaxis(product, 0, -2).reshape((n,) + tuple(out_spatial) + (groups * cog,))
    return np.moveaxis(product, -1, 1)


def _chunk_columns(input, groups: int, start: int, stop: int, kernel, padding, stride,
                   dilation, out_spatial) -> np.ndarray:
    """The windows of input channels ``start:stop`` of each group, copied as columns
    ``(G, N*P, cc*K)`` (the kernel's positions innermost: long runs in memory)."""
    n, spatial = input.shape[0], input.shape[2:]
    chunk = input.reshape((n, groups, input.shape[1] // groups) + spatial)[:, :, start:stop]
    source = _padded(chunk.reshape((n, groups * (stop - start)) + spatial), padding)
    source = source.reshape((n, groups, stop - start) + source.shape[2:])
    strides = source.strides
    shape = (groups, n) + tuple(out_spatial) + (stop - start,) + tuple(kernel)
    steps = (strides[1], strides[0]) + tuple(t * s for t, s in zip(stride, strides[3:]))
    steps += (strides[2],) + tuple(d * s for d, s in zip(dilation, strides[3:]))
    windows = as_strided(source, shape, steps, writeable=False)
    return windows.reshape(groups, n * math.prod(out_spatial),
                           (stop - start) * math.prod(kernel))


def transposed_forward(input: np.ndarray, weight: np.ndarray, bias, stride, padding,
                       dilation, groups: int, out: np.ndarray) -> None:
    """Write the transposed convolution of `input` by `weight` ``(G*Cig, Cog,
    *kernel)`` into `out`, a few images at a time (Note [Convolution as GEMM]): their
    columns ``(G*Cog, K, *widened)``, one GEMM per image and group, then col2im
    (Note [col2im over phase planes])."""
    n, in_spatial, kernel = input.shape[0], input.shape[2:], weight.shape[2:]
    cig, cog, k = input.shape[1] // groups, weight.shape[1], math.prod(kernel)
    sources = _compute(input).reshape((n, groups, cig) + in_spatial)
    weights = _compute(weight).reshape(groups, cig, cog * k).transpose(0, 2, 1)  # (G, Cog*K, Cig)
    # float16 takes torch's slow kernel, which rounds the columns and each sum to float16
    kept = np.float16 if input.dtype == np.float16 else weights.dtype
    direct = out.flags.c_contiguous and out.dtype == kept
    target = out if direct else np.empty(out.shape, kept)
    plan = _PhasePlanes(kernel, in_spatial, out.shape[2:], stride, padding, dilation)
    biases = None if bias is None else bias.astype(kept).reshape((-1,) + (1,) * len(kernel))

    def images(first: int, last: int) -> None:
        columns = np.matmul(weights, plan.widen(sources[first:last]))
        columns = columns.astype(kept, copy=False)
        columns = columns.reshape(last - first, groups * cog, k, plan.length)
        planes = np.zeros((last - first, groups * cog, len(plan.phases), plan.size), kept)
        for offset, phase, start in plan.adds:           # kernel offsets in torch's order
            planes[:, :, phase, start:start + plan.length] += columns[:, :, offset]
        block = target[first:last]
        plan.gather(planes, block)
        if biases is not None:
            block += biases
    _in_chunks(n, groups * cog * k * plan.length, images)
    if not direct:
        out[...] = target


class _PhasePlanes:
    """Note [col2im over phase planes]
    The transposed convolution's input position ``j`` of kernel offset ``t`` lands on
    the uncropped result's position ``j*s + t*d`` (stride s, dilation d). Split that
    result by phase, position modulo s: offset t lands in phase ``t*d % s`` at plane
    position ``j + t*d // s``, so within its phase every offset is a plain shift. With
    the input's rows widened with zeros to the planes' widths (every spatial dim but
    the first), a shift is one flat offset, and col2im adds each offset's columns into
    its phase plane as one long contiguous run per channel (torch's order of offsets,
    so float16 sums round as its slow kernel's; the widened zeros add exact zeros).
    The planes are then read once into the result, phase by phase, cropped by the
    padding. A stride of 1 has one plane: the uncropped result itself."""

    def __init__(self, kernel, in_spatial, out_spatial, stride, padding, dilation) -> None:
        self.stride, self.padding, self.out_spatial = stride, padding, tuple(out_spatial)
        self.in_spatial = tuple(in_spatial)
        reach = [(k - 1) * d // s for k, d, s in zip(kernel, dilation, stride)]
        self.planes = tuple(max(i + r, -(-(o + p) // s)) for i, r, o, p, s in
                            zip(in_spatial, reach, out_spatial, padding, stride))
        self.widened = self.in_spatial[:1] + self.planes[1:]
        self.length = math.prod(self.widened)
        steps = [math.prod(self.planes[d + 1:]) for d in range(len(self.planes))]
        self.size = math.prod(self.planes) + steps[0]   # room for the last row's zeros
        self.phases = list(itertools.product(*(range(s) for s in stride)))
        self.adds = []
        for offset, index in enumerate(itertools.product(*(range(k) for k in kernel))):
            shifts = [t * d for t, d in zip(index, dilation)]
            phase = self.phases.index(tuple(t % s for t, s in zip(shifts, stride)))
            start = sum(t // s * step for t, s, step in zip(shifts, stride, steps))
            self.adds.append((offset, phase, start))

    def widen(self, sources: np.ndarray) -> np.ndarray:
        """``(b, G, Cig, *in_spatial)`` as ``(b, G, Cig, length)``, rows zero-widened."""
        flat = sources.shape[:3] + (self.length,)
        if self.widened == self.in_spatial:
            return sources.reshape(flat)
        wide = np.zeros(sources.shape[:3] + self.widened, sources.dtype)
        wide[(Ellipsis,) + tuple(slice(0, i) for i in self.in_spatial)] = sources
        return wide.reshape(flat)

    def gather(self, planes: np.ndarray, block: np.ndarray) -> None:
        """Write the planes ``(b, C, phases, size)`` into `block` ``(b, C, *out)``."""
        whole = (slice(None), slice(None))
        for phase, residues in enumerate(self.phases):
            into, taken = [], []
            for r, s, p, size in zip(residues, self.stride, self.padding, self.out_spatial):
                first = (r - p) % s                      # the first result position in it
                count = max(0, -(-(size - first) // s))
                into.append(slice(first, first + s * count, s))
                taken.append(slice((first + p - r) // s, (first + p - r) // s + count))
            plane = planes[:, :, phase, :math.prod(self.planes)]
            plane = plane.reshape(planes.shape[:2] + self.planes)
            block[whole + tuple(into)] = plane[whole + tuple(taken)]
