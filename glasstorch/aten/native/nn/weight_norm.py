"""Weight normalization: `norm_except_dim`, `_weight_norm` and the fused
`_weight_norm_interface` with its backward.

Note [Weight norm]
    A weight ``w = g * v / ‖v‖`` is split into a direction `v` and a magnitude `g`, the
    norm taken over every dim but `dim` (``g`` has size 1 in those dims). When `dim` is
    the first or the last dim, torch runs one fused kernel that also returns the norms
    (saved for the backward, in float32 for 16-bit inputs); for any other dim (and for
    ``dim=-1``, which means "the whole tensor" here, not "the last dim") it composes
    ``v * (g / norm_except_dim(v, 2, dim))`` from differentiable operators. The fused
    gradients, with ``s = Σ grad_w * v`` over the normalized dims::

        grad_g = s / ‖v‖          grad_v = (g / ‖v‖) * (grad_w - v * s / ‖v‖²)

    computed by `_weight_norm_interface_backward`, or from differentiable operators when
    a second derivative is wanted (torch's `_weight_norm_differentiable_backward`). The
    norms result is not differentiable: the second derivative takes them as constants,
    as torch's does (so it is not the exact second derivative; the composite path is).
"""
from __future__ import annotations

import numpy as np

from ....c10.dispatch_key import AUTOGRAD, local_keys
from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...derivatives import derivative_helper
from ...registry import TensorMeta, composite, op
from ..reduction.norms import norm_dim, norm_scalar


@composite("norm_except_dim(Tensor v, int pow=2, int dim=0) -> Tensor")
def norm_except_dim(v, pow=2, dim=0):
    """The `pow`-norm of `v` over every dim except `dim`, kept broadcastable against `v`
    (size 1 in the reduced dims); ``dim=-1`` gives the norm of the whole tensor.

    Args:
        v (Tensor): the tensor.
        pow (int): the norm's exponent (default 2).
        dim (int): the dim kept (default 0); -1 reduces every dim.

    Example::

        >>> torch.norm_except_dim(torch.tensor([[3., 4.], [0., 1.]]), 2, 0)
        tensor([[5.],
                [1.]])
    """
    if dim == -1:
        return norm_scalar.call(v, pow)
    last = v.dim() - 1
    if dim == 0:
        kept = [v.size(0)] + [1] * last
        return norm_dim.call(v.contiguous().view(v.size(0), -1), pow, [1], False).view(kept)
    if dim == last:
        kept = [1] * last + [v.size(last)]
        return norm_dim.call(v.contiguous().view(-1, v.size(last)), pow, [0], False).view(kept)
    return norm_except_dim(v.transpose(0, dim), pow, 0).transpose(0, dim)


@composite("_weight_norm(Tensor v, Tensor g, int dim=0) -> Tensor")
def _weight_norm(v, g, dim=0):
    """``g * v / ‖v‖``, the norm over every dim but `dim` (Note [Weight norm]).

    Args:
        v (Tensor): the direction.
        g (Tensor): the magnitude, size 1 in every dim but `dim`.
        dim (int): the dim `g` runs along (default 0; -1: one norm for the whole tensor).

    Example::

        >>> torch._weight_norm(torch.tensor([[3., 4.]]), torch.tensor([[10.]]), 0)
        tensor([[6., 8.]])
    """
    v, g = v.contiguous(), g.contiguous()
    if dim == 0 or dim == v.dim() - 1:
        return _weight_norm_interface.call(v, g, dim)[0]
    return v * (g / norm_except_dim(v, 2, dim))


def _interface_meta(v, g, dim=0):
    norm_dtype = dtypes.float32 if g._dtype.itemsize == 2 else g._dtype
    return TensorMeta(v._size, v._dtype), TensorMeta(g._size, norm_dtype)


def _check_fusable(v: np.ndarray, g: np.ndarray, dim: int) -> None:
    """The CPU kernel's refusals (its meta function checks nothing, as torch's)."""
    if g.dtype != v.dtype:
        names = (scalar_type_name(dtypes.from_numpy_dtype(a.dtype)) for a in (v, g))
        raise RuntimeError("expected scalar type {} but found {}".format(*names))
    if dim not in (0, v.ndim - 1):
        raise RuntimeError("dim == 0 || dim == v.dim() - 1 INTERNAL ASSERT FAILED: fused "
                           "kernels can only be applied for first or last dim")


