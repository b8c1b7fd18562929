"""OpInfo entries for the margin losses of `aten/native/nn/loss_margin.py`:
multi_margin_loss, multilabel_margin_loss (and its forward), and their backward
operators. The references compute in float64 from the losses' definitions (torch's
kernels add in the input's dtype: float32 agrees to rounding)."""
import numpy as np
import pytest

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor

DTYPES = (gt.float32, gt.float64)
GRAD_INPUT = {test: pytest.mark.skip(reason="torch names this out= argument grad_input")
              for test in ("test_out", "test_out_matches_torch")}
SEVERAL_RESULTS = {test: pytest.mark.skip(reason="out= of two results (output, is_target): "
                                          "checked through multilabel_margin_loss.out")
                   for test in ("test_out", "test_out_matches_torch")}
META_WORDING = ("loss_margin: torch's meta multi_margin_loss is a Python function: it words "
                "sizes as torch.Size(...), the target's size check 'inconsistent target size', "
                "and reads the target's dtype through gather()")
CASES = (((5, 7), [0, 6, 3, 3, 1]), ((7,), [2]), ((7,), 2), ((), 0))


# ----- references --------------------------------------------------------------------
def _rows(x, target, p, margin, weight):
    """Per class: the gap z, the mask of the classes that cost, and the target indices."""
    rows, classes = (1, max(x.size, 1)) if x.ndim <= 1 else x.shape
    v = x.astype(np.float64).reshape(rows, classes)
    t = np.asarray(target).reshape(rows)
    z = margin - v[np.arange(rows), t][:, None] + v
    costs = (z > 0) & (np.arange(classes) != t[:, None])
    scale = np.ones(rows) if weight is None else weight.astype(np.float64)[t]
    return z, costs, t, scale[:, None]


def _multi_margin_ref(x, target, p=1, margin=1, weight=None, reduction=1):
    z, costs, t, scale = _rows(x, target, p, margin, weight)
    per_row = (np.where(costs, z if p == 1 else z * z, 0) * scale).sum(1) / z.shape[1]
    if reduction == 0 and np.ndim(target) > 0:
        return per_row.astype(x.dtype)
    total = per_row.sum()
    return np.asarray(total / per_row.size if reduction == 1 else total).astype(x.dtype)


def _multi_margin_backward_ref(grad, x, target, p, margin, weight=None, reduction=1):
    z, costs, t, scale = _rows(x, target, p, margin, weight)
    rows, classes = z.shape
    g = 1 / (rows * classes) if reduction == 1 else 1 / classes
    slopes = np.where(costs, g if p == 1 else 2 * g * z, 0) * scale
    slopes[np.arange(rows), t] = -slopes.sum(1)
    incoming = grad.astype(np.float64)
    incoming = incoming.reshape(rows, 1) if reduction == 0 and incoming.ndim else incoming
    return (slopes * incoming).reshape(x.shape).astype(x.dtype)


# ----- samples -----------------------------------------------------------------------
def sample_multi_margin(dtype):
    for i, (shape, target) in enumerate(CASES):
        x = make_tensor(shape, dtype, low=-2, high=2)
        weight = make_tensor((shape[-1] if shape else 1,), dtype, low=0.1, high=2, seed=3)
        for reduction in (0, 1, 2):
            yield SampleInput(x, gt.tensor(target), 1 + (i + reduction) % 2, 0.5 + i,
                              weight if reduction == 1 else None, reduction)


def sample_multi_margin_backward(dtype):
    for sample in sample_multi_margin(dtype):
        x, target, p, margin, weight, reduction = sample.args
        shape = (target.numel(),) if reduction == 0 and target.dim() > 0 else ()
        grad = make_tensor(shape, dtype, low=0.1, high=1, seed=4)
        yield SampleInput(grad, x, target, p, margin, weight, reduction)


# ----- errors ------------------------------------------------------------------------
def errors_multi_margin():
    x, target = make_tensor((3, 4), gt.float32), gt.tensor([0, 1, 1])
    yield ErrorInput(SampleInput(x, target, 3), RuntimeError,
                     r"^only p == 1 and p == 2 supported$")
    yield ErrorInput(SampleInput(make_tensor((2, 0), gt.float32), gt.tensor([0, 1])),
                     RuntimeError, r"^Expected non-empty vector or matrix with optional 0-dim "
                                   r"batch size, but got: \[2, 0\]$",
                     known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(x, gt.tensor([0, 1])), RuntimeError,
                     r"^multi_margin_loss: target tensor should be 1-D with size equal to the "
                     r"number of input samples \(batch size\)\. Expected target size \[3\], "
                     r"but got \[2\]\. Input has shape \[3, 4\]\.$",
                     known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(x, target, 1, 1, gt.ones(3)), RuntimeError,
                     r"^inconsistent weight size, expected 4 but got \[3\]$",
                     known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(x, target.float()), RuntimeError,
                     r"^expected scalar type Long but found Float$",
                     known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(x, gt.tensor([0, 4, 1])), RuntimeError,
                     r"^target out of range$")
    yield ErrorInput(SampleInput(x.int(), target), NotImplementedError,
                     r"^\"multi_margin_loss_cpu_kernel\" not implemented for 'Int'$",
                     known_bug_on_meta="loss_margin: torch's meta kernel accepts any dtype")


