"""OpInfo entries for convolution (`aten/native/nn/convolution.py`,
`convolution_functions.py`): convolution and convolution_backward, conv1d/2d/3d (numeric
and string padding), conv_transpose1d/2d/3d, conv_tbc and conv_tbc_backward."""
import itertools

import numpy as np

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor

DTYPES = (gt.float32, gt.float64, gt.int64, gt.complex128)
# (input shape, weight shape, stride, padding, dilation, groups, output_padding)
PLAIN = (((2, 4, 7), (6, 2, 3), 2, 1, 1, 2, 0), ((1, 3, 5, 6), (4, 3, 2, 3), 1, 0, 2, 1, 0),
         ((2, 2, 6, 5), (4, 1, 3, 3), (2, 1), (1, 2), 1, 2, 0),
         ((1, 2, 4, 4, 3), (2, 2, 2, 2, 1), 1, 1, 1, 1, 0), ((0, 2, 5, 5), (3, 2, 3, 3), 1, 0, 1,
                                                             1, 0))
TRANSPOSED = (((2, 4, 5), (4, 3, 3), 2, 1, 1, 2, 1), ((1, 2, 3, 4), (2, 3, 2, 3), (2, 1), 0, 2,
                                                      1, (1, 0)),
              ((1, 2, 3, 3, 2), (2, 1, 2, 2, 2), 1, 0, 1, 2, 0))


# ----- references --------------------------------------------------------------------
def _each(value, dims: int) -> list:
    value = list(value) if isinstance(value, (list, tuple)) else [value]
    return value * dims if len(value) == 1 else value


