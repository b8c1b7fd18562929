"""OpInfo entries for layer and RMS normalization (`aten/native/nn/normalization.py`):
native_layer_norm, its fused backward native_layer_norm_backward, and the composites
layer_norm and rms_norm."""
import math

import numpy as np

import glasstorch as gt

from ..core import FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor

# (input shape, normalized_shape): one and two normalized dims, a 1-D input, empty
# batches and an empty row
CASES = (((2, 3, 4), (4,)), ((2, 3, 4), (3, 4)), ((5,), (5,)), ((0, 4), (4,)),
         ((3, 1), (1,)))
LAYOUTS = ("contiguous", "transposed", "strided")
META_DTYPES = ("normalization: on meta tensors torch's Python decomposition accepts parameters "
               "of other dtypes and promotes the statistics' dtype from them; glasstorch "
               "keeps the CPU kernel's statistics dtype (both raise nothing)")


# ----- references --------------------------------------------------------------------
def _wide(x):
    return None if x is None else np.asarray(x, dtype=np.float64)


def _split(x, normalized_shape):
    rows = x.shape[:x.ndim - len(normalized_shape)]
    return x.reshape(math.prod(rows), math.prod(normalized_shape)), rows


def _np_layer_norm(x, normalized_shape, weight=None, bias=None, eps=1e-5):
    """(output, mean, rstd) in float64, rounded to torch's dtypes."""
    flat, rows = _split(_wide(x), normalized_shape)
    stats_shape = rows + (1,) * len(normalized_shape)
    with np.errstate(all="ignore"):
        mean = flat.mean(1, keepdims=True) if flat.shape[1] else np.zeros((flat.shape[0], 1))
        rstd = 1 / np.sqrt(((flat - mean) ** 2).mean(1, keepdims=True) + eps)
        y = ((flat - mean) * rstd).reshape(x.shape)
        if x.dtype.itemsize == 2:      # torch's float32 fused multiply-add form
            mean32, rstd32 = mean.astype(np.float32), rstd.astype(np.float32)
            y = (flat * rstd32 + (-mean32 * rstd32).astype(np.float64)).reshape(x.shape)
    if weight is not None:
        y = y * weight
    if bias is not None:
        y = y + bias
    mixed = weight if weight is not None else bias
    stat_dtype = mixed.dtype if mixed is not None else x.dtype
    return [y.astype(x.dtype), mean.reshape(stats_shape).astype(stat_dtype),
            rstd.reshape(stats_shape).astype(stat_dtype)]


def _np_layer_norm_backward(grad_out, x, normalized_shape, mean, rstd, weight, bias, mask):
    flat, _ = _split(_wide(x), normalized_shape)
    g, _ = _split(_wide(grad_out), normalized_shape)
    n = flat.shape[1]
    mean, rstd = _wide(mean).reshape(-1, 1), _wide(rstd).reshape(-1, 1)
    normalized = (flat - mean) * rstd
    scaled = g * _wide(weight).reshape(-1) if weight is not None else g
    with np.errstate(all="ignore"):
        grad_input = rstd * (scaled - scaled.sum(1, keepdims=True) / n
                             - normalized * (scaled * normalized).sum(1, keepdims=True) / n)
    return [grad_input.reshape(x.shape).astype(x.dtype) if mask[0] else None,
            _sum_rows(g * normalized, x.dtype).reshape(weight.shape).astype(weight.dtype)
            if mask[1] else None,
            _sum_rows(g, x.dtype).reshape(bias.shape).astype(bias.dtype) if mask[2] else None]


