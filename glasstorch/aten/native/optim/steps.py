"""Optimizer steps as operators: SGD's and Adam's float32 updates, one kernel each.

torch's for-loop optimizers (`_single_tensor_sgd`, `_single_tensor_adam`, torch's default
on CPU) update a parameter with a chain of operators; glasstorch's readable form in
`glasstorch/optim/` chains the same glasstorch operators, for every dtype. For float32
parameters the optimizers call the operators declared here instead, which do the same
arithmetic on the arrays in one kernel, writing the state and the parameter in place,
with the same roundings in the same order: the results are bit-identical to the readable
form (tests/aten/native/optim/ holds them to it) and to torch's.

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

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...parallel import GRAIN_SIZE, SPLIT_SIZE, parallel_for
from ...registry import op

F32 = np.float32


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
    0-dim arrays are seen as one-element vectors: NumPy's arithmetic on 0-dim arrays
    gives numbers, which cannot be written into.
    """
    first = arrays[0]
    if first.ndim == 0:
        arrays = [a.reshape(1) for a in arrays]
    if first.size < SPLIT_SIZE or not all(
            a.flags.c_contiguous and a.shape == first.shape for a in arrays):
        kernel(hyper, *arrays)
        return
    flat = [a.reshape(-1) for a in arrays]

    def body(start: int, stop: int) -> None:
        kernel(hyper, *(a[start:stop] for a in flat))
    parallel_for(0, first.size, GRAIN_SIZE, body)


def _check_step(name: str, self, *tensors) -> None:
    """The step computes float32 parameters, with state and gradient of their shape."""
    for tensor in (self,) + tensors:
        if tensor is None:
            continue
        if tensor._dtype is not dtypes.float32:
            raise RuntimeError(f"{name}: expected float32 tensors, but got "
                               f"{scalar_type_name(tensor._dtype)}")
        if tensor._size != self._size:
            raise RuntimeError(f"{name}: expected tensors of the parameter's shape "
                               f"{list(self._size)}, but got {list(tensor._size)}")


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

def _sgd_meta(self, grad, momentum_buffer, *numbers) -> None:
    _check_step("_single_tensor_sgd_", self, grad, momentum_buffer)


@op("_single_tensor_sgd_(Tensor(a!) self, Tensor grad, Tensor(b!)? momentum_buffer, *, "
    "float weight_decay, float momentum, float lr, float dampening, bool nesterov, "
    "bool maximize, bool is_first_step) -> ()", meta=_sgd_meta, function=False)
def single_tensor_sgd_(self, grad, momentum_buffer, weight_decay, momentum, lr, dampening,
                       nesterov, maximize, is_first_step, *, out):
    """One SGD step of a float32 parameter, in place: torch's for-loop SGD, fused.

    `momentum_buffer` is None without momentum; with `is_first_step` it is fresh memory
    that takes the first direction as it is (torch clones it).
    """
    arrays = [self, grad] + ([] if momentum_buffer is None else [momentum_buffer])
    hyper = (weight_decay, maximize, momentum, dampening, nesterov, lr, is_first_step)
    run_split(sgd_chunk, hyper, arrays)


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


def _adam_meta(self, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, state_step, *numbers) -> None:
    _check_step("_single_tensor_adam_", self, grad, exp_avg, exp_avg_sq, max_exp_avg_sq)


@op("_single_tensor_adam_(Tensor(a!) self, Tensor grad, Tensor(b!) exp_avg, "
    "Tensor(c!) exp_avg_sq, Tensor(d!)? max_exp_avg_sq, Tensor(e!) state_step, *, float lr, "
    "float beta1, float beta2, float weight_decay, float eps, bool maximize, "
    "bool decoupled_weight_decay) -> ()", meta=_adam_meta, function=False)
def single_tensor_adam_(self, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, state_step, lr,
                        beta1, beta2, weight_decay, eps, maximize, decoupled_weight_decay, *,
                        out):
    """One Adam (or, with `decoupled_weight_decay`, AdamW) step of a float32 parameter,
    in place: torch's for-loop Adam, fused. The step count is counted first, and the
    bias corrections are this step's, computed in Python floats as torch does.
    `max_exp_avg_sq` is given with amsgrad only.
    """
    state_step += 1
    step = float(state_step)
    step_size = lr / (1 - beta1 ** step)
    bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
    hyper = (beta1, beta2, lr, weight_decay, decoupled_weight_decay, maximize, eps,
             step_size, bias_correction2_sqrt)
    arrays = [self, grad, exp_avg, exp_avg_sq]
    run_split(adam_chunk, hyper, arrays + ([] if max_exp_avg_sq is None else [max_exp_avg_sq]))
