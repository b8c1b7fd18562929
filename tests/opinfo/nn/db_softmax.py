"""OpInfo entries for softmax and log_softmax (`aten/native/nn/softmax.py`): the public
`softmax.int` / `log_softmax.int`, the kernels `_softmax` / `_log_softmax` and the fused
backward operators `_softmax_backward_data` / `_log_softmax_backward_data`."""
import numpy as np
import pytest

import glasstorch as gt

from ..convert import numpy_dtype, to_numpy
from ..core import (FLOATING, ErrorInput, OpInfo, SampleInput, make_tensor, tensors)

INF = float("inf")
OUT_OF_RANGE = r"^Dimension out of range \(expected to be in range of \[-2, 1\], but got 2\)$"
GRAD_INPUT = {test: pytest.mark.skip(reason="torch names this out= argument grad_input: "
                                           "tests/nn/test_activation.py writes it")
              for test in ("test_out", "test_out_matches_torch")}
META_DIM = "softmax: torch's meta registration of _softmax does not check dim"
META_BOOL = ("softmax: torch's meta registration of _log_softmax computes x - max, which "
             "refuses bool in the subtraction's words")
META_INTEGRAL = ("softmax: torch's meta registration of _log_softmax_backward_data computes "
                 "with exp, so an integral grad gives a float32 result")
META_SIZES = ("softmax: torch's meta registration has no size check of its own and fails "
              "later with a broadcasting message")


# ----- references --------------------------------------------------------------------
def _axis(x, dim):
    return dim % x.ndim if x.ndim else None


def _np_softmax(x, dim, log=False, dtype=None):
    """(log_)softmax in float64, rounded to the result dtype (`dtype`, else x's).

    torch's last-dim log_softmax kernel keeps the sum of exponentials and its log in
    float16 / bfloat16 for those dtypes: rounded here too.
    """
    result = x.dtype if dtype is None else numpy_dtype(dtype)
    wide = x.astype(np.float64)
    axis = _axis(x, dim)
    if wide.size == 0:
        return wide.astype(result)
    low = result.itemsize == 2 and (axis is None or axis == x.ndim - 1)
    with np.errstate(all="ignore"):
        shifted = wide - np.max(wide, axis=axis, keepdims=True)
        total = np.sum(np.exp(shifted), axis=axis, keepdims=True)
        if log and low:
            logged = np.log(total.astype(result).astype(np.float64))
            value = shifted - logged.astype(result).astype(np.float64)
        else:
            value = shifted - np.log(total) if log else np.exp(shifted) / total
    return np.asarray(value).astype(result)


def _np_backward(grad, output, dim, input_dtype, log=False):
    axis = _axis(grad, dim)
    g, y = grad.astype(np.float64), output.astype(np.float64)
    if log:
        value = g - np.exp(y) * np.sum(g, axis=axis, keepdims=True)
    else:
        value = y * (g - np.sum(g * y, axis=axis, keepdims=True))
    return value.astype(grad.dtype)


# ----- samples -----------------------------------------------------------------------
def _dims(x):
    """The first and the last dim (one dim for 0- and 1-dim tensors), and a middle one."""
    if x.dim() <= 1:
        return (0, -1)[:1 + (x.dim() == 0)]
    return (0, -1) if x.dim() == 2 else (0, 1, -1)


def _special(dtype):
    """Large values (exp overflows without the max shift), infinities and NaN."""
    return gt.tensor([[1000., 999., -1000.], [INF, 1., 0.], [-INF, -INF, -INF],
                      [float("nan"), 1., 2.]]).to(dtype)


def sample_kernel(dtype):
    """`_softmax(x, dim, False)` over every standard shape, layout and dim."""
    for x in tensors(dtype, low=-5, high=5):
        for dim in _dims(x):
            yield SampleInput(x, dim, False)
    yield SampleInput(_special(dtype), 1, False)
    yield SampleInput(_special(dtype), 0, False)


def sample_public(dtype):
    """`softmax(x, dim)` as `sample_kernel`, plus conversions by dtype=."""
    for sample in sample_kernel(dtype):
        yield SampleInput(*sample.args[:2])
    x = make_tensor((3, 4), dtype, low=-5, high=5)
    yield SampleInput(x, 1, dtype=gt.float64)
    if dtype.itemsize == 2:         # computed in float32, as the dtype= argument is for
        yield SampleInput(x, 0, dtype=gt.float32)


def _sample_backward(log: bool):
    def sample(dtype):
        for x in tensors(dtype, low=-3, high=3):
            for dim in _dims(x):
                output = gt.from_numpy(np.array(_np_softmax(to_numpy(x), dim, log), order="C"))
                grad = make_tensor(tuple(x.shape), dtype, low=-2, high=2, seed=3)
                yield SampleInput(grad, output, dim, dtype)
    return sample


