"""OpInfo entries for batch, instance and group normalization and the distances
(`aten/native/nn/batch_norm*.py`, `group_norm.py`, `distances.py`): NumPy references in
float64, rounded to the input's dtype."""
import itertools
import math

import numpy as np
import pytest

import glasstorch as gt

from ..core import FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor

SHAPES = ((4, 3), (2, 3, 5), (2, 3, 2, 2), (2, 2, 2, 2, 2))
# float16/bfloat16 batch and instance norm round torch's way only to within an ulp of
# the statistics (tests/nn/test_batchnorm.py compares them with torch's tolerance)
FULL = (gt.float32, gt.float64)
THREE_RESULT_OUT = pytest.mark.skip(reason="out= of three results: tests/nn/test_batchnorm.py")
THREE_OUT = {"test_out": THREE_RESULT_OUT, "test_out_matches_torch": THREE_RESULT_OUT}
META_ERRORS = ("batch_norm on meta: torch's Python decomposition raises its own errors "
               "(or none) for integer inputs and mixed dtypes; glasstorch keeps the CPU "
               "kernel's checks")


# ----- references --------------------------------------------------------------------
def _wide(x):
    return None if x is None else np.asarray(x, dtype=np.float64)


def _channel_view(x):
    """``(N, C, *)`` -> ``(C, N * L)``."""
    n, c, length = x.shape[0], x.shape[1], math.prod(x.shape[2:])
    return np.moveaxis(x.reshape(n, c, length), 1, 0).reshape(c, n * length)


def _affine(y, weight, bias, shape):
    channel = (1, -1) + (1,) * (len(shape) - 2)
    if weight is not None:
        y = y * _wide(weight).reshape(channel)
    if bias is not None:
        y = y + _wide(bias).reshape(channel)
    return y


def _np_native_batch_norm(x, weight, bias, running_mean, running_var, training, momentum,
                          eps):
    """(output, save_mean, save_invstd); the running statistics are not compared here
    (tests/nn/test_batchnorm.py follows them)."""
    wide = _wide(x)
    channel = (1, -1) + (1,) * (x.ndim - 2)
    if training:
        rows = _channel_view(wide)
        with np.errstate(all="ignore"):
            mean, var = rows.mean(1), rows.var(1)
    else:
        mean, var = _wide(running_mean), _wide(running_var)
    invstd = 1 / np.sqrt(var + eps)
    y = _affine((wide - mean.reshape(channel)) * invstd.reshape(channel), weight, bias, x.shape)
    saved = (mean, invstd) if training else (np.zeros(0), np.zeros(0))
    return [y.astype(x.dtype)] + [s.astype(x.dtype) for s in saved]


def _np_batch_norm(x, weight, bias, running_mean, running_var, training, momentum, eps,
                   cudnn=False):
    return _np_native_batch_norm(x, weight, bias, running_mean, running_var, training,
                                 momentum, eps)[0]


def _np_group_norm(x, groups, weight=None, bias=None, eps=1e-5, cudnn=True):
    n = x.shape[0]
    rows = _wide(x).reshape(n * groups, -1)
    with np.errstate(all="ignore"):
        mean = rows.mean(1, keepdims=True) if rows.shape[1] else np.zeros((rows.shape[0], 1))
        rstd = 1 / np.sqrt(((rows - mean) ** 2).mean(1, keepdims=True) + eps)
    y = _affine(((rows - mean) * rstd).reshape(x.shape), weight, bias, x.shape)
    return y.astype(x.dtype), mean.reshape(n, groups).astype(x.dtype), \
        rstd.reshape(n, groups).astype(x.dtype)


def _np_native_group_norm(x, weight, bias, n, c, hxw, groups, eps):
    return list(_np_group_norm(x, groups, weight, bias, eps))


def _np_instance_norm(x, weight, bias, running_mean, running_var, use_input_stats, momentum,
                      eps, cudnn=False):
    n, c = x.shape[:2]
    y = _np_group_norm(x.reshape((1, n * c) + x.shape[2:]), n * c, eps=eps)[0]
    return _affine(_wide(y).reshape(x.shape), weight, bias, x.shape).astype(x.dtype)


