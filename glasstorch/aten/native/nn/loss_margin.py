"""The multi-class margin loss (multi_margin_loss and its backward operator).

Note [Multi-class margin loss]
    For a row x of C class scores and its target class y, every other class i whose
    score comes within `margin` of the target's costs ``z = margin - x[y] + x[i]`` (p = 1)
    or ``z^2`` (p = 2), times ``weight[y]``; the row's loss is their sum over C (the
    target's own term left out, but counted in C). torch's CPU kernel computes each row
    in the input's dtype, adding the terms in class order, and reduces the rows in
    double: the kernels here do the same, so float32 results are torch's to the bit.
    The gradient of a cost term is ``g`` (p = 1) or ``2 g z`` (p = 2) for class i and its
    negative for class y, with ``g = 1 / C`` (``1 / (N C)`` for a mean), times the
    weight and the incoming gradient.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...registry import TensorMeta, composite, op
from ...schema import SchemaKind
from .loss_regression import MEAN, NONE

_REFUSED = "refuses_requires_grad"      # torch's derivatives leave the weights out
_KERNEL = "multi_margin_loss_cpu_kernel"


def _frames(self) -> tuple:
    """(rows, classes) of a 0-D, ``(C)`` or ``(N, C)`` input, refusing other shapes."""
    size = self._size
    if not (len(size) == 0 or (len(size) == 1 and size[0] != 0)
            or (len(size) == 2 and size[1] != 0)):
        raise RuntimeError(f"Expected non-empty vector or matrix with optional 0-dim batch "
                           f"size, but got: {list(size)}")
    if len(size) <= 1:
        return 1, (size[0] if size else 1)
    return size[0], size[1]


def _check_arguments(self, target, p, weight) -> tuple:
    """torch's checks in its order: p, the shapes, then the operands' dtypes."""
    if p not in (1, 2):
        raise RuntimeError("only p == 1 and p == 2 supported")
    rows, classes = _frames(self)
    if target.dim() > 1 or target.numel() != rows:
        raise RuntimeError(f"multi_margin_loss: target tensor should be 1-D with size equal to "
                           f"the number of input samples (batch size). Expected target size "
                           f"[{rows}], but got {list(target._size)}. Input has shape "
                           f"{list(self._size)}.")
    if weight is not None and (weight.dim() > 1 or weight.numel() != classes):
        raise RuntimeError(f"inconsistent weight size, expected {classes} but got "
                           f"{list(weight._size)}")
    for operand, expected in ((target, dtypes.int64), (weight, self._dtype)):
        if operand is not None and operand._dtype is not expected:
            raise RuntimeError(f"expected scalar type {scalar_type_name(expected)} but found "
                               f"{scalar_type_name(operand._dtype)}")
    if self._dtype not in (dtypes.float32, dtypes.float64):
        raise NotImplementedError(f'"{_KERNEL}" not implemented for '
                                  f"'{scalar_type_name(self._dtype)}'")
    return rows, classes


def _check_out_dtype(self, out) -> None:
    """torch's kernels write an out= of the input's dtype only."""
    if out is not None and out._dtype is not self._dtype:
        raise RuntimeError(f"expected scalar type {scalar_type_name(self._dtype)} but found "
                           f"{scalar_type_name(out._dtype)}")


def _multi_margin_meta(self, target, p=1, margin=1, weight=None, reduction=MEAN,
                       out=None) -> TensorMeta:
    rows, _ = _check_arguments(self, target, p, weight)
    _check_out_dtype(self, out)
    shape = (rows,) if reduction == NONE and target.dim() > 0 else ()
    return TensorMeta(shape, self._dtype)


def _costs(self, target, p, margin, weight) -> tuple:
    """Each row's cost terms ``(N, C)`` in the input's dtype (zero where a class costs
    nothing, and at the target), their `z`, and the mask of the classes that cost."""
    dtype = self.dtype
    rows, classes = (1, max(self.size, 1)) if self.ndim <= 1 else self.shape
    x = self.reshape(rows, classes)
    t = np.asarray(target).reshape(rows)
    if ((t < 0) | (t >= classes)).any():
        raise RuntimeError("target out of range")
    z = (dtype.type(margin) - x[np.arange(rows), t][:, None]) + x
    costs = (z > 0) & (np.arange(classes) != t[:, None])
    terms = z if p == 1 else z * z
    if weight is not None:
        terms = terms * np.asarray(weight).reshape(-1)[t][:, None]
    return np.where(costs, terms, dtype.type(0)), z, costs, t


@op("multi_margin_loss(Tensor self, Tensor target, Scalar p=1, Scalar margin=1, "
    "Tensor? weight=None, int reduction=1) -> Tensor", meta=_multi_margin_meta, out=True,
    python_module="nn",
    grad={"self": "multi_margin_loss_backward(grad, self, target, p, margin, weight, "
                  "reduction)", "weight": _REFUSED})
def multi_margin_loss(self, target, p, margin, weight, reduction, *, out):
    """The multi-class margin (hinge) loss of class scores against target classes
    (Note [Multi-class margin loss]).

    Args:
        input (Tensor): scores ``(N, C)``, ``(C)`` or ``()``, float32 or float64.
        target (Tensor): class indices (int64), ``(N)`` or ``()``.
        p (Scalar): 1 or 2, the power of each cost. Default: 1.
        margin (Scalar): the gap asked between the target's score and the others'.
            Default: 1.
        weight (Tensor, optional): a weight per class, ``(C)``.
        reduction (int): 0 none, 1 mean, 2 sum.

    Example::

        >>> torch.ops.aten.multi_margin_loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]),
        ...                                  torch.tensor([3]))
        tensor(0.3250)
    """
    terms, _, _, _ = _costs(self, target, p, margin, weight)
    dtype = self.dtype
    per_row = np.cumsum(terms, axis=1, dtype=dtype)[:, -1] / dtype.type(terms.shape[1])
    if out.ndim:                          # unreduced, one loss per row
        np.copyto(out, per_row)
        return
    total = np.cumsum(per_row.astype(np.float64))[-1] if per_row.size else 0.0
    np.copyto(out, total / per_row.size if reduction == MEAN else total, casting="unsafe")


def _multi_margin_backward_meta(grad_output, self, target, p, margin, weight=None,
                                reduction=MEAN, grad_input=None) -> TensorMeta:
    _check_arguments(self, target, p, weight)
    return TensorMeta(self._size, self._dtype)


@op("multi_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target, Scalar p, "
    "Scalar margin, Tensor? weight=None, int reduction=1) -> Tensor",
    meta=_multi_margin_backward_meta, out=True, out_overload="grad_input",
    out_names=("grad_input",), function=False)
def multi_margin_loss_backward(grad_output, self, target, p, margin, weight, reduction, *,
                               out):
    """The gradient of `multi_margin_loss` for its input (Note [Multi-class margin
    loss])."""
    dtype = self.dtype
    _, z, costs, t = _costs(self, target, p, margin, weight)
    rows, classes = z.shape
    scale = 1.0 / (rows * classes) if reduction == MEAN else 1.0 / classes
    g = dtype.type(scale)
    slopes = np.broadcast_to(g, z.shape) if p == 1 else dtype.type(2) * g * z
    if weight is not None:
        slopes = slopes * np.asarray(weight).reshape(-1)[t][:, None]
    slopes = np.where(costs, slopes, dtype.type(0))
    slopes[np.arange(rows), t] = -np.cumsum(slopes, axis=1, dtype=dtype)[:, -1]
    incoming = np.asarray(grad_output)
    if reduction == NONE and incoming.ndim > 0:
        slopes = slopes * incoming.reshape(rows, 1)
    else:
        slopes = slopes * incoming.reshape(())
    np.copyto(out, slopes.reshape(out.shape))


# ----------------------------------------------------------------------------------
# multilabel_margin_loss
# ----------------------------------------------------------------------------------
# Note [Multi-label margin loss]
#     A row's target lists its classes up to the first -1; every (target class y,
#     other class i) pair whose scores come within 1 costs ``1 - x[y] + x[i]``, the sum
#     over pairs divided by C. The forward also returns `is_target`, the row's classes
#     marked 1 (in the input's dtype), which the backward reads: each costing pair adds
#     ``g`` to class i's gradient and takes it from class y's (``g = 1 / C``, or
#     ``1 / (N C)`` for a mean).
_MULTILABEL_KERNEL = "multilabel_margin_loss_forward_out_frame"


def _multilabel_frames(self, target) -> tuple:
    rows, classes = _frames(self)
    expected = (self._size if self.dim() == 2 else None)
    if (expected is not None and target._size != expected) or (
            expected is None and (target.dim() > 1 or target.numel() != classes)):
        raise RuntimeError(f"inconsistent target size: {list(target._size)} for input of "
                           f"size: {list(self._size)}")
    if target._dtype is not dtypes.int64:
        raise RuntimeError(f"expected scalar type Long but found "
                           f"{scalar_type_name(target._dtype)}")
    if self._dtype not in (dtypes.float32, dtypes.float64):
        raise NotImplementedError(f'"{_MULTILABEL_KERNEL}" not implemented for '
                                  f"'{scalar_type_name(self._dtype)}'")
    return rows, classes


def _multilabel_meta(self, target, reduction) -> tuple:
    rows, _ = _multilabel_frames(self, target)
    shape = (rows,) if reduction == NONE and target.dim() > 1 else ()
    return TensorMeta(shape, self._dtype), TensorMeta(target._size, self._dtype)


def _pairs(self, target) -> tuple:
    """The marks of each row's target classes ``(N, C)``, and the costs of every
    (listed target, class) pair ``(N, C, C)``, zero where a pair costs nothing."""
    rows, classes = (1, max(self.size, 1)) if self.ndim <= 1 else self.shape
    x = self.reshape(rows, classes)
    t = np.asarray(target).reshape(rows, classes)
    if t.size and (t.min() < -1 or t.max() >= classes):
        raise RuntimeError("argument #2 'target' is out of range")
    listed = np.cumprod(t >= 0, axis=1).astype(bool)      # up to the first -1
    marks = np.zeros((rows, classes), dtype=bool)
    marks[np.nonzero(listed)[0], t[listed]] = True
    scores = np.take_along_axis(x, np.where(listed, t, 0), axis=1)     # x[y] per slot
    z = (self.dtype.type(1) - scores[:, :, None]) + x[:, None, :]
    costing = listed[:, :, None] & ~marks[:, None, :] & (z > 0)
    return marks, np.where(costing, z, self.dtype.type(0)), t, costing


@op("multilabel_margin_loss_forward(Tensor self, Tensor target, int reduction) -> "
    "(Tensor output, Tensor is_target)", meta=_multilabel_meta, out=True,
    out_overload="output", python_module="nn",
    function=False,
    grad={"self": "multilabel_margin_loss_backward(grad, self, target, reduction, is_target)",
          "target": "non_differentiable", "output_differentiability": (True, False)})
def multilabel_margin_loss_forward(self, target, reduction, *, out):
    """The multi-label margin loss and the marks of the target classes (Note
    [Multi-label margin loss]).

    Example::

        >>> torch.ops.aten.multilabel_margin_loss_forward(
        ...     torch.tensor([[0.1, 0.2, 0.4, 0.8]]), torch.tensor([[3, 0, -1, 1]]), 1)[0]
        tensor(0.8500)
    """
    output, is_target = out
    marks, costs, _, _ = _pairs(self, target)
    rows, classes = marks.shape
    per_row = costs.reshape(rows, -1).astype(np.float64).sum(1)
    np.copyto(is_target, marks.reshape(is_target.shape))
    if output.ndim:
        np.copyto(output, (per_row / classes).astype(self.dtype))
        return
    total = per_row.sum() / classes
    np.copyto(output, total / rows if reduction == MEAN else total, casting="unsafe")


def _multilabel_backward_meta(grad_output, self, target, reduction, is_target,
                              grad_input=None) -> TensorMeta:
    _multilabel_frames(self, target)
    return TensorMeta(self._size, self._dtype)


@op("multilabel_margin_loss_backward(Tensor grad_output, Tensor self, Tensor target, "
    "int reduction, Tensor is_target) -> Tensor", meta=_multilabel_backward_meta, out=True,
    out_overload="grad_input", out_names=("grad_input",), function=False)
def multilabel_margin_loss_backward(grad_output, self, target, reduction, is_target, *, out):
    """The gradient of the multi-label margin loss for its input (Note [Multi-label
    margin loss])."""
    _, _, t, costing = _pairs(self, target)
    rows, classes = costing.shape[0], costing.shape[2]
    g = self.dtype.type(1.0 / (rows * classes) if reduction == MEAN else 1.0 / classes)
    gained = costing.sum(1)                            # per class i: its costing pairs
    lost = np.zeros((rows, classes))
    np.add.at(lost, (np.repeat(np.arange(rows), classes), np.where(t >= 0, t, 0).ravel()),
              costing.sum(2).ravel())
    slopes = ((gained - lost) * g).astype(self.dtype)
    incoming = np.asarray(grad_output)
    if reduction == NONE and incoming.ndim > 0:
        slopes = slopes * incoming.reshape(rows, 1)
    else:
        slopes = slopes * incoming.reshape(())
    np.copyto(out, slopes.reshape(out.shape))


@composite("multilabel_margin_loss(Tensor self, Tensor target, int reduction=1) -> Tensor",
           out=True, python_module="nn")
def multilabel_margin_loss(self, target, reduction=MEAN, out=None):
    """The multi-label margin loss of class scores ``(C)`` or ``(N, C)`` against target
    class lists (int64, the input's shape, each ended by -1 or full): the loss result of
    `multilabel_margin_loss_forward` (Note [Multi-label margin loss]).

    Example::

        >>> torch.ops.aten.multilabel_margin_loss(torch.tensor([[0.1, 0.2, 0.4, 0.8]]),
        ...                                       torch.tensor([[3, 0, -1, 1]]))
        tensor(0.8500)
    """
    if out is None:
        return multilabel_margin_loss_forward.call(self, target, reduction)[0]
    _multilabel_frames(self, target)
    _check_out_dtype(self, out)
    is_target = self.new_empty((0,))
    overload = multilabel_margin_loss_forward.declaration.overloads[SchemaKind.out]
    return overload.call(self, target, reduction, out, is_target)[0]