def _np_plain(x, w, stride, padding, dilation, groups):
    dims = x.ndim - 2
    x = np.pad(x, [(0, 0), (0, 0)] + [(p, p) for p in padding])
    sizes = [(x.shape[2 + i] - dilation[i] * (w.shape[2 + i] - 1) - 1) // stride[i] + 1
             for i in range(dims)]
    xg = x.reshape((x.shape[0], groups, x.shape[1] // groups) + x.shape[2:])
    wg = w.reshape((groups, w.shape[0] // groups) + w.shape[1:])
    out = np.zeros((x.shape[0], groups, wg.shape[1]) + tuple(sizes), dtype=np.result_type(x, w))
    for offset in itertools.product(*(range(k) for k in w.shape[2:])):
        window = tuple(slice(o * d, o * d + s * (n - 1) + 1, s)
                       for o, d, s, n in zip(offset, dilation, stride, sizes))
        out += np.einsum("ngc...,goc->ngo...", xg[(Ellipsis,) + window],
                         wg[(Ellipsis,) + offset])
    return out.reshape((x.shape[0], w.shape[0]) + tuple(sizes))


def _np_transposed(x, w, stride, padding, dilation, groups, output_padding):
    inner = x.shape[2:]
    sizes = [(i - 1) * s - 2 * p + d * (k - 1) + o + 1 for i, s, p, d, k, o in
             zip(inner, stride, padding, dilation, w.shape[2:], output_padding)]
    full = [n + 2 * p for n, p in zip(sizes, padding)]
    xg = x.reshape((x.shape[0], groups, x.shape[1] // groups) + inner)
    wg = w.reshape((groups, w.shape[0] // groups) + w.shape[1:])
    out = np.zeros((x.shape[0], groups, wg.shape[2]) + tuple(full), dtype=np.result_type(x, w))
    for offset in itertools.product(*(range(k) for k in w.shape[2:])):
        window = tuple(slice(o * d, o * d + s * (n - 1) + 1, s)
                       for o, d, s, n in zip(offset, dilation, stride, inner))
        out[(Ellipsis,) + window] += np.einsum("ngc...,gco->ngo...", xg,
                                               wg[(Ellipsis,) + offset])
    crop = tuple(slice(p, p + n) for p, n in zip(padding, sizes))
    return out[(Ellipsis,) + crop].reshape((x.shape[0], groups * w.shape[1]) + tuple(sizes))


def _wide(x):
    return x.astype(np.complex128 if x.dtype.kind == "c" else
                    np.int64 if x.dtype.kind == "i" else np.float64)


def _np_convolution(x, w, b, stride, padding, dilation, transposed, output_padding, groups):
    dims = x.ndim - 2
    stride, padding, dilation, output_padding = (
        _each(v, dims) for v in (stride, padding, dilation, output_padding))
    if transposed:
        out = _np_transposed(_wide(x), _wide(w), stride, padding, dilation, groups,
                             output_padding)
    else:
        out = _np_plain(_wide(x), _wide(w), stride, padding, dilation, groups)
    if b is not None:
        out = out + _wide(b).reshape((-1,) + (1,) * dims)
    return out.astype(x.dtype)


def _unbatched(dims, function):
    def ref(x, *args, **kwargs):
        if x.ndim == dims + 1:
            return function(x[None], *args, **kwargs)[0]
        return function(x, *args, **kwargs)
    return ref


def _np_conv(dims):
    def ref(x, w, bias=None, stride=1, padding=0, dilation=1, groups=1):
        if isinstance(padding, str):
            total = [d * (k - 1) for d, k in zip(_each(dilation, dims), w.shape[2:])]
            if padding == "valid":
                total = [0] * dims
            x = np.pad(x, [(0, 0), (0, 0)] + [(t // 2, t - t // 2) for t in total])
            padding = 0
        return _np_convolution(x, w, bias, stride, padding, dilation, False, 0, groups)
    return _unbatched(dims, ref)


def _np_conv_transpose(dims):
    def ref(x, w, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
        return _np_convolution(x, w, bias, stride, padding, dilation, True, output_padding,
                               groups)
    return _unbatched(dims, ref)


def _np_conv_tbc(x, w, b, pad=0):
    out = _np_convolution(x.transpose(1, 2, 0), w.transpose(2, 1, 0), b, 1, pad, 1, False, 0,
                          1)
    return np.ascontiguousarray(out.transpose(2, 0, 1))


def _np_convolution_backward(grad, x, w, bias_sizes, stride, padding, dilation, transposed,
                             output_padding, groups, mask):
    """The gradients by linearity: each element of the input's (weight's) gradient is
    the inner product of `grad` with the reference convolution of a one-hot input
    (weight); the bias's sums `grad`."""
    found = []
    wide_grad = _wide(grad)
    for which, source in ((0, x), (1, w)):
        if not mask[which]:
            found.append(None)
            continue
        flat = np.zeros(source.size, dtype=wide_grad.dtype)
        basis = np.zeros(source.size, dtype=_wide(source).dtype)
        for i in range(source.size):
            basis[i] = 1
            args = (basis.reshape(source.shape), _wide(w)) if which == 0 else \
                (_wide(x), basis.reshape(source.shape))
            flat[i] = np.sum(wide_grad * _np_convolution(*args, None, stride, padding,
                                                         dilation, transposed,
                                                         output_padding, groups))
            basis[i] = 0
        found.append(flat.reshape(source.shape).astype(source.dtype))
    dims = x.ndim - 2
    found.append(wide_grad.sum(axis=(0,) + tuple(range(2, dims + 2))).astype(grad.dtype)
                 if mask[2] else None)
    return found


def _np_conv_tbc_backward(grad, x, w, b, pad):
    found = _np_convolution_backward(grad.transpose(1, 2, 0), x.transpose(1, 2, 0),
                                     w.transpose(2, 1, 0), b.shape, 1, pad, 1, False, 0, 1,
                                     (True, True, True))
    return [found[0].transpose(2, 0, 1), found[1].transpose(2, 1, 0), found[2]]


# ----- samples -----------------------------------------------------------------------
def _pair(dtype, in_shape, w_shape, layout="contiguous", seed=0):
    return (make_tensor(in_shape, dtype, layout, low=-3, high=3, seed=seed),
            make_tensor(w_shape, dtype, low=-3, high=3, seed=seed + 1))


def sample_convolution(dtype):
    for i, (shape, w_shape, s, p, d, g, o) in enumerate(PLAIN + TRANSPOSED):
        transposed = i >= len(PLAIN)
        dims = len(shape) - 2
        x, w = _pair(dtype, shape, w_shape, ("contiguous", "transposed", "strided")[i % 3], i)
        channels = w_shape[1] * g if transposed else w_shape[0]
        bias = make_tensor((channels,), dtype, seed=9) if i % 2 else None
        yield SampleInput(x, w, bias, _each(s, dims), _each(p, dims), _each(d, dims),
                          transposed, _each(o, dims), g)
    x, w = _pair(dtype, (1, 2, 5, 5), (3, 2, 3, 3))
    yield SampleInput(x, w, None, [1], [1], [1], False, [0], 1)        # one value for all


def sample_convolution_backward(dtype):
    for i, (shape, w_shape, s, p, d, g, o) in enumerate(PLAIN[:3] + TRANSPOSED[:2]):
        transposed = i >= 3
        dims = len(shape) - 2
        x, w = _pair(dtype, shape, w_shape, seed=i)
        out = gt.ops.aten.convolution(x, w, None, _each(s, dims), _each(p, dims),
                                      _each(d, dims), transposed, _each(o, dims), g)
        grad = make_tensor(tuple(out.shape), dtype, low=-3, high=3, seed=7)
        yield SampleInput(grad, x, w, [out.shape[1]], _each(s, dims), _each(p, dims),
                          _each(d, dims), transposed, _each(o, dims), g, [True, True, True])


def _sample_conv(dims):
    def samples(dtype):
        for shape, w_shape, s, p, d, g, _ in PLAIN:
            if len(shape) == dims + 2:
                x, w = _pair(dtype, shape, w_shape, "transposed")
                yield SampleInput(x, w, make_tensor((w_shape[0],), dtype), stride=s,
                                  padding=p, dilation=d, groups=g)
        x, w = _pair(dtype, (3,) + (5,) * dims, (2, 3) + (2,) * dims)
        yield SampleInput(x, w)                                        # unbatched
    return samples


def _sample_conv_padding(dims):
    def samples(dtype):
        x, w = _pair(dtype, (2, 2) + (5,) * dims, (3, 2) + (3,) * dims)
        yield SampleInput(x, w, None, 1, "same", 2)
        yield SampleInput(x[0], w, None, 1, "valid")                  # unbatched
        yield SampleInput(x, w, make_tensor((3,), dtype), padding="valid", dilation=2)
        x, w = _pair(dtype, (2,) + (4,) * dims, (2, 2) + (3,) * dims, seed=3)
        yield SampleInput(x, w, padding="same")
    return samples


def _sample_conv_transpose(dims):
    def samples(dtype):
        for shape, w_shape, s, p, d, g, o in TRANSPOSED:
            if len(shape) == dims + 2:
                x, w = _pair(dtype, shape, w_shape, "strided")
                yield SampleInput(x, w, make_tensor((w_shape[1] * g,), dtype), s, p, o, g, d)
        x, w = _pair(dtype, (2,) + (3,) * dims, (2, 3) + (2,) * dims)
        yield SampleInput(x, w, stride=2)                              # unbatched
    return samples


def sample_conv_tbc(dtype):
    yield SampleInput(*_pair(dtype, (6, 2, 3), (3, 3, 4)), make_tensor((4,), dtype))
    yield SampleInput(*_pair(dtype, (5, 1, 2), (2, 2, 3), "transposed"),
                      make_tensor((3,), dtype), 1)


def sample_conv_tbc_backward(dtype):
    x, w = _pair(dtype, (5, 2, 3), (3, 3, 2))
    yield SampleInput(make_tensor((5, 2, 2), dtype, seed=4), x, w, make_tensor((2,), dtype), 1)


# ----- errors ------------------------------------------------------------------------
def errors_conv2d():
    x = make_tensor((1, 3, 5, 5), gt.float32)
    w = make_tensor((4, 3, 3, 3), gt.float32)
    yield ErrorInput(SampleInput(x, make_tensor((4, 2, 3, 3), gt.float32)), RuntimeError,
                     r"^Given groups=1, weight of size \[4, 2, 3, 3\], expected input\[1, 3, "
                     r"5, 5\] to have 2 channels, but got 3 channels instead$")
    yield ErrorInput(SampleInput(make_tensor((1, 3, 2, 2), gt.float32), w), RuntimeError,
                     r"^Calculated padded input size per channel: \(2 x 2\)\. Kernel size: "
                     r"\(3 x 3\)\. Kernel size can't be greater than actual input size$")
    yield ErrorInput(SampleInput(x, w, padding=-1), RuntimeError,
                     r"^negative padding is not supported$")
    yield ErrorInput(SampleInput(make_tensor((1, 4, 5, 5), gt.float32),
                                 make_tensor((3, 2, 3, 3), gt.float32), groups=2),
                     RuntimeError, r"^Given groups=2, expected weight to be divisible by 2 at "
                                   r"dimension 0, but got weight of size \[\[3, 2, 3, 3\]\] "
                                   r"instead$")
    yield ErrorInput(SampleInput(x, w, stride=0), RuntimeError,
                     r"^non-positive stride is not supported$")
    yield ErrorInput(SampleInput(x, w, dilation=(1, 0)), RuntimeError,
                     r"^dilation should be greater than zero, but got \[1, 0\]$")
    yield ErrorInput(SampleInput(x, w, groups=0), RuntimeError,
                     r"^non-positive groups is not supported$")
    yield ErrorInput(SampleInput(make_tensor((5, 5), gt.float32), w), RuntimeError,
                     r"^Expected 3D \(unbatched\) or 4D \(batched\) input to conv2d, but got "
                     r"input of size: \[5, 5\]$")
    yield ErrorInput(SampleInput(x, w, make_tensor((3,), gt.float32)), RuntimeError,
                     r"^Given weight of size \[4, 3, 3, 3\], expected bias to be 1-dimensional "
                     r"with 4 elements, but got bias of size \[3\] instead$")
    yield ErrorInput(SampleInput(x, make_tensor((4, 3, 3, 3), gt.float64)), RuntimeError,
                     r"^expected scalar type Float but found Double$")
    yield ErrorInput(SampleInput(x, w, make_tensor((4,), gt.float64)), RuntimeError,
                     r"^Input type \(float\) and bias type \(double\) should be the same$")
    yield ErrorInput(SampleInput(x, w, None, (1, 1, 1)), RuntimeError,
                     r"^expected stride to be a single integer value or a list of 2 values to "
                     r"match the convolution dimensions, but got stride=\[1, 1, 1\]$")


def errors_conv1d_padding():
    x, w = make_tensor((1, 3, 5), gt.float32), make_tensor((4, 3, 3), gt.float32)
    yield ErrorInput(SampleInput(x, w, None, 2, "same"), RuntimeError,
                     r"^padding='same' is not supported for strided convolutions$")
    yield ErrorInput(SampleInput(x, w, None, 1, "full"), RuntimeError,
                     r"^Invalid padding string: 'full'$")


def errors_conv_transpose2d():
    x = make_tensor((1, 3, 5, 5), gt.float32)
    yield ErrorInput(SampleInput(x, make_tensor((3, 4, 3, 3), gt.float32), output_padding=1),
                     RuntimeError, r"^output padding must be smaller than either stride or "
                                   r"dilation, but got output_padding_height: 1 "
                                   r"output_padding_width: 1 stride_height: 1 stride_width: 1 "
                                   r"dilation_height: 1 dilation_width: 1$")
    yield ErrorInput(SampleInput(x, make_tensor((4, 4, 3, 3), gt.float32)), RuntimeError,
                     r"^Given transposed=1, weight of size \[4, 4, 3, 3\], expected input\[1, "
                     r"3, 5, 5\] to have 4 channels, but got 3 channels instead$")
    yield ErrorInput(SampleInput(make_tensor((1, 3, 1, 1), gt.float32),
                                 make_tensor((3, 4, 1, 1), gt.float32), padding=1),
                     RuntimeError, r"^Given input size per channel: \(1 x 1\)\. Calculated "
                                   r"output size per channel: \(-1 x -1\)\. Output size is too "
                                   r"small$")


def errors_convolution():
    yield ErrorInput(SampleInput(make_tensor((1, 3, 5, 5), gt.float32),
                                 make_tensor((4, 3, 3), gt.float32), None, [1], [0], [1], False,
                                 [0], 1), RuntimeError,
                     r"^Expected 3-dimensional input for 3-dimensional weight \[4, 3, 3\], but "
                     r"got 4-dimensional input of size \[1, 3, 5, 5\] instead$")
    yield ErrorInput(SampleInput(make_tensor((1, 3, 5), gt.float32),
                                 make_tensor((4, 3), gt.float32), None, [1], [0], [1], False,
                                 [0], 1), RuntimeError,
                     r"^weight should have at least three dimensions$")


def errors_conv_tbc():
    x, w = make_tensor((5, 2, 3), gt.float32), make_tensor((3, 3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, w, make_tensor((3,), gt.float32)), RuntimeError,
                     r"^Bias size must equal dim 2 in the weight tensor \(output channels\)\.$")
    yield ErrorInput(SampleInput(make_tensor((5, 2, 2), gt.float32), w,
                                 make_tensor((4,), gt.float32)), RuntimeError,
                     r"^Input dim 2 \(input channels\) is not == dim 1 in the weight tensor$")
    yield ErrorInput(SampleInput(make_tensor((5, 2), gt.float32), w,
                                 make_tensor((4,), gt.float32)), RuntimeError,
                     r"^Input must have 3 dims: time, batch, in_channel$")


def _conv_entries(dims):
    name = f"conv{dims}d"
    yield OpInfo(name, variants=(name, f"nn.functional.{name}"), ref=_np_conv(dims),
                 dtypes=DTYPES, sample_inputs=_sample_conv(dims),
                 error_inputs=errors_conv2d if dims == 2 else lambda: ())
    yield OpInfo(f"{name}.padding", variants=(name, f"nn.functional.{name}"),
                 ref=_np_conv(dims), dtypes=DTYPES, sample_inputs=_sample_conv_padding(dims),
                 error_inputs=errors_conv1d_padding if dims == 1 else lambda: ())
    overload = "" if dims == 1 else ".input"
    transposed = f"conv_transpose{dims}d"
    yield OpInfo(transposed + overload, variants=(transposed, f"nn.functional.{transposed}"),
                 ref=_np_conv_transpose(dims), dtypes=DTYPES,
                 sample_inputs=_sample_conv_transpose(dims),
                 error_inputs=errors_conv_transpose2d if dims == 2 else lambda: ())


OPS = [
    OpInfo("convolution", variants=("convolution",), ref=_np_convolution, dtypes=DTYPES[:3],
           sample_inputs=sample_convolution, error_inputs=errors_convolution),
    OpInfo("convolution_backward", variants=("ops.aten.convolution_backward",),
           ref=_np_convolution_backward, dtypes=(gt.float32, gt.float64),
           sample_inputs=sample_convolution_backward),
    *_conv_entries(1), *_conv_entries(2), *_conv_entries(3),
    OpInfo("conv_tbc", variants=("conv_tbc", "nn.functional.conv_tbc"), ref=_np_conv_tbc,
           dtypes=(gt.float32, gt.float64), sample_inputs=sample_conv_tbc,
           error_inputs=errors_conv_tbc),
    OpInfo("conv_tbc_backward", variants=("ops.aten.conv_tbc_backward",),
           ref=_np_conv_tbc_backward, dtypes=(gt.float32, gt.float64),
           sample_inputs=sample_conv_tbc_backward),
]
