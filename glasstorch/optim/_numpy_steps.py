"""The float32 fast path: one parameter's SGD or Adam update as a few NumPy calls.

The optimizers' readable form (`_single_tensor_sgd`, `_single_tensor_adam`) chains
glasstorch operators, as torch's for-loop implementation does; for the common case
(float32 CPU tensors, not differentiable) each of those operators would pay the
dispatcher's overhead, and several would allocate. This module does the same
arithmetic directly on the tensors' NumPy arrays, writing the state and the
parameter in place, with the same roundings in the same order, so that the results
are bit-identical to torch's.

Note [Fused multiply-add in float32]
torch's CPU kernels for ``add(alpha=)``, ``lerp`` and ``addcmul`` compute
``a * b + c`` with one fused multiply-add: a single rounding. NumPy has no fused
multiply-add, but the product of two float32 numbers is exact in float64 (24 + 24
significant bits fit in 53), so computing the product and the sum in float64 and
rounding the sum to float32 gives torch's result (the sum's float64 rounding could
only matter on an exact float32 tie, which the float64 sum almost never lands on).
The glasstorch operators do the same (aten/native/pointwise/binary.py, ternary.py).

Large parameters are split over the thread pool, as torch splits each kernel; every
operation is elementwise, so a chunk's result does not depend on the split.
"""
from __future__ import annotations

import numpy as np

from ..aten.parallel import GRAIN_SIZE, SPLIT_SIZE, parallel_for
from ..c10.dtype import float32

F32 = np.float32


def usable(*tensors) -> bool:
    """Whether this path can update these tensors (None entries are ignored): float32
    CPU tensors. Others (and differentiable steps) take the operator form."""
    for tensor in tensors:
        if tensor is not None and (tensor.dtype is not float32 or tensor.device.type != "cpu"):
            return False
    return True


def fma(a, b: np.ndarray, c, out: np.ndarray) -> np.ndarray:
    """``out = a * b + c`` rounded once to float32; see Note [Fused multiply-add in float32].

    `b` is an array; `a` a float32 number or array. Converting `b` first and then
    working in place is faster than NumPy's mixed-dtype loops.
    """
    product = b.astype(np.float64)
    np.multiply(product, a, out=product)
    return np.add(product, c, out=out, casting="unsafe")


def add_scaled(a: np.ndarray, b: np.ndarray, alpha: float, out: np.ndarray) -> np.ndarray:
    """``out = a + alpha * b`` as torch's ``add(a, b, alpha=alpha)`` on float32."""
    if alpha == 1:
        return np.add(a, b, out=out)
    return fma(F32(alpha), b, a, out)


def lerp(start: np.ndarray, end: np.ndarray, weight: float, out: np.ndarray) -> np.ndarray:
    """torch's ``lerp(start, end, weight)``: from `end`'s side when ``|weight| >= 0.5``."""
    weight = F32(weight)
    difference = np.subtract(end, start)
    if abs(weight) < 0.5:
        return fma(weight, difference, start, out)
    return fma(weight - F32(1), difference, end, out)


def addcmul(a: np.ndarray, t1: np.ndarray, t2: np.ndarray, value: float,
            out: np.ndarray) -> np.ndarray:
    """torch's ``addcmul(a, t1, t2, value=value)``: ``(value * t1) * t2 + a``, fused."""
    return fma(np.multiply(t1, F32(value)), t2, a, out)


def run_split(kernel, hyper: tuple, arrays: list) -> None:
    """``kernel(hyper, *arrays)``, over chunks on the thread pool when large.

    Only dense arrays of one layout are split (flat chunks line up); others run whole.
    """
    first = arrays[0]
    if first.size < SPLIT_SIZE or not all(
            a.flags.c_contiguous and a.shape == first.shape for a in arrays):
        kernel(hyper, *arrays)
        return
    flat = [a.reshape(-1) for a in arrays]

    def body(start: int, stop: int) -> None:
        kernel(hyper, *(a[start:stop] for a in flat))
    parallel_for(0, first.size, GRAIN_SIZE, body)


# ----------------------------------------------------------------------------------
# SGD
# ----------------------------------------------------------------------------------
def sgd_chunk(hyper: tuple, param: np.ndarray, grad: np.ndarray,
              buf: np.ndarray | None = None) -> None:
    """One SGD step over (a chunk of) one parameter, in place.

    `buf` is the momentum buffer (None without momentum); `hyper` is ``(weight_decay,
    maximize, momentum, dampening, nesterov, lr, fresh)``, `fresh` meaning that `buf`
    was just made and takes the first direction as it is (torch clones it).
    """
    weight_decay, maximize, momentum, dampening, nesterov, lr, fresh = hyper
    if maximize:
        grad = np.negative(grad)
    if weight_decay != 0:
        grad = add_scaled(grad, param, weight_decay, np.empty_like(grad))
    if buf is not None:
        if fresh:
            np.copyto(buf, grad)
        else:
            np.multiply(buf, F32(momentum), out=buf)
            add_scaled(buf, grad, 1 - dampening, buf)
        if nesterov:
            grad = add_scaled(grad, buf, momentum, np.empty_like(grad))
        else:
            grad = buf
    add_scaled(param, grad, -lr, param)


# ----------------------------------------------------------------------------------
# Adam
# ----------------------------------------------------------------------------------
def adam_chunk(hyper: tuple, param: np.ndarray, grad: np.ndarray, exp_avg: np.ndarray,
               exp_avg_sq: np.ndarray, max_exp_avg_sq: np.ndarray | None = None) -> None:
    """One Adam step over (a chunk of) one parameter, in place.

    `max_exp_avg_sq` is given with amsgrad only. `hyper` is ``(beta1, beta2, lr,
    weight_decay, decoupled, maximize, eps, step_size, bias_correction2_sqrt)``, the
    last two being this step's (they depend on the step count).
    """
    beta1, beta2, lr, weight_decay, decoupled, maximize, eps, step_size, correction2 = hyper
    if maximize:
        grad = np.negative(grad)
    if weight_decay != 0:
        if decoupled:
            np.multiply(param, F32(1 - lr * weight_decay), out=param)
        else:
            grad = add_scaled(grad, param, weight_decay, np.empty_like(grad))
    lerp(exp_avg, grad, 1 - beta1, exp_avg)
    np.multiply(exp_avg_sq, F32(beta2), out=exp_avg_sq)
    addcmul(exp_avg_sq, grad, grad, 1 - beta2, exp_avg_sq)
    second = exp_avg_sq
    if max_exp_avg_sq is not None:
        second = np.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
    # param += -step_size * exp_avg / (sqrt(second) / correction2 + eps), as torch rounds
    denom = np.sqrt(second)
    np.divide(denom, F32(correction2), out=denom)
    np.add(denom, F32(eps), out=denom)
    update = np.multiply(exp_avg, F32(-step_size))
    np.divide(update, denom, out=update)
    np.add(param, update, out=param)
