"""OpInfo entries for the smooth and gated activations (`aten/native/nn/activation_smooth.py`,
`activation_gated.py`): elu, selu, celu, gelu, silu, mish, softplus, hardsigmoid,
hardswish, log_sigmoid, glu, and their backward operators."""
import math

import numpy as np
import pytest

import glasstorch as gt

from ..core import COMPLEX, FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor
from .db_activation import (GRAD_INPUT, backward_ref, backward_samples, inplace_samples, ref,
                            refused_dtypes, unary_samples)

INTEGRAL_ON_META = (gt.int64, gt.uint8, gt.bool)

_erf = np.vectorize(math.erf, otypes=[np.float64])

SELU = (1.6732632423543772848170429916717, 1.0507009873554804934193349852946)
SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of two results: tested through "
                                                 "log_sigmoid's out=")
                   for test in ("test_out", "test_out_matches_torch")}


# ----- references --------------------------------------------------------------------
def _expit(x):
    return 1 / (1 + np.exp(-x))


def _elu(x, alpha=1.0, scale=1.0, input_scale=1.0):
    return np.where(x > 0, x * scale, np.expm1(x * input_scale) * alpha * scale)


def _elu_backward(grad, alpha, scale, input_scale, is_result, x):
    if is_result:
        negative = grad * input_scale * (x + alpha * scale)
    else:
        negative = grad * input_scale * alpha * scale * np.exp(x * input_scale)
    return np.where(x <= 0, negative, grad * scale)


def _elu_backward_ref(grad, alpha, scale, input_scale, is_result, x):
    with np.errstate(all="ignore"):
        value = _elu_backward(grad.astype(np.float64), alpha, scale, input_scale, is_result,
                              x.astype(np.float64))
    return value.astype(grad.dtype)


def _gelu(x, approximate="none"):
    if approximate == "tanh":
        return 0.5 * x * (1 + np.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))
    return 0.5 * x * (1 + _erf(x / math.sqrt(2)))


def _gelu_backward(grad, x, approximate="none"):
    if approximate == "tanh":
        beta, kappa = math.sqrt(2 / math.pi), 0.044715
        t = np.tanh(beta * (x + kappa * x ** 3))
        return grad * (0.5 * (1 + t) + 0.5 * x * (1 - t * t) * beta * (1 + 3 * kappa * x * x))
    return grad * (0.5 * (1 + _erf(x / math.sqrt(2))) + x * np.exp(-x * x / 2)
                   / math.sqrt(2 * math.pi))


def _silu_backward(grad, x):
    s = _expit(x)
    return grad * s * (1 + x * (1 - s))


def _mish(x):
    return x * np.tanh(np.log1p(np.exp(x)))


def _mish_backward(grad, x):
    t = np.tanh(np.log1p(np.exp(x)))
    return grad * (t + x * _expit(x) * (1 - t * t))


def _softplus(x, beta=1, threshold=20):
    return np.where(x * beta > threshold, x, np.log1p(np.exp(x * beta)) / beta)


def _softplus_backward(grad, x, beta, threshold):
    z = np.exp(x * beta)
    return np.where(x * beta > threshold, grad, grad * z / (z + 1))


def _hardswish_backward(grad, x):
    return np.where(x <= -3, 0.0, np.where(x < 3, grad * (x / 3 + 0.5), grad))


def _log_sigmoid(x):
    return np.minimum(x, 0) - np.log1p(np.exp(-np.abs(x)))


def _log_sigmoid_forward(x):
    wide = x.astype(np.float64)
    with np.errstate(all="ignore"):
        return [_log_sigmoid(wide).astype(x.dtype), np.exp(-np.abs(wide)).astype(x.dtype)]


def _log_sigmoid_backward(grad, x, buffer):
    share = buffer / (1 + buffer)
    return grad * np.where(x < 0, 1 - share, share)


def _glu(x, dim=-1):
    a, b = np.split(x, 2, axis=dim)
    return a * _expit(b)


def _glu_backward(grad, x, dim):
    """torch rounds the gate to a float16 / bfloat16 input's dtype."""
    a, b = np.split(x.astype(np.float64), 2, axis=dim)
    s = _expit(b)
    if x.dtype.itemsize == 2:
        s = s.astype(x.dtype).astype(np.float64)
    value = np.concatenate([grad * s, grad * a * s * (1 - s)], axis=dim)
    return value.astype(x.dtype)


# ----- samples and errors ------------------------------------------------------------
def with_tanh(samples):
    """Each sample as it is, and every other one with ``approximate='tanh'`` too."""
    def sample(dtype):
        for i, each in enumerate(samples(dtype)):
            yield each
            if i % 2 == 0:
                yield SampleInput(*each.args, approximate="tanh")
    return sample