def _reduced_axes(ndim: int, dim: int) -> tuple:
    return tuple(d for d in range(ndim) if d != dim)


@derivative_helper
def weight_norm_gradients(grad_w, v, g, norms, dim: int):
    """`_weight_norm_interface`'s gradients for v and g (Note [Weight norm]): the fused
    backward operator, or differentiable operators when the graph is being recorded."""
    if grad_w is None:
        return None, None
    if local_keys.excluded & AUTOGRAD:
        return tuple(_weight_norm_interface_backward.call(grad_w.contiguous(), v, g, norms,
                                                          dim))
    norms = norms.to(g.dtype)
    kept = [1] * v.dim()
    kept[dim] = v.size(dim)
    rows = [v.size(0), -1] if dim == 0 else [-1, v.size(dim)]
    sums = (grad_w * v).view(rows).sum(1 if dim == 0 else 0).view(kept)
    return (g / norms) * (grad_w - v * (sums / (norms * norms))), sums / norms


@op("_weight_norm_interface(Tensor v, Tensor g, int dim=0) -> (Tensor, Tensor)",
    meta=_interface_meta,
    grad={"v, g": "weight_norm_gradients(grads[0], v, g, result1, dim)",
          "output_differentiability": (True, False)})
def _weight_norm_interface(v, g, dim, *, out):
    """The fused weight norm (Note [Weight norm]): ``(g * v / ‖v‖, ‖v‖)``, the norms
    shaped as `g`; `dim` must be the first or the last dim.

    Args:
        v (Tensor): the direction.
        g (Tensor): the magnitude, of `v`'s dtype.
        dim (int): 0 or ``v.dim() - 1``.

    Example::

        >>> torch._weight_norm_interface(torch.tensor([[3., 4.]]), torch.tensor([[10.]]))
        (tensor([[6., 8.]]), tensor([[5.]]))
    """
    _check_fusable(v, g, dim)
    weight, norms = out
    compute = np.float64 if v.dtype == np.float64 else np.float32
    direction = v.astype(compute, copy=False)
    axes = _reduced_axes(v.ndim, dim)
    found = np.sqrt(np.sum(direction * direction, axis=axes, keepdims=True))
    with np.errstate(all="ignore"):
        scale = g.astype(compute).reshape(found.shape) / found
    np.copyto(weight, direction * scale, casting="unsafe")
    norms[...] = found.reshape(norms.shape)


def _interface_backward_meta(grad_w, saved_v, saved_g, saved_norms, dim):
    return TensorMeta(saved_v._size, saved_v._dtype), TensorMeta(saved_g._size, saved_g._dtype)


@op("_weight_norm_interface_backward(Tensor grad_w, Tensor saved_v, Tensor saved_g, "
    "Tensor saved_norms, int dim) -> (Tensor, Tensor)", meta=_interface_backward_meta,
    function=False)
def _weight_norm_interface_backward(grad_w, saved_v, saved_g, saved_norms, dim, *, out):
    """The gradients of `_weight_norm_interface` for `v` and `g` (Note [Weight norm])."""
    grad_v, grad_g = out
    compute = np.float64 if saved_v.dtype == np.float64 else np.float32
    v = saved_v.astype(compute, copy=False)
    axes = _reduced_axes(v.ndim, dim)
    norms = saved_norms.astype(compute).reshape([v.shape[d] if d == dim else 1
                                                 for d in range(v.ndim)])
    sums = np.sum(grad_w.astype(compute) * v, axis=axes, keepdims=True)
    with np.errstate(all="ignore"):
        scale = saved_g.astype(compute).reshape(norms.shape) / norms
        found_v = scale * grad_w.astype(compute) - scale * sums / (norms * norms) * v
        found_g = sums / norms
    np.copyto(grad_v, found_v, casting="unsafe")
    np.copyto(grad_g, found_g.reshape(grad_g.shape), casting="unsafe")