def _np_pdist(x, p=2.0):
    wide = _wide(x)
    first, second = np.triu_indices(x.shape[0], 1)
    diff = np.abs(wide[first] - wide[second])
    if p == 0:
        found = (diff != 0).sum(1).astype(np.float64)
    elif p == math.inf:
        found = diff.max(1, initial=0)
    else:
        found = (diff ** p).sum(1) ** (1 / p)
    return found.astype(x.dtype)


def _np_cosine_similarity(x1, x2, dim=1, eps=1e-8):
    a, b = np.broadcast_arrays(_wide(x1), _wide(x2))
    norm_a = np.maximum(np.sqrt((a * a).sum(dim, keepdims=True)), eps)
    norm_b = np.maximum(np.sqrt((b * b).sum(dim, keepdims=True)), eps)
    return ((a / norm_a) * (b / norm_b)).sum(dim).astype(np.result_type(x1, x2))


def _np_pairwise_distance(x1, x2, p=2.0, eps=1e-6, keepdim=False):
    diff = np.abs(_wide(x1) - _wide(x2) + eps)
    return (((diff ** p).sum(-1, keepdims=keepdim)) ** (1 / p)).astype(
        np.result_type(x1, x2))


# ----- samples -----------------------------------------------------------------------
def _channel_params(channels, dtype):
    return (make_tensor((channels,), dtype, seed=1, low=0.5, high=2),
            make_tensor((channels,), dtype, seed=2, low=-1, high=1),
            make_tensor((channels,), dtype, seed=3, low=-1, high=1),
            make_tensor((channels,), dtype, seed=4, low=0.5, high=2))


def sample_native_batch_norm(dtype):
    for shape, training in itertools.product(SHAPES, (True, False)):
        x = make_tensor(shape, dtype, low=-3, high=3)
        weight, bias, mean, var = _channel_params(shape[1], dtype)
        yield SampleInput(x, weight, bias, mean.clone(), var.clone(), training, 0.1, 1e-5)
        yield SampleInput(x, None, None, mean.clone(), var.clone(), training, 0.3, 0.5)
        if training:
            yield SampleInput(x, weight, None, None, None, True, 0.1, 1e-5)
    x = make_tensor((2, 3, 4), dtype, "transposed", low=-3, high=3)
    yield SampleInput(x, *_channel_params(x.shape[1], dtype), True, 0.1, 1e-5)


def sample_batch_norm(dtype):
    for sample in sample_native_batch_norm(dtype):
        yield SampleInput(*sample.args, False)
    yield SampleInput(make_tensor((0, 3), dtype), None, None, None, None, True, 0.1, 1e-5,
                      False)


def errors_batch_norm():
    x = make_tensor((2, 3), gt.float32)
    ones = gt.ones(3)
    yield ErrorInput(SampleInput(x, None, None, gt.zeros(4), ones, True, 0.1, 1e-5, False),
                     RuntimeError, r"^running_mean should contain 3 elements not 4$")
    yield ErrorInput(SampleInput(x, gt.ones(4), None, None, None, True, 0.1, 1e-5, False),
                     RuntimeError, r"^weight should contain 3 elements not 4$")
    yield ErrorInput(SampleInput(x, None, None, None, None, False, 0.1, 1e-5, False),
                     RuntimeError, r"^running_mean must be defined in evaluation mode$")
    yield ErrorInput(SampleInput(make_tensor((2, 3), gt.int64), None, None, None, None, True,
                                 0.1, 1e-5, False),
                     NotImplementedError, r"^\"batch_norm\" not implemented for 'Long'$",
                     known_bug_on_meta=META_ERRORS)
    yield ErrorInput(SampleInput(x, ones.double(), None, None, None, True, 0.1, 1e-5, False),
                     RuntimeError, r"^mixed dtype \(CPU\): expect parameter to have scalar "
                                   r"type of Float$", known_bug_on_meta=META_ERRORS)
    yield ErrorInput(SampleInput(x.double(), ones, None, None, None, True, 0.1, 1e-5, False),
                     RuntimeError, r"^mixed dtype \(CPU\): all inputs must share same "
                                   r"datatype\.$", known_bug_on_meta=META_ERRORS)


