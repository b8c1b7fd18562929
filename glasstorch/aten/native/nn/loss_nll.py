"""The negative log likelihood loss: nll_loss_forward / nll_loss_backward (inputs ``(C)``
or ``(N, C)``), nll_loss2d_forward / nll_loss2d_backward (``(N, C, H, W)``), and the
composites nll_loss, nll_loss2d and nll_loss_nd (any ``(N, C, d1, ..., dK)``).

Note [Picking the target's log-probability]
    With log-probabilities ``x`` and class indices ``t``, each position's loss is
    ``-weight[t] * x[..., t, ...]`` (the class dim is 1, or 0 for an unbatched
    ``(C)`` input), and 0 where ``t == ignore_index``. The kernel gathers every
    position's entry at once (`numpy.take_along_axis`), checks the indices first (an
    index outside ``[0, C)`` raises torch's IndexError, 'Target 5 is out of bounds.'),
    and reduces: 'sum' adds the losses, 'mean' divides that by ``total_weight``, the sum
    of the picked weights (the count of non-ignored positions without `weight`).
    `total_weight` is the second result, which backward reads: the gradient is
    ``-weight[t] * grad`` (over `total_weight` for a mean) at the picked entries, and
    zero elsewhere, written by one scatter.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...registry import TensorMeta, composite, op
from ...schema import SchemaKind
from .loss_regression import MEAN, NONE, NOT_FLOATING, opmath
from ..pointwise.unary import refuse

_OUT = SchemaKind.out


# ----------------------------------------------------------------------------------
# The kernels shared by the 1-D / 2-D and the 2d (spatial) operators
# ----------------------------------------------------------------------------------
def _class_axis(x: np.ndarray) -> int:
    return 0 if x.ndim == 1 else 1


def _check_weight(x: np.ndarray, weight) -> None:
    """torch reads `weight`'s data as the input's scalar type."""
    if weight is not None and weight.dtype != x.dtype:
        raise RuntimeError(f"expected scalar type {_name(x.dtype)} but found "
                           f"{_name(weight.dtype)}")


def _name(dtype: np.dtype) -> str:
    return scalar_type_name(dtypes.from_numpy_dtype(dtype))


def _safe_targets(x: np.ndarray, target: np.ndarray, ignore_index: int):
    """(ignored, safe): where the target is ignore_index, and the targets as array
    indices (0 where ignored), after torch's range check."""
    target = target.reshape(-1)[:1] if x.ndim == 1 else target
    ignored = target == ignore_index
    bad = ~ignored & ((target < 0) | (target >= x.shape[_class_axis(x)]))
    if bad.any():
        raise IndexError(f"Target {target[bad].flat[0]} is out of bounds.")
    return ignored, np.where(ignored, 0, target).astype(np.intp)


def _picked(x: np.ndarray, target: np.ndarray, weight, ignore_index: int):
    """(losses, weights): each position's ``-weight[t] * x[t]`` and ``weight[t]``, both 0
    where ignored (Note [Picking the target's log-probability])."""
    ignored, safe = _safe_targets(x, target, ignore_index)
    if x.ndim == 1:
        picked = opmath(x)[safe]
    else:
        picked = opmath(np.take_along_axis(x, np.expand_dims(safe, 1), 1).squeeze(1))
    weights = np.ones(picked.shape, picked.dtype) if weight is None else \
        opmath(weight)[safe]
    any_ignored = ignored.any()
    if any_ignored:
        weights[ignored] = 0
    losses = -picked * weights
    if any_ignored:
        losses[ignored] = 0            # no -0 where an ignored row's picked value is > 0
    return losses, weights


def _check_target(target: np.ndarray) -> None:
    if target.dtype != np.int64 and target.dtype != np.uint8:
        raise RuntimeError(f"expected target dtype to be Long or Byte, but got "
                           f"{_name(target.dtype)}")


def _forward(name: str, self, target, weight, reduction, ignore_index, out) -> None:
    """Both forward kernels: write the losses (or their reduction) and total_weight."""
    _check_target(target)
    refuse(self, name, NOT_FLOATING)
    _check_weight(self, weight)
    output, total_weight = out
    losses, weights = _picked(self, target, weight, ignore_index)
    if reduction == NONE and self.ndim != 1:
        np.copyto(output, losses, casting="unsafe")
        total_weight[...] = 0
        return
    wide = np.float32 if self.dtype.itemsize == 2 else self.dtype
    total = np.add.reduce(weights, axis=None, dtype=wide)
    loss = np.add.reduce(losses, axis=None, dtype=wide)
    if reduction == MEAN:
        loss = loss / total if losses.size else np.nan
    output[...] = loss
    total_weight[...] = total