def sample_elu_backward(dtype):
    for sample in backward_samples((1.0, 1.0, 1.0, False), (0.5, 2.0, 1.5, False),
                                   before=True, nan=False)(dtype):
        yield sample
    x = make_tensor((3, 4), dtype, low=-3, high=3)
    result = gt.nn.functional.elu(x, 0.7)
    yield SampleInput(make_tensor((3, 4), dtype, seed=2), 0.7, 1.0, 1.0, True, result)


def sample_log_sigmoid_backward(dtype):
    for grad, x in ((s.args[0], s.args[1]) for s in backward_samples()(dtype)):
        if x.numel() == 0:
            continue
        buffer = gt.from_numpy(np.array(np.exp(-np.abs(x.float().numpy())), order="C"))
        yield SampleInput(grad, x, buffer.to(dtype))


def sample_glu(dtype):
    for shape, dim in (((4,), 0), ((3, 4), -1), ((6, 2), 0), ((2, 3, 4), 2), ((0, 4), 1),
                       ((2, 6, 2), 1)):
        for layout in ("contiguous", "transposed"):
            yield SampleInput(make_tensor(shape, dtype, layout, low=-4, high=4), dim)


def sample_glu_backward(dtype):
    for sample in sample_glu(dtype):
        x, dim = sample.args
        shape = list(x.shape)
        shape[dim] //= 2
        yield SampleInput(make_tensor(tuple(shape), dtype, seed=4), x, dim)


def errors_glu():
    yield ErrorInput(SampleInput(make_tensor((3, 3), gt.float32), 1), RuntimeError,
                     r"^Halving dimension must be even, but dimension 1 is size 3$")
    yield ErrorInput(SampleInput(make_tensor((3, 4), gt.float32), 2), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], but "
                     r"got 2\)$")
    yield from refused_dtypes("glu_cpu", tail=(1,), dtypes=((gt.int64, "Long"),))()


def errors_gelu():
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), approximate="foo"),
                     RuntimeError, r"^approximate argument must be either none or tanh\.$")
    yield from refused_dtypes("GeluKernelImpl")()


def errors_celu():
    yield ErrorInput(SampleInput(make_tensor((3,), gt.float32), 0.0), RuntimeError,
                     r"^ZeroDivisionError: alpha cannot be 0 for CELU$")
    yield from refused_dtypes("elu_cpu")()


def _floating_kernel(kernel: str, on_meta=()):
    return refused_dtypes(kernel, on_meta=on_meta)