def sample_native_batch_norm_backward(dtype):
    for shape, train in itertools.product(SHAPES, (True, False)):
        x = make_tensor(shape, dtype, low=-3, high=3)
        weight, bias, mean, var = _channel_params(shape[1], dtype)
        _, save_mean, save_invstd = gt.native_batch_norm(x, weight, bias, mean.clone(),
                                                         var.clone(), train, 0.1, 1e-5)
        grad = make_tensor(shape, dtype, seed=5)
        yield SampleInput(grad, x, weight, mean, var, save_mean, save_invstd, train, 1e-5,
                          [True, True, True])


def _np_native_batch_norm_backward(grad, x, weight, running_mean, running_var, save_mean,
                                   save_invstd, train, eps, mask):
    rows, g = _channel_view(_wide(x)), _channel_view(_wide(grad))
    if train:
        mean, invstd = _wide(save_mean), _wide(save_invstd)
    else:
        mean, invstd = _wide(running_mean), 1 / np.sqrt(_wide(running_var) + eps)
    normalized = (rows - mean[:, None]) * invstd[:, None]
    scale = invstd * (_wide(weight) if weight is not None else 1)
    if train:
        gi = (g - g.mean(1, keepdims=True)
              - normalized * (g * normalized).mean(1, keepdims=True)) * scale[:, None]
    else:
        gi = g * scale[:, None]
    shape = (x.shape[1], x.shape[0]) + x.shape[2:]
    return [np.moveaxis(gi.reshape(shape), 0, 1).astype(x.dtype),
            (g * normalized).sum(1).astype(x.dtype), g.sum(1).astype(x.dtype)]


def sample_group_norm(dtype):
    for shape, groups in (((2, 6, 5), 3), ((3, 4), 2), ((2, 4, 2, 2), 1), ((2, 4, 3), 4)):
        x = make_tensor(shape, dtype, low=-3, high=3)
        weight, bias = _channel_params(shape[1], dtype)[:2]
        yield SampleInput(x, groups, weight, bias, 1e-5)
        yield SampleInput(x, groups)


def errors_group_norm():
    x = make_tensor((2, 6, 5), gt.float32)
    yield ErrorInput(SampleInput(x, 4), RuntimeError,
                     r"^Expected number of channels in input to be divisible by num_groups, "
                     r"but got input of shape \[2, 6, 5\] and num_groups=4$")
    yield ErrorInput(SampleInput(x, 3, gt.ones(5)), RuntimeError,
                     r"^Expected weight to be a vector of size equal to the number of channels "
                     r"in input, but got weight of shape \[5\] and input of shape \[2, 6, 5\]$")


def sample_native_group_norm(dtype):
    for sample in sample_group_norm(dtype):
        x, groups = sample.args[:2]
        weight, bias = (sample.args[2:4] + (None, None))[:2]
        yield SampleInput(x, weight, bias, x.shape[0], x.shape[1], math.prod(x.shape[2:]),
                          groups, 1e-5)


def sample_instance_norm(dtype):
    for shape in SHAPES[1:]:
        x = make_tensor(shape, dtype, low=-3, high=3)
        weight, bias, mean, var = _channel_params(shape[1], dtype)
        yield SampleInput(x, weight, bias, mean.clone(), var.clone(), True, 0.1, 1e-5, False)
        yield SampleInput(x, None, None, None, None, True, 0.1, 1e-5, False)


def sample_pdist(dtype):
    for shape, p in itertools.product(((4, 3), (1, 2), (5, 1)), (0, 1, 1.5, 2, 3, math.inf)):
        yield SampleInput(make_tensor(shape, dtype, low=-3, high=3), p)


def errors_pdist():
    yield ErrorInput(SampleInput(gt.ones(3)), RuntimeError,
                     r"^pdist only supports 2D tensors, got: 1D$")
    yield ErrorInput(SampleInput(gt.ones(3, 2), -1.0), RuntimeError,
                     r"^pdist only supports non-negative p values$")


def sample_cosine_similarity(dtype):
    yield SampleInput(make_tensor((4, 3), dtype), make_tensor((4, 3), dtype, seed=1))
    yield SampleInput(make_tensor((4, 3), dtype), make_tensor((1, 3), dtype, seed=1), 0)
    yield SampleInput(make_tensor((2, 3, 4), dtype), make_tensor((3, 4), dtype, seed=1), -1,
                      1e-3)