def _backward(name: str, grad_output, self, target, weight, reduction, ignore_index,
              total_weight, out) -> None:
    """Both backward kernels: ``-weight[t] * grad`` at the picked entries, 0 elsewhere
    (one scatter; an ignored position writes its 0 at class 0)."""
    refuse(self, name, NOT_FLOATING)
    _check_weight(self, weight)
    ignored, safe = _safe_targets(self, target, ignore_index)
    scale = -(opmath(weight)[safe] if weight is not None else np.float32(1))
    if reduction == NONE and self.ndim != 1:
        values = scale * opmath(grad_output)
    else:
        upstream = opmath(grad_output).reshape(())
        if reduction == MEAN:
            upstream = upstream / opmath(total_weight).reshape(())
        values = scale * upstream
    if ignored.any():
        values = np.where(ignored, 0, values)
    values = np.broadcast_to(values, safe.shape)
    out[...] = 0
    if self.ndim == 1:
        out[safe] = values
    else:
        np.put_along_axis(out, np.expand_dims(safe, 1),
                          np.expand_dims(values, 1).astype(out.dtype), 1)


# ----------------------------------------------------------------------------------
# nll_loss_forward / nll_loss_backward: (C) or (N, C) inputs
# ----------------------------------------------------------------------------------
def _check_batch(self, target, backward: bool = False) -> None:
    """torch's checks of the forward; its backward still refuses a ``(1,)`` target for a
    ``(C)`` input, which the forward takes."""
    if not 0 < self.dim() <= 2:
        raise RuntimeError("input tensor should be 1D or 2D")
    if target.dim() > 1:
        raise RuntimeError("0D or 1D target tensor expected, multi-target not supported")
    if backward and not (self.dim() == 1 and target.dim() == 0) \
            and self._size[0] != target._size[0]:
        raise RuntimeError(f"size mismatch (got input: {list(self._size)}, target: "
                           f"{list(target._size)})")
    if self.dim() == 1:
        if target.dim() == 1 and target._size[0] != 1:
            raise ValueError(f"For 1D input, 1D target must have size 1, but got target "
                             f"size: {target._size[0]}")
        return
    if target.dim() == 0:
        raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if self._size[0] != target._size[0]:
        raise RuntimeError(f"size mismatch (got input: {list(self._size)}, target: "
                           f"{list(target._size)})")


def _nll_forward_meta(self, target, weight, reduction, ignore_index) -> tuple:
    _check_batch(self, target)
    classes = self._size[-1]
    if weight is not None and (weight.dim() != 1 or weight.numel() != classes):
        raise RuntimeError(f"weight tensor should be defined either for all {classes} classes "
                           f"or no classes but got weight tensor of shape: "
                           f"{list(weight._size)}")
    shape = self._size[:1] if reduction == NONE and self.dim() == 2 else ()
    return TensorMeta(shape, self._dtype), TensorMeta((), self._dtype)


def _check_total_weight(total_weight) -> None:
    if total_weight.numel() != 1:
        raise RuntimeError(f"expected total_weight to be a  single element tensor, got: "
                           f"{list(total_weight._size)} ({total_weight.numel()} elements)")


def _check_single_grad(grad_output) -> None:
    if grad_output.dim() > 1 or grad_output.numel() != 1:
        raise RuntimeError(f"Expected a single element grad_output tensor, but got: "
                           f"{list(grad_output._size)}")


