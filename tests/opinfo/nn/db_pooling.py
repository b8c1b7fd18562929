"""OpInfo entries for pooling (`aten/native/nn/pooling*.py`): max and average pooling in
2d and 3d (and the 1d composites), adaptive pooling, max unpooling and fractional max
pooling. The references loop over output positions and window elements in NumPy."""
import itertools
import math

import numpy as np
import pytest

import glasstorch as gt

from ..core import FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor

META_WORDS = ("pooling: torch's meta functions (Python decompositions) word these checks "
              "their own way (torch.Size in messages, other names) or skip them; glasstorch "
              "raises the CPU kernel's error on meta too")


def _meta_differs(error: ErrorInput) -> ErrorInput:
    error.known_bug_on_meta = META_WORDS
    return error

# ----- references ----------------------------------------------------------------------
def _ints(value, k):
    value = tuple(value) if isinstance(value, (list, tuple)) else (value,)
    return value * k if len(value) == 1 else value


def _pooled(n, kernel, stride, pad, dilation, ceil_mode):
    span = n + 2 * pad - dilation * (kernel - 1) - 1
    count = (-(-span // stride) if ceil_mode else span // stride) + 1
    if ceil_mode and (count - 1) * stride >= n + pad:
        count -= 1
    return count


def _np_max_pool(k):
    def reference(x, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False):
        kernel = _ints(kernel_size, k)
        stride = _ints(stride, k) if stride not in ((), []) else kernel
        padding, dilation = _ints(padding, k), _ints(dilation, k)
        spatial = x.shape[-k:]
        out = tuple(_pooled(*args, ceil_mode) for args in zip(spatial, kernel, stride, padding,
                                                                  dilation))
        wide = x.astype(np.float64)
        values = np.full(x.shape[:-k] + out, -np.inf)
        indices = np.full(x.shape[:-k] + out, -1, np.int64)
        for position in np.ndindex(*out):
            best = np.full(x.shape[:-k], -np.inf)
            chosen = np.full(x.shape[:-k], -1, np.int64)
            for offset in np.ndindex(*kernel):
                coords = [position[a] * stride[a] - padding[a] + offset[a] * dilation[a]
                          for a in range(k)]
                if any(c < 0 or c >= n for c, n in zip(coords, spatial)):
                    continue
                flat = int(np.ravel_multi_index(coords, spatial))
                value = wide[(Ellipsis,) + tuple(coords)]
                chosen = np.where(chosen < 0, flat, chosen)     # the first valid position
                update = (value > best) | np.isnan(value)
                best = np.where(update, value, best)
                chosen = np.where(update, flat, chosen)
            values[(Ellipsis,) + position] = best
            indices[(Ellipsis,) + position] = chosen
        return [values.astype(x.dtype), indices]
    return reference


def _np_avg_pool(k):
    def reference(x, kernel_size, stride=(), padding=0, ceil_mode=False,
                  count_include_pad=True, divisor_override=None):
        kernel = _ints(kernel_size, k)
        stride = _ints(stride, k) if stride not in ((), []) else kernel
        padding = _ints(padding, k)
        spatial = x.shape[-k:]
        out = tuple(_pooled(n, kk, s, p, 1, ceil_mode)
                    for n, kk, s, p in zip(spatial, kernel, stride, padding))
        wide = x.astype(np.float64)
        result = np.zeros(x.shape[:-k] + out)
        for position in np.ndindex(*out):
            starts = [position[a] * stride[a] - padding[a] for a in range(k)]
            ends = [min(s + kk, n + p) for s, kk, n, p in zip(starts, kernel, spatial, padding)]
            size = math.prod(e - s for s, e in zip(starts, ends))
            inside = tuple(slice(max(s, 0), min(e, n)) for s, e, n in zip(starts, ends, spatial))
            total = wide[(Ellipsis,) + inside].sum(axis=tuple(range(-k, 0)))
            count = math.prod(sl.stop - sl.start for sl in inside)
            divisor = divisor_override or (size if count_include_pad else count)
            result[(Ellipsis,) + position] = total / divisor
        if x.dtype.kind in "iu":
            return np.trunc(result).astype(x.dtype)
        return result.astype(x.dtype)
    return reference


def _adaptive_windows(n, m):
    return [(o * n // m, -(-(o + 1) * n // m)) for o in range(m)]


def _np_adaptive(k, kind):
    def reference(x, output_size):
        spatial = x.shape[-k:]
        windows = [_adaptive_windows(n, m) for n, m in zip(spatial, output_size)]
        wide = x.astype(np.float64)
        values = np.zeros(x.shape[:-k] + tuple(output_size))
        indices = np.zeros(values.shape, np.int64)
        for position in np.ndindex(*output_size):
            box = [windows[a][position[a]] for a in range(k)]
            if kind == "avg":
                part = wide[(Ellipsis,) + tuple(slice(s, e) for s, e in box)]
                values[(Ellipsis,) + position] = part.mean(axis=tuple(range(-k, 0)))
                continue
            best = np.full(x.shape[:-k], -np.inf)
            chosen = np.full(x.shape[:-k], int(np.ravel_multi_index([s for s, _ in box],
                                                                    spatial)))
            for coords in itertools.product(*(range(s, e) for s, e in box)):
                value = wide[(Ellipsis,) + coords]
                update = (value > best) | np.isnan(value)
                best = np.where(update, value, best)
                chosen = np.where(update, int(np.ravel_multi_index(coords, spatial)), chosen)
            values[(Ellipsis,) + position] = best
            indices[(Ellipsis,) + position] = chosen
        return values.astype(x.dtype) if kind == "avg" else [values.astype(x.dtype), indices]
    return reference


def _squeezed(reference, unsqueeze_args):
    """A 1d reference from the 2d one over an inserted size-1 dim."""
    def one_d(x, *args, **kwargs):
        result = reference(x[..., None, :], *unsqueeze_args(*args), **kwargs)
        if isinstance(result, list):
            return [r[..., 0, :] for r in result]
        return result[..., 0, :]
    return one_d


def _max_1d_args(kernel_size, stride=(), padding=(0,), dilation=(1,), ceil_mode=False):
    stride = list(stride) or list(kernel_size)
    return ([1] + list(kernel_size), [1] + stride, [0] + list(padding), [1] + list(dilation),
            ceil_mode)


def _avg_1d_args(kernel_size, stride=(), padding=(0,), ceil_mode=False, count_include_pad=True):
    stride = list(stride) or list(kernel_size)
    return ([1] + list(kernel_size), [1] + stride, [0] + list(padding), ceil_mode,
            count_include_pad)


def _np_unpool(k):
    def reference(x, indices, output_size, *window):
        rows = math.prod(x.shape[:-k])
        out = np.zeros((rows, math.prod(output_size)), x.dtype)
        out[np.arange(rows)[:, None], indices.reshape(rows, -1)] = x.reshape(rows, -1)
        return out.reshape(x.shape[:-k] + tuple(output_size))
    return reference


def _np_fractional(k):
    order = (1, 0) if k == 2 else (0, 1, 2)

    def starts(u, n, m, pool):
        result = [n - pool] * m
        if m > 1:
            alpha = u.dtype.type(n - pool) / u.dtype.type(m - 1)
            for i in range(m - 1):
                result[i] = int((u.dtype.type(i) + u) * alpha) - int(u * alpha)
        return result

    def reference(x, kernel_size, output_size, samples):
        batched = x.reshape((-1,) + x.shape[-k - 1:])
        values = np.zeros(batched.shape[:2] + tuple(output_size))
        indices = np.zeros(values.shape, np.int64)
        for b, c in np.ndindex(*batched.shape[:2]):
            plane = batched[b, c].astype(np.float64)
            u = samples[b, c]
            seqs = [starts(u[order[a]], plane.shape[a], output_size[a], kernel_size[a])
                    for a in range(k)]
            for position in np.ndindex(*output_size):
                box = [range(seqs[a][position[a]], seqs[a][position[a]] + kernel_size[a])
                       for a in range(k)]
                first = next(itertools.product(*box))
                best, chosen = -np.inf, int(np.ravel_multi_index(first, plane.shape))
                for coords in itertools.product(*box):
                    if plane[coords] > best or np.isnan(plane[coords]):
                        best, chosen = plane[coords], int(np.ravel_multi_index(coords,
                                                                                plane.shape))
                values[(b, c) + position], indices[(b, c) + position] = best, chosen
        shape = x.shape[:-k] + tuple(output_size)
        return [values.reshape(shape).astype(x.dtype), indices.reshape(shape)]
    return reference


# ----- samples ---------------------------------------------------------------------------
# (input shape, kernel_size, stride, padding, dilation, ceil_mode) per dimension count
MAX_CASES = {
    2: (((2, 3, 7, 6), [2], [2], [0], [1], False), ((3, 7, 6), [3, 2], [2, 1], [1, 1], [1], True),
        ((1, 2, 8, 7), [3], [2], [1], [2], True), ((2, 5, 5), [2], [], [1], [1], False),
        ((0, 2, 4, 4), [2], [2], [0], [1], False)),
    3: (((1, 2, 5, 4, 6), [2], [2], [0], [1], False),
        ((2, 5, 6, 5), [3, 2, 2], [2, 1, 2], [1, 0, 1], [1], True),
        ((1, 1, 6, 6, 6), [2], [2], [1], [2], True)),
}
AVG_CASES = {
    2: (((2, 3, 7, 6), [2], [2], [0], False, True, None),
        ((3, 7, 6), [3, 2], [2, 1], [1, 1], True, False, None),
        ((1, 2, 8, 7), [3], [2], [1], True, True, None), ((2, 5, 5), [2], [], [1], False, True, 3),
        ((0, 2, 4, 4), [2], [2], [0], False, True, None)),
    3: (((1, 2, 5, 4, 6), [2], [2], [0], False, True, None),
        ((2, 5, 6, 5), [3, 2, 2], [2, 1, 2], [1, 0, 1], True, False, None),
        ((1, 1, 6, 6, 6), [2], [1], [1], True, True, 5)),
}
ADAPTIVE_CASES = {2: (((2, 3, 7, 6), [3, 4]), ((3, 5, 5), [5, 5]), ((1, 2, 4, 3), [7, 2]),
                      ((2, 3, 6, 6), [1, 1])),
                  3: (((1, 2, 5, 4, 6), [2, 3, 4]), ((2, 3, 3, 5), [1, 1, 1]))}


def _max_samples(k, with_nan=False):
    def samples(dtype):
        for shape, *args in MAX_CASES[k]:
            yield SampleInput(make_tensor(shape, dtype), *args)
        if dtype.is_floating_point:
            shape, *args = MAX_CASES[k][1]
            yield SampleInput(make_tensor(shape, dtype, "transposed"), *args)
            x = make_tensor(shape, dtype)
            x.view(-1)[::7] = float("nan")
            yield SampleInput(x, *args)
    return samples


def _avg_samples(k):
    def samples(dtype):
        for shape, *args in AVG_CASES[k]:
            yield SampleInput(make_tensor(shape, dtype), *args)
        shape, *args = AVG_CASES[k][1]
        yield SampleInput(make_tensor(shape, dtype, "transposed"), *args)
    return samples


def _adaptive_samples(k, with_nan=True):
    def samples(dtype):
        for shape, size in ADAPTIVE_CASES[k]:
            yield SampleInput(make_tensor(shape, dtype), size)
        shape, size = ADAPTIVE_CASES[k][0]
        yield SampleInput(make_tensor(shape, dtype, "strided"), size)
        if with_nan:
            x = make_tensor(shape, dtype)
            x.view(-1)[::5] = float("nan")
            yield SampleInput(x, size)
    return samples


def sample_max_pool1d(dtype):
    for shape, args in (((2, 3, 9), ([3], [2], [1], [1], True)), ((3, 8), ([2],)),
                        ((2, 2, 10), ([3], [1], [1], [2], False))):
        yield SampleInput(make_tensor(shape, dtype), *args)


def sample_avg_pool1d(dtype):
    for shape, args in (((2, 3, 9), ([3], [2], [1], True, False)), ((3, 8), ([2],)),
                        ((2, 2, 10), ([3], [1], [1], False, True))):
        yield SampleInput(make_tensor(shape, dtype), *args)


def sample_adaptive_1d(dtype):
    for shape, size in (((2, 3, 9), [4]), ((3, 8), [8]), ((2, 2, 5), [7])):
        yield SampleInput(make_tensor(shape, dtype), size)


def _unpool_samples(k):
    def samples(dtype):
        pooled = {2: ((2, 3, 3, 2), (4, 5), 2), 3: ((1, 2, 2, 2, 3), (4, 5, 6), 2)}[k]
        shape, output_size, kernel = pooled
        source = make_tensor(shape[:-k] + output_size, gt.float64)
        pool = getattr(gt.ops.aten, f"max_pool{k}d_with_indices")
        _, indices = pool(source, [kernel])
        window = () if k == 2 else ([kernel] * 3, [0] * 3)
        yield SampleInput(make_tensor(indices.shape, dtype), indices, list(output_size), *window)
        yield SampleInput(make_tensor(indices.shape[1:], dtype), indices[0], list(output_size),
                          *window)
    return samples


def _fractional_samples(k):
    def samples(dtype):
        cases = {2: (((2, 3, 7, 6), [2, 3], [4, 3]), ((3, 5, 5), [2, 2], [4, 4])),
                 3: (((1, 2, 5, 6, 5), [2, 2, 3], [3, 4, 2]), ((2, 5, 5, 5), [2], [3, 3, 3]))}
        for shape, kernel, output in cases[k]:
            batch = shape[0] if len(shape) == k + 2 else 1
            samples = make_tensor((batch, shape[-k - 1], k), dtype, low=0, high=1, seed=4)
            yield SampleInput(make_tensor(shape, dtype), kernel * (k // len(kernel)), output,
                              samples)
    return samples


# ----- error inputs ----------------------------------------------------------------------
def errors_max_pool2d_with_indices():
    x = make_tensor((1, 2, 4, 4), gt.float32)
    cases = (
        ((x, [2, 2, 2]), r"^max_pool2d: kernel_size must either be a single int, or a tuple "
                         r"of two ints$"),
        ((x, [2], [0]), r"^stride should not be zero$"),
        ((x, [2], [1], [2]), r"^pad should be at most half of effective kernel size, but got "
                             r"pad=2, kernel_size=2 and dilation=1$"),
        ((x, [3], [1], [2], [2]), r"^pad should be smaller than or equal to half of kernel "
                                  r"size, but got padW = 2, padH = 2, kW = 3, kH = 3$"),
        ((x, [5]), r"^Given input size: \(2x4x4\)\. Calculated output size: \(2x0x0\)\. "
                   r"Output size is too small$"),
        ((x, [2], [1], [0], [0]), r"^dilation should be greater than zero, but got "
                                  r"dilationH: 0 dilationW: 0$"),
        ((x, [2], [-1]), r"^stride should be greater than zero, but got dH: -1 dW: -1$"),
        ((x, [2], [1], [-1]), r"^pad must be non-negative, but got pad: -1$"),
        ((make_tensor((4, 4), gt.float32), [2]),
         r"^non-empty 3D or 4D \(batch mode\) tensor expected for input$"),
        ((make_tensor((1, 0, 4, 4), gt.float32), [2]),
         r"^Expected 3D or 4D \(batch mode\) tensor with optional 0 dim batch size for input, "
         r"but got:\[1, 0, 4, 4\]$"),
    )
    for index, (args, match) in enumerate(cases):
        error = ErrorInput(SampleInput(*args), RuntimeError, match)
        yield _meta_differs(error) if index in (5, 6, 8, 9) else error
    yield ErrorInput(SampleInput(x.bool(), [2]), NotImplementedError,
                     r"^\"max_pool2d\" not implemented for 'Bool'$")


def errors_max_pool3d_with_indices():
    x = make_tensor((1, 2, 4, 4, 4), gt.float32)
    yield ErrorInput(SampleInput(x, [3], [1], [2], [2]), RuntimeError,
                     r"^pad should be smaller than or equal to half of kernel size, but got "
                     r"kT: 3 kW: 3 kH: 3 padT: 2 padW: 2 padH: 2$")
    yield _meta_differs(ErrorInput(SampleInput(x, [2], [1], [0], [0]), RuntimeError,
                     r"^dilation should be greater than zero, but got dilationT: 0 "
                     r"dilationH: 0 dilationW: 0$"))
    yield ErrorInput(SampleInput(x[0], [5]), RuntimeError,
                     r"^Given input size: \(2x4x4x4\)\. Calculated output size: \(2x0x0x0\)\. "
                     r"Output size is too small$")
    empty = make_tensor((1, 0, 4, 4, 4), gt.float32)
    yield _meta_differs(ErrorInput(SampleInput(empty, [2]), RuntimeError,
                     r"^max_pool3d_with_indices_out_cpu_template\(\): Expected input's non-batch "
                     r"dimensions to have positive length, but input has a shape of "
                     r"\[1, 0, 4, 4, 4\] and non-batch dimension 0 has length zero!$"))
    yield ErrorInput(SampleInput(make_tensor((4, 4), gt.float32), [2]), RuntimeError,
                     r"^non-empty 4D or 5D \(batch mode\) tensor expected for input$")
    yield ErrorInput(SampleInput(x.bool(), [2]), NotImplementedError,
                     r"^\"max_pool3d\" not implemented for 'Bool'$")


def errors_avg_pool2d():
    x = make_tensor((1, 2, 4, 4), gt.float32)
    yield ErrorInput(SampleInput(x, [2, 2, 2]), RuntimeError,
                     r"^avg_pool2d: kernel_size must either be a single int, or a tuple of two "
                     r"ints$")
    yield ErrorInput(SampleInput(x, [5]), RuntimeError,
                     r"^Given input size: \(2x4x4\)\. Calculated output size: \(2x0x0\)\. "
                     r"Output size is too small$")
    yield ErrorInput(SampleInput(x, [2], [1], [0], False, True, 0), RuntimeError,
                     r"^divisor must be not zero$")
    yield ErrorInput(SampleInput(make_tensor((4, 4), gt.float32), [2]), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], but got "
                     r"-3\)$")
    empty = make_tensor((1, 0, 4, 4), gt.float32)
    yield _meta_differs(ErrorInput(SampleInput(empty, [2]), RuntimeError,
                     r"^Expected 3D or 4D \(batch mode\) tensor with optional 0 dim batch size "
                     r"for input, but got:\[1, 0, 4, 4\]$"))
    yield ErrorInput(SampleInput(x.bool(), [2]), NotImplementedError,
                     r"^\"avg_pool2d\" not implemented for 'Bool'$")


def errors_avg_pool3d():
    yield ErrorInput(SampleInput(make_tensor((1, 4, 4, 4), gt.bfloat16), [2]),
                     NotImplementedError,
                     r"^\"avg_pool3d_out_frame\" not implemented for 'BFloat16'$")
    yield ErrorInput(SampleInput(make_tensor((1, 4, 4, 4), gt.float32), [5]), RuntimeError,
                     r"^input image \(T: 4 H: 4 W: 4\) smaller than kernel size \(kT: 5 kH: 5 "
                     r"kW: 5\)$")
    yield ErrorInput(SampleInput(make_tensor((4, 4), gt.float32), [2]), RuntimeError,
                     r"^non-empty 4D or 5D \(batch mode\) tensor expected for input$")
    empty = make_tensor((1, 0, 4, 4, 4), gt.float32)
    yield _meta_differs(ErrorInput(SampleInput(empty, [2]), RuntimeError,
                     r"^avg_pool3d\(\): Expected input's non-batch dimensions to have positive "
                     r"length, but input has a shape of \[1, 0, 4, 4, 4\] and non-batch "
                     r"dimension 0 has length zero!$"))


def _adaptive_errors(name, k):
    def errors():
        x = make_tensor((1, 2) + (4,) * k, gt.float32)
        colon = "" if "avg" in name else ":"
        flat = make_tensor((4,), gt.float32)
        yield _meta_differs(ErrorInput(SampleInput(flat, [2] * k), RuntimeError,
                         rf"^{name}\(\): Expected {k + 1}D or {k + 2}D tensor, but got{colon} "
                         r"\[4\]$"))
        empty = make_tensor((1, 0) + (4,) * k, gt.float32)
        if name != "adaptive_avg_pool2d":
            yield _meta_differs(ErrorInput(
                SampleInput(empty, [2] * k), RuntimeError,
                             rf"^{name}\(\): Expected input to have non-zero size for non-batch "
                             rf"dimensions, but input has sizes \[1, 0(, 4){{{k}}}\] with "
                             r"dimension 1 being empty$"))
        wrong = (rf"^{name}: output_size must be {k}$" if "avg" in name else
                 rf"^{name}\(\): internal error: output_size.size\(\) must be {k}$")
        error = ErrorInput(SampleInput(x, [2]), RuntimeError, wrong)
        yield _meta_differs(error) if "avg" in name else error
        kernel = name + ("_cpu" if k == 3 else "")
        yield ErrorInput(SampleInput(x.long(), [2] * k), NotImplementedError,
                         rf"^\"{kernel}\" not implemented for 'Long'$")
    return errors


def errors_max_unpool2d():
    x = make_tensor((1, 2, 2, 2), gt.float32)
    index = gt.tensor([0, 1, 4, 5]).view(1, 1, 2, 2).expand(1, 2, 2, 2).contiguous()
    yield ErrorInput(SampleInput(x, index + 20, [4, 4]), RuntimeError,
                     r"^Found an invalid max index: 25 \(output volumes are of size 4x4\)$")
    yield ErrorInput(SampleInput(x, index, [4]), RuntimeError,
                     r"^There should be exactly two elements \(height, width\) in output_size, "
                     r"but got 1 elements\.$")
    yield _meta_differs(ErrorInput(SampleInput(x, index.float(), [4, 4]), RuntimeError,
                     r"^elements in indices should be type int64 but got: Float$"))
    yield _meta_differs(ErrorInput(SampleInput(x, index[:, :1], [4, 4]), RuntimeError,
                     r"^Expected shape of indices to be same as that of the input tensor "
                     r"\(\[1, 2, 2, 2\]\) but got indices tensor with shape: \[1, 1, 2, 2\]$"))
    yield ErrorInput(SampleInput(x[0, 0], index[0, 0], [4, 4]), RuntimeError,
                     r"^Input to max_unpooling2d should be a 3d or 4d Tensor, but got a tensor "
                     r"with 2 dimensions\.$")
    yield ErrorInput(SampleInput(x.long(), index, [4, 4]), NotImplementedError,
                     r"^\"max_unpool2d\" not implemented for 'Long'$")


def errors_max_unpool3d():
    x = make_tensor((1, 1, 2, 2, 2), gt.float32)
    index = gt.arange(8).view(1, 1, 2, 2, 2)
    yield ErrorInput(SampleInput(x, index, [4, 4], [2, 2, 2], [0, 0, 0]), RuntimeError,
                     r"^There should be exactly three elements \(depth, height, width\) in "
                     r"output_size, but got 2 elements\.$")
    yield ErrorInput(SampleInput(x, index, [4, 4, 4], [2, 2], [0, 0, 0]), RuntimeError,
                     r"^There should be exactly three elements \(depth, height, width\) in "
                     r"stride, but got: 2 elements\.$")
    yield ErrorInput(SampleInput(x, index, [4, 4, 4], [2, 2, 0], [0, 0, 0]), RuntimeError,
                     r"^strides should be greater than zero, but got stride: \[2, 2, 0\]$")
    yield ErrorInput(SampleInput(x[0, 0], index[0, 0], [4, 4, 4], [2] * 3, [0] * 3),
                     RuntimeError, r"^Input to max_unpooling3d should be a 4d or 5d Tensor, but "
                                   r"got a tensor with 3 dimensions\.$")


def errors_fractional_max_pool2d():
    x = make_tensor((2, 3, 9, 8), gt.float32)
    samples = make_tensor((2, 3, 2), gt.float32, low=0, high=1)
    cases = (
        ((x, [2, 2], [8, 8], samples), r"^fractional_max_pool2d\(\): pool width 2 too large "
                                       r"relative to input width 8$"),
        ((x, [2, 2], [4, 5], samples[:1]), r"^Expect _random_samples\.size\(0\) no less then "
                                           r"input batch size\.$"),
        ((x, [2, 2], [4, 5], samples[:, :, :1]), r"^Expect _random_samples\.size\(2\) equals "
                                                 r"to 2; got 1\.$"),
        ((x, [2, 2], [4, 5], samples.double()), r"^Expect _random_samples to have the same "
                                                r"dtype as input$"),
        ((x[0, 0], [2, 2], [4, 5], samples), r"^fractional_max_pool2d\(\): Expected 3D or 4D "
                                             r"tensor, but got: \[9, 8\]$"),
    )
    for index, (args, match) in enumerate(cases):
        error = ErrorInput(SampleInput(*args), RuntimeError, match)
        yield _meta_differs(error) if index in (0, 2, 4) else error


def errors_fractional_max_pool3d():
    x = make_tensor((2, 3, 9, 8, 7), gt.float32)
    samples = make_tensor((2, 3, 3), gt.float32, low=0, high=1)
    yield ErrorInput(SampleInput(x, [2, 2, 2], [8, 8, 8], samples), RuntimeError,
                     r"^fractional_max_pool3d_out\(\): pool time 2 too large relative to input "
                     r"time 9$")
    yield ErrorInput(SampleInput(x[0, 0], [2, 2, 2], [4, 5, 4], samples), RuntimeError,
                     r"^fractional_max_pool3d_out\(\): Expected 4D or 5D tensor, but got: "
                     r"\[9, 8, 7\]$")


def errors_max_pool1d_with_indices():
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), [2]), RuntimeError,
                     r"^Expected 2 to 3 dimensions, but got 1-dimensional tensor for argument "
                     r"#1 'self' \(while checking arguments for max_pool1d\)$")


def errors_max_pool1d():
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), [2]), RuntimeError,
                     r"^max_pool1d: Expected 2D or 3D \(batch mode\) tensor with optional 0 dim "
                     r"batch size for input, but got:\[3\]$")
    x = make_tensor((2, 3, 8), gt.float32)
    cases = ((([0],), r"kernel_size must be greater than zero, but got 0"),
             (([2], [0]), r"stride must be greater than zero, but got 0"),
             (([2], [1], [-1]), r"padding must be non-negative, but got -1"),
             (([2], [1], [2]), r"padding should be at most half of kernel size, but got "
                               r"padding=2 and kernel_size=2"),
             (([2], [1], [0], [0]), r"dilation must be greater than zero, but got 0"),
             (([9],), r"Invalid computed output size: 0"))
    for args, match in cases:
        yield ErrorInput(SampleInput(x, *args), RuntimeError, rf"^max_pool1d\(\) {match}$")