OPS = [
    OpInfo("elu", variants=("nn.functional.elu",), ref=ref(_elu),
           sample_inputs=unary_samples((), (0.5,), (2.0,), nan=False),
           error_inputs=_floating_kernel("elu_cpu", INTEGRAL_ON_META), dtypes=FLOATING,
           inplace="nn.functional.elu_", out="ops.aten.elu.out"),
    OpInfo("elu_backward", variants=("ops.aten.elu_backward",), ref=_elu_backward_ref,
           sample_inputs=sample_elu_backward, dtypes=FLOATING,
           out="ops.aten.elu_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("selu", variants=("selu", "nn.functional.selu"), ref=ref(lambda x: _elu(x, *SELU)),
           sample_inputs=unary_samples(nan=False),
           error_inputs=_floating_kernel("elu_cpu", INTEGRAL_ON_META), dtypes=FLOATING),
    OpInfo("selu_", variants=("selu_",), ref=ref(lambda x: _elu(x, *SELU)),
           sample_inputs=inplace_samples(nan=False), dtypes=FLOATING, mutates_input=True),
    OpInfo("celu", variants=("celu", "nn.functional.celu"),
           ref=ref(lambda x, alpha=1.0: _elu(x, alpha, 1.0, 1.0 / alpha)),
           sample_inputs=unary_samples((), (0.5,), (3.0,), nan=False), error_inputs=errors_celu,
           dtypes=FLOATING, inplace="celu_", out="ops.aten.celu.out"),
    OpInfo("gelu", variants=("nn.functional.gelu",), ref=ref(_gelu),
           sample_inputs=with_tanh(unary_samples()),
           error_inputs=errors_gelu, dtypes=FLOATING, inplace="ops.aten.gelu_",
           out="ops.aten.gelu.out"),
    OpInfo("gelu_backward", variants=("ops.aten.gelu_backward",),
           ref=backward_ref(_gelu_backward), sample_inputs=with_tanh(backward_samples()),
           dtypes=FLOATING,
           out="ops.aten.gelu_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("silu", variants=("nn.functional.silu",),
           ref=ref(lambda x: x / (1 + np.exp(-x))), sample_inputs=unary_samples(),
           error_inputs=refused_dtypes("silu_cpu", dtypes=((gt.int64, "Long"), (gt.uint8, "Byte"),
                                                           (gt.bool, "Bool"))),
           dtypes=FLOATING + COMPLEX, inplace="ops.aten.silu_", out="ops.aten.silu.out"),
    OpInfo("sigmoid_backward", variants=("ops.aten.sigmoid_backward",),
           ref=backward_ref(lambda g, y: g * (1 - y) * y),
           sample_inputs=backward_samples(),
           dtypes=FLOATING, out="ops.aten.sigmoid_backward.grad_input",
           marks=GRAD_INPUT),
    OpInfo("tanh_backward", variants=("ops.aten.tanh_backward",),
           ref=backward_ref(lambda g, y: g * (1 - y * y)), sample_inputs=backward_samples(),
           dtypes=FLOATING, out="ops.aten.tanh_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("silu_backward", variants=("ops.aten.silu_backward",),
           ref=backward_ref(_silu_backward), sample_inputs=backward_samples(), dtypes=FLOATING,
           out="ops.aten.silu_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("mish", variants=("nn.functional.mish",), ref=ref(_mish),
           sample_inputs=unary_samples(), error_inputs=_floating_kernel("mish_cpu"),
           dtypes=FLOATING, inplace="ops.aten.mish_", out="ops.aten.mish.out"),
    OpInfo("mish_backward", variants=("ops.aten.mish_backward",),
           ref=backward_ref(_mish_backward), sample_inputs=backward_samples(), dtypes=FLOATING),
    OpInfo("softplus", variants=("nn.functional.softplus",), ref=ref(_softplus),
           sample_inputs=unary_samples((), (2.0, 5.0), (0.5, 1.0), (-1.0, 20)),
           error_inputs=_floating_kernel("softplus_cpu"), dtypes=FLOATING,
           out="ops.aten.softplus.out"),
    OpInfo("softplus_backward", variants=("ops.aten.softplus_backward",),
           ref=backward_ref(_softplus_backward),
           sample_inputs=backward_samples((1, 20), (2.0, 5.0), (0.5, 1.0)), dtypes=FLOATING,
           out="ops.aten.softplus_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("hardsigmoid", variants=("nn.functional.hardsigmoid",),
           ref=ref(lambda x: np.minimum(np.maximum(x + 3, 0), 6) / 6),
           sample_inputs=unary_samples(), error_inputs=_floating_kernel("hardsigmoid_cpu"),
           dtypes=FLOATING, inplace="ops.aten.hardsigmoid_", out="ops.aten.hardsigmoid.out"),
    OpInfo("hardsigmoid_backward", variants=("ops.aten.hardsigmoid_backward",),
           ref=backward_ref(lambda g, x: np.where((x > -3) & (x < 3), g / 6, 0.0)),
           sample_inputs=backward_samples(), dtypes=FLOATING,
           out="ops.aten.hardsigmoid_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("hardswish", variants=("nn.functional.hardswish",),
           ref=ref(lambda x: x * np.minimum(np.maximum(x + 3, 0), 6) / 6),
           sample_inputs=unary_samples(nan=False), error_inputs=_floating_kernel("hardswish_cpu"),
           dtypes=FLOATING, inplace="ops.aten.hardswish_", out="ops.aten.hardswish.out"),
    OpInfo("hardswish_backward", variants=("ops.aten.hardswish_backward",),
           ref=backward_ref(_hardswish_backward), sample_inputs=backward_samples(nan=False),
           dtypes=FLOATING, out="ops.aten.hardswish_backward.out"),
    OpInfo("log_sigmoid", variants=("nn.functional.logsigmoid",), ref=ref(_log_sigmoid),
           sample_inputs=unary_samples(),
           error_inputs=_floating_kernel("log_sigmoid_cpu", (gt.bool,)),
           dtypes=FLOATING, out="ops.aten.log_sigmoid.out"),
    OpInfo("log_sigmoid_forward", variants=("ops.aten.log_sigmoid_forward",),
           ref=_log_sigmoid_forward, sample_inputs=unary_samples(), dtypes=FLOATING,
           out="ops.aten.log_sigmoid_forward.output", marks=SEVERAL_RESULTS),
    OpInfo("log_sigmoid_backward", variants=("ops.aten.log_sigmoid_backward",),
           ref=lambda g, x, b: backward_ref(lambda g, x: _log_sigmoid_backward(
               g, x, b.astype(np.float64)))(g, x),
           sample_inputs=sample_log_sigmoid_backward, dtypes=FLOATING,
           out="ops.aten.log_sigmoid_backward.grad_input", marks=GRAD_INPUT),
    OpInfo("glu", variants=("nn.functional.glu",), ref=ref(_glu), sample_inputs=sample_glu,
           error_inputs=errors_glu, dtypes=FLOATING, out="ops.aten.glu.out"),
    OpInfo("glu_backward", variants=("ops.aten.glu_backward",),
           ref=_glu_backward, sample_inputs=sample_glu_backward,
           dtypes=FLOATING, out="ops.aten.glu_backward.grad_input", marks=GRAD_INPUT),
]