# ----- multilabel_margin_loss ------------------------------------------------------------
MULTILABEL_CASES = (((3, 4), [[3, 0, -1, 1], [1, 2, 3, -1], [-1, 0, 0, 0]]),
                    ((2, 5), [[1, 1, -1, 2, 2], [4, -1, -1, -1, -1]]),
                    ((4,), [3, 0, -1, 1]), ((), 0))


def _multilabel_pairs(x, target):
    rows, classes = (1, max(x.size, 1)) if x.ndim <= 1 else x.shape
    v = x.astype(np.float64).reshape(rows, classes)
    t = np.asarray(target).reshape(rows, classes)
    marks = np.zeros((rows, classes), dtype=bool)
    gaps = np.zeros((rows, classes, classes))         # (row, target slot, class)
    for row in range(rows):
        listed = list(t[row][:list(t[row]).index(-1)] if -1 in t[row] else t[row])
        marks[row, listed] = True
        for slot, y in enumerate(listed):
            gaps[row, slot] = np.where(marks[row], 0, np.maximum(1 - v[row, y] + v[row], 0))
    return marks, gaps, t


def _multilabel_forward_ref(x, target, reduction):
    marks, gaps, _ = _multilabel_pairs(x, target)
    per_row = gaps.sum((1, 2)) / marks.shape[1]
    output = per_row if reduction == 0 and np.ndim(target) > 1 else (
        per_row.mean() if reduction == 1 else per_row.sum())
    return (np.asarray(output).astype(x.dtype),
            marks.reshape(np.shape(target)).astype(x.dtype))


def _multilabel_ref(x, target, reduction=1):
    return _multilabel_forward_ref(x, target, reduction)[0]


def _multilabel_backward_ref(grad, x, target, reduction, is_target):
    marks, gaps, t = _multilabel_pairs(x, target)
    rows, classes = marks.shape
    g = 1 / (rows * classes) if reduction == 1 else 1 / classes
    costing = gaps > 0
    slopes = costing.sum(1) * g
    for row in range(rows):
        for slot in range(classes):
            if costing[row, slot].any():
                slopes[row, t[row, slot]] -= costing[row, slot].sum() * g
    incoming = grad.astype(np.float64)
    incoming = incoming.reshape(rows, 1) if reduction == 0 and incoming.ndim else incoming
    return (slopes * incoming).reshape(x.shape).astype(x.dtype)


def sample_multilabel(dtype):
    for shape, target in MULTILABEL_CASES:
        x = make_tensor(shape, dtype, low=-1, high=1)
        for reduction in (0, 1, 2):
            yield SampleInput(x, gt.tensor(target), reduction)


def sample_multilabel_backward(dtype):
    for sample in sample_multilabel(dtype):
        x, target, reduction = sample.args
        output, is_target = gt.ops.aten.multilabel_margin_loss_forward(x, target, reduction)
        grad = make_tensor(output.shape, dtype, low=0.1, high=1, seed=4)
        yield SampleInput(grad, x, target, reduction, is_target)


def errors_multilabel():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, gt.zeros(2, 4, dtype=gt.int64), 1), RuntimeError,
                     r"^inconsistent target size: \[2, 4\] for input of size: \[3, 4\]$",
                     known_bug_on_meta=META_WORDING)
    yield ErrorInput(SampleInput(x, gt.tensor([[-1, 5, 0, 0]] * 3), 1), RuntimeError,
                     r"^argument #2 'target' is out of range$")
    yield ErrorInput(SampleInput(x, gt.zeros(3, 4), 1), RuntimeError,
                     r"^expected scalar type Long but found Float$",
                     known_bug_on_meta=META_WORDING)


OPS = [
    OpInfo("multi_margin_loss", variants=("ops.aten.multi_margin_loss",),
           ref=_multi_margin_ref, sample_inputs=sample_multi_margin,
           error_inputs=errors_multi_margin, dtypes=DTYPES,
           out="ops.aten.multi_margin_loss"),
    OpInfo("multi_margin_loss_backward", variants=("ops.aten.multi_margin_loss_backward",),
           ref=_multi_margin_backward_ref, sample_inputs=sample_multi_margin_backward,
           dtypes=DTYPES, out="ops.aten.multi_margin_loss_backward", marks=GRAD_INPUT),
]
OPS += [
    OpInfo("multilabel_margin_loss", variants=("ops.aten.multilabel_margin_loss",),
           ref=_multilabel_ref, sample_inputs=sample_multilabel, error_inputs=errors_multilabel,
           dtypes=DTYPES, out="ops.aten.multilabel_margin_loss"),
    OpInfo("multilabel_margin_loss_forward",
           variants=("ops.aten.multilabel_margin_loss_forward",),
           ref=_multilabel_forward_ref, sample_inputs=sample_multilabel, dtypes=DTYPES,
           out="ops.aten.multilabel_margin_loss_forward", marks=SEVERAL_RESULTS),
    OpInfo("multilabel_margin_loss_backward",
           variants=("ops.aten.multilabel_margin_loss_backward",),
           ref=_multilabel_backward_ref, sample_inputs=sample_multilabel_backward,
           dtypes=DTYPES, out="ops.aten.multilabel_margin_loss_backward", marks=GRAD_INPUT),
]