# ----- entries ---------------------------------------------------------------------------
def _max_entries(k):
    name = f"max_pool{k}d_with_indices"
    return [
        OpInfo(name, variants=(f"ops.aten.{name}",), ref=_np_max_pool(k),
               dtypes=FLOATING + (gt.int64,), sample_inputs=_max_samples(k),
               error_inputs=globals()[f"errors_{name}"], covers=(f"{name}_backward",)),
        OpInfo(f"max_pool{k}d", variants=(f"max_pool{k}d",),
               ref=lambda *a, k=k, **kw: _np_max_pool(k)(*a, **kw)[0], dtypes=FLOATING,
               sample_inputs=_max_samples(k)),
    ]


def _avg_entries(k):
    name = f"avg_pool{k}d"
    dtypes = FLOATING if k == 2 else (gt.float32, gt.float64)
    return [OpInfo(name, variants=(f"ops.aten.{name}", f"nn.functional.{name}"),
                   ref=_np_avg_pool(k), dtypes=dtypes + (gt.int64,),
                   sample_inputs=_avg_samples(k), error_inputs=globals()[f"errors_{name}"],
                   covers=(f"{name}_backward",))]


# torch's 3d adaptive average adds float16/bfloat16 elements in that dtype, rounding
# after each; glasstorch adds them in float32 (a known difference: float32/float64 here)
AVG_3D_DTYPES = (gt.float32, gt.float64)