def _nll_backward_meta(grad_output, self, target, weight, reduction, ignore_index,
                       total_weight) -> TensorMeta:
    _check_batch(self, target, backward=True)
    _check_total_weight(total_weight)
    if weight is not None and weight.numel() != self._size[-1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    if reduction == NONE and self.dim() == 2:
        batch = self._size[0]
        if grad_output.dim() != 1 or grad_output._size[0] != batch:
            raise RuntimeError(f"Expected a tensor of dimension 1 and tensor.size[0] == {batch} "
                               f"but got: dimension {grad_output.dim()} and tensor.size[0] = "
                               f"{grad_output._size[0] if grad_output.dim() else 1}")
    else:
        _check_single_grad(grad_output)
    return TensorMeta(self._size, self._dtype)


_NLL_BACKWARD = ("nll_loss_backward(grad, self, target, weight, reduction, ignore_index, "
                 "total_weight)")
# Inputs torch's derivatives leave out: it refuses them when they require grad (see
# aten/derivatives.py, REFUSES_GRAD); total_weight is a count, not differentiable.
_REFUSED = "refuses_requires_grad"
_FORWARD_GRAD = {"target": "non_differentiable", "weight": _REFUSED,
                 "output_differentiability": (True, False)}
_BACKWARD_GRAD = {"self": "grad.new_zeros(self_sym_sizes)", "target": "non_differentiable",
                  "weight": _REFUSED, "total_weight": _REFUSED}


@op("nll_loss_forward(Tensor self, Tensor target, Tensor? weight, int reduction, "
    "SymInt ignore_index) -> (Tensor output, Tensor total_weight)",
    meta=_nll_forward_meta, out=True, out_overload="output", function=False,
    grad={"self": _NLL_BACKWARD, **_FORWARD_GRAD})
def nll_loss_forward(self, target, weight, reduction, ignore_index, *, out):
    """The negative log likelihood of class indices `target` under log-probabilities
    `self` ``(C)`` or ``(N, C)`` (Note [Picking the target's log-probability]).

    Returns:
        (Tensor, Tensor): the loss (per row for reduction 0 on a batch) and the total
        weight a mean divides by.
    """
    _forward("nll_loss_out_frame", self, target, weight, reduction, ignore_index, out)


@op("nll_loss_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, "
    "int reduction, SymInt ignore_index, Tensor total_weight) -> Tensor",
    meta=_nll_backward_meta, out=True, out_overload="grad_input", out_names=("grad_input",),
    function=False,
    grad={"grad_output": "nll_loss(grad, target, weight, reduction, ignore_index)",
          **_BACKWARD_GRAD})
def nll_loss_backward(grad_output, self, target, weight, reduction, ignore_index,
                      total_weight, *, out):
    """The gradient of `nll_loss_forward` for `self`: ``-weight[t] grad_output`` (over the
    total weight for a mean) at each row's target class, 0 elsewhere."""
    _backward("nll_loss_backward_out_frame", grad_output, self, target, weight, reduction,
              ignore_index, total_weight, out)


# ----------------------------------------------------------------------------------
# nll_loss2d_forward / nll_loss2d_backward: (N, C, H, W) inputs
# ----------------------------------------------------------------------------------
def _check_spatial(self, target, weight) -> None:
    if target.dim() != 3:
        raise RuntimeError(f"only batches of spatial targets supported (3D tensors) but got "
                           f"targets of dimension: {target.dim()}")
    if self.dim() != 4:
        raise RuntimeError(f"only batches of spatial inputs supported (4D tensors), but got "
                           f"input of dimension: {self.dim()}")
    if weight is not None and weight.numel() != self._size[1]:
        raise RuntimeError("weight tensor should be defined either for all or no classes")
    size, wanted = self._size, target._size
    if (size[0], size[2], size[3]) != wanted:
        raise RuntimeError(f"size mismatch (got input: {list(size)} , target: {list(wanted)}")


def _nll2d_forward_meta(self, target, weight, reduction, ignore_index) -> tuple:
    _check_spatial(self, target, weight)
    shape = target._size if reduction == NONE else ()
    return TensorMeta(shape, self._dtype), TensorMeta((), self._dtype)


def _nll2d_backward_meta(grad_output, self, target, weight, reduction, ignore_index,
                         total_weight) -> TensorMeta:
    _check_spatial(self, target, weight)
    _check_total_weight(total_weight)
    if reduction == NONE:
        if grad_output.dim() != 3:
            raise RuntimeError(f"grad_output must have same dimension as target (3) but got "
                               f"dimension: {list(grad_output._size)}")
        if grad_output._size != target._size:
            raise RuntimeError(f"size mismatch (got grad_output: {list(grad_output._size)} "
                               f"target: {list(target._size)}")
    else:
        _check_single_grad(grad_output)
    return TensorMeta(self._size, self._dtype)


@op("nll_loss2d_forward(Tensor self, Tensor target, Tensor? weight, int reduction, "
    "SymInt ignore_index) -> (Tensor output, Tensor total_weight)",
    meta=_nll2d_forward_meta, out=True, out_overload="output", function=False,
    grad={"self": _NLL_BACKWARD.replace("nll_loss_backward", "nll_loss2d_backward"),
          **_FORWARD_GRAD})
def nll_loss2d_forward(self, target, weight, reduction, ignore_index, *, out):
    """`nll_loss_forward` over the positions of an ``(N, C, H, W)`` input (the class
    dim is 1, `target` is ``(N, H, W)``)."""
    _forward("nll_loss2d_forward_out_frame", self, target, weight, reduction, ignore_index,
             out)


@op("nll_loss2d_backward(Tensor grad_output, Tensor self, Tensor target, Tensor? weight, "
    "int reduction, SymInt ignore_index, Tensor total_weight) -> Tensor",
    meta=_nll2d_backward_meta, out=True, out_overload="grad_input",
    out_names=("grad_input",), function=False,
    grad={"grad_output": "nll_loss2d(grad, target, weight, reduction, ignore_index)",
          **_BACKWARD_GRAD})
def nll_loss2d_backward(grad_output, self, target, weight, reduction, ignore_index,
                        total_weight, *, out):
    """The gradient of `nll_loss2d_forward` for `self`."""
    _backward("nll_loss2d_backward_out_frame", grad_output, self, target, weight, reduction,
              ignore_index, total_weight, out)


# ----------------------------------------------------------------------------------
# The composites: nll_loss, nll_loss2d, nll_loss_nd
# ----------------------------------------------------------------------------------
@composite("nll_loss(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
           "SymInt ignore_index=-100) -> Tensor", out=True, python_module="nn")
def nll_loss(self, target, weight=None, reduction=MEAN, ignore_index=-100, out=None):
    """The negative log likelihood loss of a ``(C)`` or ``(N, C)`` input: the loss
    result of `nll_loss_forward`.

    Example::

        >>> torch.ops.aten.nll_loss(torch.tensor([[-1., -2.], [-3., -4.]]), torch.tensor([0, 1]))
        tensor(2.5000)
    """
    if out is None:
        return nll_loss_forward.call(self, target, weight, reduction, ignore_index)[0]
    scratch = self.new_empty(())
    nll_loss_forward.declaration.overloads[_OUT].call(self, target, weight, reduction,
                                                       ignore_index, out, scratch)
    return out


@composite("nll_loss2d(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
           "SymInt ignore_index=-100) -> Tensor", out=True, python_module="nn")
def nll_loss2d(self, target, weight=None, reduction=MEAN, ignore_index=-100, out=None):
    """The negative log likelihood loss of an ``(N, C, H, W)`` input: the loss result of
    `nll_loss2d_forward`."""
    if out is None:
        return nll_loss2d_forward.call(self, target, weight, reduction, ignore_index)[0]
    scratch = self.new_empty(())
    nll_loss2d_forward.declaration.overloads[_OUT].call(self, target, weight, reduction,
                                                         ignore_index, out, scratch)
    return out


@composite("nll_loss_nd(Tensor self, Tensor target, Tensor? weight=None, int reduction=1, "
           "SymInt ignore_index=-100) -> Tensor", python_module="nn")
def nll_loss_nd(self, target, weight=None, reduction=MEAN, ignore_index=-100):
    """The negative log likelihood loss of an input of any rank: ``(C)``, ``(N, C)`` or
    ``(N, C, d1, ..., dK)`` with `target` ``(N, d1, ..., dK)``; inputs other than 4-D
    are folded to ``(N, C, 1, d1 * ... * dK)`` for `nll_loss2d`.

    Example::

        >>> x = torch.zeros(2, 3, 4, 5).log_softmax(1)
        >>> torch.ops.aten.nll_loss_nd(x, torch.zeros(2, 4, 5, dtype=torch.long))
        tensor(1.0986)
    """
    if self.dim() < 1:
        raise ValueError(f"Expected 1 or more dimensions (got {self.dim()})")
    if self.dim() != 1 and self._size[0] != target._size[0]:
        raise ValueError(f"Expected input batch_size ({self._size[0]}) to match target "
                         f"batch_size ({target._size[0]}).")
    if self.dim() <= 2:
        return nll_loss.call(self, target, weight, reduction, ignore_index)
    if self.dim() == 4:
        return nll_loss2d.call(self, target, weight, reduction, ignore_index)
    return _folded_nll_loss(self, target, weight, reduction, ignore_index)


def _folded_nll_loss(self, target, weight, reduction, ignore_index):
    """3-D and 5-D-or-more inputs through `nll_loss2d`, their spatial dims folded."""
    batch, classes = self._size[:2]
    out_size = (batch,) + self._size[2:]
    if target._size[1:] != self._size[2:]:
        raise RuntimeError(f"Expected target size {list(out_size)}, got {list(target._size)}")
    input_ = self.contiguous()
    target_ = target.contiguous()
    input_ = input_.view(batch, classes, 1, -1) if input_.numel() else \
        input_.view(batch, classes, 0, 0)
    target_ = target_.view(batch, 1, -1) if target_.numel() else target_.view(batch, 0, 0)
    result = nll_loss2d.call(input_, target_, weight, reduction, ignore_index)
    return result.view(out_size) if reduction == NONE else result