# ----- errors ------------------------------------------------------------------------
def _errors_kernel(name: str, *head):
    """Errors of `name` (softmax / log_softmax), called with `head` after (x, dim)."""
    log = name == "log_softmax"

    def errors():
        x = make_tensor((3, 4), gt.float32)
        yield ErrorInput(SampleInput(x, 2, *head), IndexError, OUT_OF_RANGE,
                         known_bug_on_meta=None if log else META_DIM)
        for dtype, spelled in ((gt.int64, "Long"), (gt.bool, "Bool"),
                               (gt.complex64, "ComplexFloat")):
            y = make_tensor((3, 4), dtype)
            on_meta = META_BOOL if log and dtype is gt.bool else None
            yield ErrorInput(SampleInput(y, 1, *head), NotImplementedError,
                             rf'^"{name}_lastdim_kernel_impl" not implemented for '
                             rf"'{spelled}'$", known_bug_on_meta=on_meta)
            yield ErrorInput(SampleInput(y, 0, *head), NotImplementedError,
                             rf'^"{name}_kernel_impl" not implemented for \'{spelled}\'$',
                             known_bug_on_meta=on_meta)
    return errors


def _errors_half_to_float(name: str):
    def errors():
        yield from _errors_kernel(name, False)()
        for dtype in (gt.float16, gt.float32):
            yield ErrorInput(SampleInput(make_tensor((3,), dtype), 0, True), RuntimeError,
                             r"^softmax with half to float conversion is not supported on "
                             r"CPU$")
    return errors


def _errors_backward(name: str):
    log = name == "log_softmax_backward"

    def errors():
        x = make_tensor((3,), gt.float32)
        if not log:         # torch's log_softmax_backward reads past the smaller output
            yield ErrorInput(SampleInput(x, x[:2], 0, gt.float32), RuntimeError,
                             rf"^Expected tensor for argument #1 'grad' to have same size as "
                             rf"tensor for argument #2 'output'; but \[3\] does not equal "
                             rf"\[2\] \(while checking arguments for {name}\)$",
                             known_bug_on_meta=META_SIZES)
        yield ErrorInput(SampleInput(x.double(), x, 0, gt.float32), RuntimeError,
                         r"^expected scalar type Double but found Float$")
        yield ErrorInput(SampleInput(x, x, 0, gt.float16), RuntimeError,
                         r"^expected scalar type Float but found Half$")
        yield ErrorInput(SampleInput(x, x, 1, gt.float32), IndexError,
                         r"^Dimension out of range \(expected to be in range of \[-1, 0\], "
                         r"but got 1\)$")
        y = make_tensor((2, 3), gt.int64)
        on_meta = META_INTEGRAL if log else None
        yield ErrorInput(SampleInput(y, y, 1, gt.int64), NotImplementedError,
                         rf'^"{name}_lastdim_kernel_impl" not implemented for \'Long\'$',
                         known_bug_on_meta=on_meta)
        yield ErrorInput(SampleInput(y, y, 0, gt.int64), NotImplementedError,
                         rf'^"{name}_kernel_impl" not implemented for \'Long\'$',
                         known_bug_on_meta=on_meta)
    return errors


OPS = [
    OpInfo("softmax.int", variants=("softmax", "Tensor.softmax", "nn.functional.softmax"),
           ref=lambda x, dim, dtype=None: _np_softmax(x, dim, False, dtype),
           sample_inputs=sample_public, error_inputs=_errors_kernel("softmax"),
           dtypes=FLOATING, out="softmax"),
    OpInfo("log_softmax.int",
           variants=("log_softmax", "Tensor.log_softmax", "nn.functional.log_softmax"),
           ref=lambda x, dim, dtype=None: _np_softmax(x, dim, True, dtype),
           sample_inputs=sample_public, error_inputs=_errors_kernel("log_softmax"),
           dtypes=FLOATING, out="log_softmax"),
    OpInfo("_softmax", variants=("_softmax",),
           ref=lambda x, dim, half_to_float: _np_softmax(x, dim),
           sample_inputs=sample_kernel, error_inputs=_errors_half_to_float("softmax"),
           dtypes=FLOATING, out="_softmax"),
    OpInfo("_log_softmax", variants=("_log_softmax",),
           ref=lambda x, dim, half_to_float: _np_softmax(x, dim, True),
           sample_inputs=sample_kernel, error_inputs=_errors_half_to_float("log_softmax"),
           dtypes=FLOATING, out="_log_softmax"),
    OpInfo("_softmax_backward_data", variants=("_softmax_backward_data",),
           ref=_np_backward, sample_inputs=_sample_backward(False),
           error_inputs=_errors_backward("softmax_backward"), dtypes=FLOATING,
           out="ops.aten._softmax_backward_data.out", marks=GRAD_INPUT),
    OpInfo("_log_softmax_backward_data", variants=("_log_softmax_backward_data",),
           ref=lambda g, y, dim, input_dtype: _np_backward(g, y, dim, input_dtype, True),
           sample_inputs=_sample_backward(True),
           error_inputs=_errors_backward("log_softmax_backward"), dtypes=FLOATING,
           out="_log_softmax_backward_data"),
]