def _adaptive_entries(k):
    avg, maxed = f"adaptive_avg_pool{k}d", f"adaptive_max_pool{k}d"
    avg_dtypes = FLOATING if k == 2 else AVG_3D_DTYPES
    return [
        OpInfo(f"_{avg}", variants=(f"ops.aten._{avg}",), ref=_np_adaptive(k, "avg"),
               dtypes=avg_dtypes,
               sample_inputs=_adaptive_samples(k),
               error_inputs=_adaptive_errors(avg, k), covers=(f"_{avg}_backward",)),
        OpInfo(avg, variants=(f"ops.aten.{avg}", f"nn.functional.{avg}"),
               ref=_np_adaptive(k, "avg"), dtypes=avg_dtypes,
               sample_inputs=_adaptive_samples(k, with_nan=False)),
        OpInfo(maxed, variants=(f"ops.aten.{maxed}",), ref=_np_adaptive(k, "max"),
               dtypes=FLOATING, sample_inputs=_adaptive_samples(k),
               error_inputs=_adaptive_errors(maxed, k), covers=(f"{maxed}_backward",)),
    ]


TWO_RESULT_OUT = pytest.mark.skip(reason="out= of two results (.output): "
                                         "tests/nn/test_pooling.py")
TWO_OUT = {"test_out": TWO_RESULT_OUT, "test_out_matches_torch": TWO_RESULT_OUT}