def _sum_rows(values, dtype):
    """The rows' sum; float16/bfloat16 inputs round a running sum to their dtype after
    each row, one sum per thread's chunk of rows, as torch's kernel keeps them (Note
    [Reduced-precision layer norm])."""
    if dtype.itemsize != 2:
        return values.sum(0)
    rows = len(values)
    size = max(1, -(-rows // max(1, min(gt.get_num_threads(), rows))))
    total = np.zeros(values.shape[1])
    for start in range(0, rows, size):
        running = np.zeros(values.shape[1])
        for row in values[start:start + size]:
            running = (running + row).astype(dtype).astype(np.float64)
        total = total + running
    return total


def _np_rms_norm(x, normalized_shape, weight=None, eps=None):
    compute = np.float64 if x.dtype == np.float64 else np.float32
    eps = np.finfo(compute).eps if eps is None else eps
    flat, _ = _split(_wide(x), normalized_shape)
    with np.errstate(all="ignore"):
        y = flat / np.sqrt((flat ** 2).mean(1, keepdims=True) + eps)
    y = y.reshape(x.shape)
    if weight is not None:
        y = y * weight
    return y.astype(x.dtype)


# ----- samples -----------------------------------------------------------------------
def _params(shape, dtype, seed):
    return make_tensor(shape, dtype, seed=seed, low=0.5, high=2)


def sample_native_layer_norm(dtype):
    for (shape, normalized), layout in ((c, l) for c in CASES for l in LAYOUTS):
        if layout != "contiguous" and 0 in shape:
            continue
        if shape[-1] == 1 and dtype.itemsize == 2:
            continue      # flat rows: float16 values are rounding noise (torch's FMA order)
        x = make_tensor(shape, dtype, layout, low=-3, high=3)
        weight, bias = _params(normalized, dtype, 1), _params(normalized, dtype, 2)
        yield SampleInput(x, normalized, weight, bias, 1e-5)
        if layout == "contiguous":
            yield SampleInput(x, normalized, None, None, 0.5)
            yield SampleInput(x, normalized, weight, None, 1e-5)
            yield SampleInput(x, normalized, None, bias, 1e-5)
    if dtype in (gt.float16, gt.bfloat16):      # torch's mixed form: float32 parameters
        x = make_tensor((2, 3), dtype)
        yield SampleInput(x, (3,), _params((3,), gt.float32, 1), _params((3,), gt.float32, 2),
                          1e-5)


def errors_native_layer_norm(meta_dtypes=META_DTYPES):
    """torch's refusals; `meta_dtypes`: the known difference of the statistics' dtype
    on meta (None for layer_norm, whose one result agrees)."""
    x = make_tensor((2, 3, 4), gt.float32)
    ones = gt.ones(4)
    yield ErrorInput(SampleInput(x, (), None, None, 1e-5), RuntimeError,
                     r"^Expected normalized_shape to be at least 1-dimensional, i\.e\., "
                     r"containing at least one element, but got normalized_shape = \[\]$")
    yield ErrorInput(SampleInput(x, (4,), gt.ones(3), None, 1e-5), RuntimeError,
                     r"^Expected weight to be of same shape as normalized_shape, but got "
                     r"weight of shape \[3\] and normalized_shape = \[4\]$")
    yield ErrorInput(SampleInput(x, (4,), None, gt.ones(1, 4), 1e-5), RuntimeError,
                     r"^Expected bias to be of same shape as normalized_shape, but got bias of "
                     r"shape \[1, 4\] and normalized_shape = \[4\]$")
    yield ErrorInput(SampleInput(x, (3,), None, None, 1e-5), RuntimeError,
                     r"^Given normalized_shape=\[3\], expected input with shape \[\*, 3\], but "
                     r"got input of size\[2, 3, 4\]$")
    yield ErrorInput(SampleInput(x, (2, 3, 4, 5), None, None, 1e-5), RuntimeError,
                     r"^Given normalized_shape=\[2, 3, 4, 5\], expected input with shape "
                     r"\[\*, 2, 3, 4, 5\], but got input of size\[2, 3, 4\]$")
    yield ErrorInput(SampleInput(x, (4,), ones.double(), None, 1e-5), RuntimeError,
                     r"^mixed dtype \(CPU\): expect parameter to have scalar type of Float$")
    yield ErrorInput(SampleInput(x.double(), (4,), ones, None, 1e-5), RuntimeError,
                     r"^mixed dtype \(CPU\): all inputs must share same datatype\.$",
                     known_bug_on_meta=meta_dtypes)
    yield ErrorInput(SampleInput(x.half(), (4,), ones.half(), ones, 1e-5), RuntimeError,
                     r"^expected scalar type Half but found Float$", known_bug_on_meta=meta_dtypes)


def sample_layer_norm(dtype):
    for sample in sample_native_layer_norm(dtype):
        x, normalized, weight, bias, eps = sample.args
        yield SampleInput(x, normalized, weight, bias, eps)
    yield SampleInput(make_tensor((3, 4), dtype), (4,))


def sample_native_layer_norm_backward(dtype):
    for shape, normalized in CASES:
        x = make_tensor(shape, dtype, low=-3, high=3)
        weight, bias = _params(normalized, dtype, 1), _params(normalized, dtype, 2)
        _, mean, rstd = gt.native_layer_norm(x, normalized, weight, bias, 1e-5)
        grad = make_tensor(shape, dtype, seed=3)
        # every gradient asked for: results left out (None) are tested in
        # tests/nn/test_normalization.py, the generic tests compare tensors only
        yield SampleInput(grad, x, normalized, mean, rstd, weight, bias, [True, True, True])


def sample_rms_norm(dtype):
    for (shape, normalized), layout in ((c, l) for c in CASES for l in LAYOUTS):
        if layout != "contiguous" and 0 in shape:
            continue
        x = make_tensor(shape, dtype, layout, low=-3, high=3)
        yield SampleInput(x, normalized, _params(normalized, dtype, 1), 1e-5)
        if layout == "contiguous":
            yield SampleInput(x, normalized)
            yield SampleInput(x, normalized, None, 0.5)


def errors_rms_norm():
    x = make_tensor((2, 3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, (3,)), RuntimeError,
                     r"^Given normalized_shape=\[3\], expected input with shape \[\*3\], but "
                     r"got input of size\[2, 3, 4\]$")
    yield ErrorInput(SampleInput(x, (4,), gt.ones(3)), RuntimeError,
                     r"^Expected weight to be of same shape as normalized_shape, but got "
                     r"weight of shape \[3\] and normalized_shape = \[4\]$")
    yield ErrorInput(SampleInput(make_tensor((2, 4), gt.int64), (4,)), NotImplementedError,
                     r"^\"rms_norm\" not implemented for 'Long'$")


OPS = [
    OpInfo("native_layer_norm", variants=("native_layer_norm",), ref=_np_layer_norm,
           dtypes=FLOATING, sample_inputs=sample_native_layer_norm,
           error_inputs=errors_native_layer_norm),
    OpInfo("native_layer_norm_backward", variants=("ops.aten.native_layer_norm_backward",),
           ref=_np_layer_norm_backward, dtypes=FLOATING,
           sample_inputs=sample_native_layer_norm_backward),
    OpInfo("layer_norm", variants=("layer_norm", "nn.functional.layer_norm"),
           ref=lambda x, *args: _np_layer_norm(x, *args[:4])[0], dtypes=FLOATING,
           sample_inputs=sample_layer_norm,
           error_inputs=lambda: errors_native_layer_norm(meta_dtypes=None)),
    OpInfo("rms_norm", variants=("rms_norm", "nn.functional.rms_norm"), ref=_np_rms_norm,
           dtypes=FLOATING, sample_inputs=sample_rms_norm, error_inputs=errors_rms_norm),
]