def sample_pairwise_distance(dtype):
    for p, keepdim in itertools.product((1, 2, 3.5), (False, True)):
        yield SampleInput(make_tensor((4, 3), dtype), make_tensor((4, 3), dtype, seed=1), p,
                          1e-6, keepdim)
    yield SampleInput(make_tensor((3,), dtype), make_tensor((2, 3), dtype, seed=1))


def _legit_samples(dtype, with_stats=True):
    for sample in sample_native_batch_norm(dtype):
        x, weight, bias, mean, var, training, momentum, eps = sample.args
        # torch's binding: None would be ambiguous; out of training without statistics
        # torch's kernel reads nothing valid (it crashes)
        if mean is None or weight is None or not (with_stats or training):
            continue
        yield SampleInput(x, weight, bias, *((mean, var) if with_stats else ()), training,
                          momentum, eps)


def sample_legit_no_training(dtype):
    for sample in _legit_samples(dtype):
        x, weight, bias, mean, var, training, momentum, eps = sample.args
        if not training:
            yield SampleInput(x, weight, bias, mean, var, momentum, eps)


def sample_with_update(dtype):
    for sample in _legit_samples(dtype):
        x, weight, bias, mean, var, training, momentum, eps = sample.args
        if training:
            yield SampleInput(x, weight, bias, mean, var, momentum, eps)


def _np_with_update(x, weight, bias, mean, var, momentum, eps):
    return _np_native_batch_norm(x, weight, bias, mean, var, True, momentum, eps) + \
        [np.zeros(0, np.uint8)]


def _np_no_update(x, weight, bias, mean, var, momentum, eps):
    return _np_native_batch_norm(x, weight, bias, mean, var, mean is None, momentum, eps) + \
        [np.zeros(0, np.uint8)]


def sample_batch_norm_backward(dtype):
    for sample in sample_native_batch_norm_backward(dtype):
        grad, x, weight, mean, var, save_mean, save_invstd, train, eps, mask = sample.args
        yield SampleInput(grad, x, weight, mean, var, save_mean, save_invstd, train, eps,
                          mask, gt.empty(0, dtype=gt.uint8))


def sample_native_group_norm_backward(dtype):
    for sample in sample_native_group_norm(dtype):
        x, weight, bias, n, c, hxw, groups, eps = sample.args
        if weight is None:
            continue
        _, mean, rstd = gt.native_group_norm(x, weight, bias, n, c, hxw, groups, eps)
        yield SampleInput(make_tensor(x.shape, dtype, seed=5), x, mean, rstd, weight, n, c,
                          hxw, groups, [True, True, True])


def _np_native_group_norm_backward(grad, x, mean, rstd, weight, n, c, hxw, groups, mask):
    rows = _wide(x).reshape(n * groups, -1)
    g = _wide(grad).reshape(n, c, -1)
    normalized = (rows - _wide(mean).reshape(-1, 1)) * _wide(rstd).reshape(-1, 1)
    scaled = (g * _wide(weight).reshape(1, c, 1)).reshape(n * groups, -1)
    gi = _wide(rstd).reshape(-1, 1) * (scaled - scaled.mean(1, keepdims=True) - normalized
                                       * (scaled * normalized).mean(1, keepdims=True))
    return [gi.reshape(x.shape).astype(x.dtype),
            (g * normalized.reshape(n, c, -1)).sum((0, 2)).astype(x.dtype),
            g.sum((0, 2)).astype(x.dtype)]


def sample_pdist_forward(dtype):
    for sample in sample_pdist(dtype):
        yield sample


def sample_pdist_backward(dtype):
    for sample in sample_pdist(dtype):
        x, p = sample.args
        distances = gt.ops.aten._pdist_forward(x, p)
        yield SampleInput(make_tensor(distances.shape, dtype, seed=6), x, p, distances)


def _np_pdist_backward(grad, x, p, distances):
    """By central differences of the reference (exact enough in float64)."""
    wide, step = _wide(x), 1e-6
    found = np.zeros_like(wide)
    for index in np.ndindex(wide.shape):
        plus, minus = wide.copy(), wide.copy()
        plus[index] += step
        minus[index] -= step
        found[index] = (_wide(grad) * (_np_pdist(plus, p) - _np_pdist(minus, p))).sum() / (2 * step)
    return found.astype(x.dtype)