OPS = [
    *_max_entries(2), *_max_entries(3), *_avg_entries(2), *_avg_entries(3),
    *_adaptive_entries(2), *_adaptive_entries(3),
    OpInfo("max_pool1d_with_indices", variants=("max_pool1d_with_indices",),
           ref=_squeezed(_np_max_pool(2), _max_1d_args), dtypes=FLOATING,
           sample_inputs=sample_max_pool1d, error_inputs=errors_max_pool1d_with_indices),
    OpInfo("max_pool1d", variants=("max_pool1d",),
           ref=lambda *a: _squeezed(_np_max_pool(2), _max_1d_args)(*a)[0], dtypes=FLOATING,
           sample_inputs=sample_max_pool1d, error_inputs=errors_max_pool1d),
    OpInfo("avg_pool1d", variants=("avg_pool1d", "nn.functional.avg_pool1d"),
           ref=_squeezed(_np_avg_pool(2), _avg_1d_args), dtypes=FLOATING,
           sample_inputs=sample_avg_pool1d),
    OpInfo("adaptive_avg_pool1d", variants=("adaptive_avg_pool1d",),
           ref=_squeezed(_np_adaptive(2, "avg"), lambda size: ([1] + list(size),)),
           dtypes=FLOATING, sample_inputs=sample_adaptive_1d),
    OpInfo("adaptive_max_pool1d", variants=("adaptive_max_pool1d",),
           ref=_squeezed(_np_adaptive(2, "max"), lambda size: ([1] + list(size),)),
           dtypes=FLOATING, sample_inputs=sample_adaptive_1d),
    OpInfo("max_unpool2d", variants=("ops.aten.max_unpool2d",), ref=_np_unpool(2),
           dtypes=FLOATING, sample_inputs=_unpool_samples(2),
           error_inputs=errors_max_unpool2d),
    OpInfo("max_unpool3d", variants=("ops.aten.max_unpool3d",), ref=_np_unpool(3),
           dtypes=FLOATING, sample_inputs=_unpool_samples(3),
           error_inputs=errors_max_unpool3d),
    OpInfo("fractional_max_pool2d", variants=("ops.aten.fractional_max_pool2d",),
           ref=_np_fractional(2), dtypes=FLOATING,
           sample_inputs=_fractional_samples(2), error_inputs=errors_fractional_max_pool2d,
           covers=("fractional_max_pool2d_backward",), out="ops.aten.fractional_max_pool2d",
           marks=TWO_OUT),
    OpInfo("fractional_max_pool3d", variants=("ops.aten.fractional_max_pool3d",),
           ref=_np_fractional(3), dtypes=FLOATING,
           sample_inputs=_fractional_samples(3), error_inputs=errors_fractional_max_pool3d,
           covers=("fractional_max_pool3d_backward",), out="ops.aten.fractional_max_pool3d",
           marks=TWO_OUT),
]
