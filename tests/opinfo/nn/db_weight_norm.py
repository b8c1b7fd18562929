"""OpInfo entries for weight normalization (`aten/native/nn/weight_norm.py`):
norm_except_dim, _weight_norm, the fused _weight_norm_interface and its backward."""
import numpy as np

import glasstorch as gt

from ..core import FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor

# (v's shape, dim): the fused first and last dims, a middle dim, the whole tensor (-1)
CASES = (((3, 4), 0), ((3, 4), 1), ((2, 3, 4), 0), ((2, 3, 4), 2), ((2, 3, 4), 1),
         ((5,), 0), ((2, 3), -1))


def _wide(x):
    return np.asarray(x, dtype=np.float64)


def _np_norm_except_dim(v, pow=2, dim=0):
    wide = _wide(v)
    if dim == -1:
        found = (np.abs(wide) ** pow).sum() ** (1 / pow)
    else:
        axes = tuple(d for d in range(v.ndim) if d != dim)
        found = (np.abs(wide) ** pow).sum(axes, keepdims=True) ** (1 / pow)
    return np.asarray(found).astype(v.dtype)


def _norms(v, dim):
    """The 2-norms of `v` over every dim but `dim` (all of them for -1), kept."""
    wide = _wide(v)
    axes = tuple(range(v.ndim)) if dim == -1 else tuple(d for d in range(v.ndim) if d != dim)
    return np.sqrt((wide * wide).sum(axes, keepdims=True))


def _np_weight_norm(v, g, dim=0):
    norms = _norms(v, dim)
    return (_wide(v) * (_wide(g).reshape(norms.shape) / norms)).astype(v.dtype)


def _np_weight_norm_interface(v, g, dim=0):
    norms = _norms(v, dim)
    norm_dtype = np.float32 if v.dtype.itemsize == 2 else v.dtype
    return [_np_weight_norm(v, g, dim), norms.reshape(g.shape).astype(norm_dtype)]


def _np_weight_norm_backward(grad_w, v, g, norms, dim):
    wide_v, grad = _wide(v), _wide(grad_w)
    n = _norms(v, dim)
    axes = tuple(d for d in range(v.ndim) if d != dim)
    sums = (grad * wide_v).sum(axes, keepdims=True)
    scale = _wide(g).reshape(n.shape) / n
    grad_v = scale * (grad - wide_v * sums / (n * n))
    return [grad_v.astype(v.dtype), (sums / n).reshape(g.shape).astype(g.dtype)]


def _magnitude(shape, dim, dtype, seed=1):
    kept = () if dim == -1 else tuple(s if d == dim else 1 for d, s in enumerate(shape))
    return make_tensor(kept, dtype, seed=seed, low=0.5, high=2)


def sample_norm_except_dim(dtype):
    for shape, dim in CASES:
        for pow in (2, 3):
            yield SampleInput(make_tensor(shape, dtype, low=-2, high=2), pow, dim)


def sample_weight_norm(dtype):
    for shape, dim in CASES:
        yield SampleInput(make_tensor(shape, dtype, low=-2, high=2),
                          _magnitude(shape, dim, dtype), dim)
    yield SampleInput(make_tensor((3, 4), dtype, "transposed", low=-2, high=2),
                      _magnitude((3, 4), 0, dtype))


def sample_weight_norm_interface(dtype):
    for shape, dim in CASES:
        if dim in (0, len(shape) - 1):
            yield SampleInput(make_tensor(shape, dtype, low=-2, high=2),
                              _magnitude(shape, dim, dtype), dim)
    yield SampleInput(make_tensor((3, 4), dtype, low=-2, high=2),
                      make_tensor((3,), dtype, low=0.5, high=2), 0)


def errors_weight_norm_interface():
    v = make_tensor((2, 3, 4), gt.float32)
    yield ErrorInput(SampleInput(v, gt.ones(1, 3, 1), 1), RuntimeError,
                     r"^dim == 0 \|\| dim == v\.dim\(\) - 1 INTERNAL ASSERT FAILED at .*, please "
                     r"report a bug to PyTorch\. fused "
                     r"kernels can only be applied for first or last dim$",
                     known_bug="torch's internal assert names its C++ source file and line; "
                               "glasstorch's message keeps the rest")
    yield ErrorInput(SampleInput(v, gt.ones(2, 1, 1, dtype=gt.float64), 0), RuntimeError,
                     r"^expected scalar type Float but found Double$",
                     known_bug_on_meta="on meta torch promotes the results' dtypes and "
                                       "raises nothing; glasstorch keeps v's dtype")


def sample_weight_norm_interface_backward(dtype):
    for sample in sample_weight_norm_interface(dtype):
        v, g, dim = sample.args
        _, norms = gt._weight_norm_interface(v, g, dim)
        yield SampleInput(make_tensor(tuple(v.shape), dtype, seed=3), v, g, norms, dim)


OPS = [
    OpInfo("norm_except_dim", variants=("norm_except_dim",), ref=_np_norm_except_dim,
           dtypes=(gt.float32, gt.float64), sample_inputs=sample_norm_except_dim),
    OpInfo("_weight_norm", variants=("_weight_norm",), ref=_np_weight_norm, dtypes=FLOATING,
           sample_inputs=sample_weight_norm),
    OpInfo("_weight_norm_interface", variants=("_weight_norm_interface",),
           ref=_np_weight_norm_interface, dtypes=FLOATING,
           sample_inputs=sample_weight_norm_interface,
           error_inputs=errors_weight_norm_interface),
    OpInfo("_weight_norm_interface_backward",
           variants=("ops.aten._weight_norm_interface_backward",),
           ref=_np_weight_norm_backward, dtypes=(gt.float32, gt.float64),
           sample_inputs=sample_weight_norm_interface_backward),
]