OPS = [
    OpInfo("_native_batch_norm_legit", variants=("_native_batch_norm_legit",),
           ref=_np_native_batch_norm, dtypes=FULL, sample_inputs=_legit_samples),
    OpInfo("_native_batch_norm_legit.no_stats",
           variants=("ops.aten._native_batch_norm_legit.no_stats",),
           ref=lambda x, w, b, t, m, e: _np_native_batch_norm(x, w, b, None, None, t, m, e),
           dtypes=FULL, sample_inputs=lambda dtype: _legit_samples(dtype, False)),
    OpInfo("_native_batch_norm_legit_no_training",
           variants=("_native_batch_norm_legit_no_training",),
           ref=lambda x, w, b, mean, var, m, e: _np_native_batch_norm(x, w, b, mean, var, False,
                                                                      m, e),
           dtypes=FULL, sample_inputs=sample_legit_no_training),
    OpInfo("_batch_norm_with_update", variants=("ops.aten._batch_norm_with_update",),
           ref=_np_with_update, dtypes=FULL, sample_inputs=sample_with_update),
    OpInfo("_batch_norm_no_update", variants=("ops.aten._batch_norm_no_update",), ref=_np_no_update,
           dtypes=FULL, sample_inputs=sample_legit_no_training),
    OpInfo("batch_norm_backward", variants=("ops.aten.batch_norm_backward",),
           ref=lambda *args: _np_native_batch_norm_backward(*args[:10]), dtypes=FULL,
           sample_inputs=sample_batch_norm_backward),
    OpInfo("native_group_norm_backward", variants=("ops.aten.native_group_norm_backward",),
           ref=_np_native_group_norm_backward, dtypes=(gt.float64,),
           sample_inputs=sample_native_group_norm_backward),
    OpInfo("_pdist_forward", variants=("ops.aten._pdist_forward",), ref=_np_pdist, dtypes=(gt.float64,),
           sample_inputs=sample_pdist_forward),
    OpInfo("_pdist_backward", variants=("ops.aten._pdist_backward",), ref=_np_pdist_backward,
           dtypes=(gt.float64,), sample_inputs=sample_pdist_backward),
    OpInfo("native_batch_norm", variants=("native_batch_norm",), ref=_np_native_batch_norm,
           out="native_batch_norm", marks=THREE_OUT,
           dtypes=FULL, sample_inputs=sample_native_batch_norm),
    OpInfo("batch_norm", variants=("batch_norm",), ref=_np_batch_norm, dtypes=FULL,
           sample_inputs=sample_batch_norm, error_inputs=errors_batch_norm),
    OpInfo("native_batch_norm_backward", variants=("ops.aten.native_batch_norm_backward",),
           ref=_np_native_batch_norm_backward, dtypes=FULL,
           sample_inputs=sample_native_batch_norm_backward),
    OpInfo("group_norm", variants=("group_norm",),
           ref=lambda *args: _np_group_norm(*args)[0], dtypes=FLOATING,
           sample_inputs=sample_group_norm, error_inputs=errors_group_norm),
    OpInfo("native_group_norm", variants=("native_group_norm",), ref=_np_native_group_norm,
           dtypes=FLOATING, sample_inputs=sample_native_group_norm),
    OpInfo("instance_norm", variants=("instance_norm",), ref=_np_instance_norm,
           dtypes=FULL, sample_inputs=sample_instance_norm),
    OpInfo("pdist", variants=("pdist", "nn.functional.pdist"), ref=_np_pdist,
           dtypes=FULL, sample_inputs=sample_pdist, error_inputs=errors_pdist),
    OpInfo("cosine_similarity", variants=("cosine_similarity", "nn.functional.cosine_similarity"),
           ref=_np_cosine_similarity, dtypes=FULL, sample_inputs=sample_cosine_similarity),
    OpInfo("pairwise_distance", variants=("pairwise_distance",
                                          "nn.functional.pairwise_distance"),
           ref=_np_pairwise_distance, dtypes=FULL, sample_inputs=sample_pairwise_distance),
]
