"""Where torch puts an FFT's result in memory: the strides its CPU kernels and its Meta
key give (Note [FFT result layout]
    torch's FFTs write their result in an order of their own: the untransformed (batch)
    dims outermost, ordered by the input's strides (largest first; on CPU dims of equal
    stride in the order C++'s `std::partition` leaves them), then the transformed dims,
    each its own stride run, the last innermost. On CPU (MKL), `_fft_c2c` orders the
    transformed dims by the input's strides too (a transposed input gives a transposed
    result); `_fft_r2c` keeps the last listed dim innermost and orders the others by
    stride; `_fft_c2r` first transforms the other dims (a c2c) and lays the real
    transform of the last out over that. torch's Meta key lays results out as its CUDA
    FFT does instead: at most three dims a stage, and `_fft_r2c` / `_fft_c2r` over dims
    starting (0, 1), or over more than three, in stages. The meta rules give these
    strides, so a result, and a meta result, is laid out as torch's is.
"""
from __future__ import annotations

_CUFFT_MAX_DIMS = 3


def by_stride(stride: tuple, dims) -> list:
    """`dims` ordered by `stride`, largest first (ties keep their order)."""
    return sorted(dims, key=lambda d: -stride[d])


def contiguous(size: tuple) -> tuple:
    """Row-major strides (a size-0 or -1 dim counts as 1, as torch's do)."""
    stride, step = [0] * len(size), 1
    for d in reversed(range(len(size))):
        stride[d] = step
        step *= max(size[d], 1)
    return tuple(stride)


def _partitioned_batch(ndim: int, dims) -> list:
    """The untransformed dims in the order C++'s `std::partition` leaves them when it
    moves them ahead of the transformed ones (it swaps from both ends, so dims of equal
    stride are sorted from this order, as torch's CPU FFT sorts them)."""
    order = list(range(ndim))
    first, last = 0, ndim
    while True:
        while first != last and order[first] not in dims:
            first += 1
        if first == last:
            return order[:first]
        last -= 1
        while first != last and order[last] in dims:
            last -= 1
        if first == last:
            return order[:first]
        order[first], order[last] = order[last], order[first]
        first += 1


def transformed(stride: tuple, size: tuple, dims, cpu: bool = True) -> tuple:
    """The strides of one transform of `dims` (in their memory order, innermost last)
    over an input of strides `stride`: its batch dims outermost, by that stride (ties
    in `std::partition`'s order on CPU, in dim order on meta)."""
    untransformed = [d for d in range(len(size)) if d not in dims]
    batch = by_stride(stride, _partitioned_batch(len(size), dims) if cpu else untransformed)
    result = [0] * len(size)
    step = 1
    for d in reversed(dims):
        result[d] = step
        step *= max(size[d], 1)
    for d in reversed(batch):
        result[d] = step
        step *= size[d]
    return tuple(result)


def cpu_c2c(stride: tuple, size: tuple, dims) -> tuple:
    return transformed(stride, size, by_stride(stride, dims))


def cpu_r2c(stride: tuple, size: tuple, dims) -> tuple:
    """r2c on CPU: the last dim innermost, the others by stride."""
    return transformed(stride, size, by_stride(stride, dims[:-1]) + list(dims[-1:]))


def cpu_c2r(stride: tuple, size: tuple, out_size: tuple, dims) -> tuple:
    """c2r on CPU: the other dims' backward c2c first, then the real transform of the
    last dim over that intermediate result."""
    if len(dims) > 1:
        stride = cpu_c2c(stride, size, dims[:-1])
    return transformed(stride, out_size, dims[-1:])


def staged(stride: tuple, size: tuple, dims) -> tuple:
    """cuFFT's c2c: the dims in stages of at most three, each ordered by the strides of
    the previous stage's result."""
    remaining = list(dims)
    while remaining:
        remaining = by_stride(stride, remaining)
        stage = remaining[len(remaining) - min(_CUFFT_MAX_DIMS, len(remaining)):]
        stride = transformed(stride, size, stage, cpu=False)
        remaining = remaining[:len(remaining) - len(stage)]
    return stride


def _in_one_stage(dims) -> bool:
    return len(dims) <= _CUFFT_MAX_DIMS and not (len(dims) >= 2 and tuple(dims[:2]) == (0, 1))


def meta_r2c(stride: tuple, size: tuple, out_size: tuple, dims) -> tuple:
    """r2c as torch's Meta key lays it out (`size`: the input's, `out_size`: the result's)."""
    if _in_one_stage(dims):
        return transformed(stride, out_size, dims, cpu=False)
    last = dims[-1]
    half = list(size)
    half[last] = size[last] // 2 + 1
    result = transformed(stride, tuple(out_size if len(dims) == 1 else half), [last], cpu=False)
    if len(dims) == 1:
        return result
    if tuple(half) != tuple(out_size):          # two-sided: filled in a fresh tensor
        return contiguous(out_size)
    return staged(result, tuple(half), dims[:-1])


def meta_c2r(stride: tuple, size: tuple, out_size: tuple, dims) -> tuple:
    """c2r as torch's Meta key lays it out (on a contiguous copy of the input)."""
    if _in_one_stage(dims):
        return transformed(contiguous(size), out_size, dims, cpu=False)
    before = staged(stride, size, dims[:-1]) if len(dims) > 1 else contiguous(size)
    return transformed(before, out_size, dims[-1:], cpu=False)
