"""Optimizer steps as operators: SGD's and Adam's float32 updates of a parameter group.

torch's for-loop optimizers (`_single_tensor_sgd`, `_single_tensor_adam`, torch's default
on CPU) update each parameter with a chain of operators, and its foreach ones
(`_multi_tensor_sgd`, `_multi_tensor_adam`) run the same chain over the whole group with
`_foreach_*` operators, rounding alike. glasstorch's readable form in `glasstorch/optim/`
chains the same glasstorch operators, for every dtype. For float32 parameters the
optimizers call the operators declared here instead, which do the same arithmetic on
the arrays of the whole group in one pass (Note [One pass over a group] in blocks.py),
writing the state and the parameters in place, with the same roundings in the same
order: the results are bit-identical to the readable form (tests/aten/native/optim/
holds them to it) and to torch's.
"""
from __future__ import annotations

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name
from ...registry import op
from .blocks import F32, add_scaled, addcmul, lerp, run_group


def _check_lists(name: str, params: list, *lists) -> None:
    """One entry per parameter in each list given (an empty list: not used)."""
    for tensors in lists:
        if len(tensors) not in (0, len(params)):
            raise RuntimeError(f"{name}: expected lists of {len(params)} tensors, one per "
                               f"parameter, but got {len(tensors)}")


def _check_step(name: str, self, *tensors) -> None:
    """The step computes float32 parameters, with state and gradient of their shape."""
    for tensor in (self,) + tensors:
        if tensor._dtype is not dtypes.float32:
            raise RuntimeError(f"{name}: expected float32 tensors, but got "
                               f"{scalar_type_name(tensor._dtype)}")
        if tensor._size != self._size:
            raise RuntimeError(f"{name}: expected tensors of the parameter's shape "
                               f"{list(self._size)}, but got {list(tensor._size)}")


def _per_parameter(lists: tuple) -> list:
    """The lists of one tensor per parameter, regrouped parameter by parameter (empty
    lists, of unused state, left out)."""
    return [list(one) for one in zip(*(entries for entries in lists if entries))]


# ----------------------------------------------------------------------------------
# SGD
# ----------------------------------------------------------------------------------
def sgd_block(hyper: tuple, _, scratch: tuple, param: np.ndarray, grad: np.ndarray,
              buf: np.ndarray | None = None) -> None:
    """One SGD step over a block of one parameter, in place.

    `buf` is the momentum buffer (None without momentum); `hyper` is ``(weight_decay,
    maximize, momentum, dampening, nesterov, lr, fresh)``, `fresh` meaning that `buf`
    was just made and takes the first direction as it is (torch clones it).
    """
    weight_decay, maximize, momentum, dampening, nesterov, lr, fresh = hyper
    wide, direction, _ = scratch
    if maximize:
        grad = np.negative(grad, out=direction)
    if weight_decay != 0:
        grad = add_scaled(grad, param, weight_decay, direction, wide)
    if buf is not None:
        if fresh:
            np.copyto(buf, grad)
        else:
            np.multiply(buf, F32(momentum), out=buf)
            add_scaled(buf, grad, 1 - dampening, buf, wide)
        grad = add_scaled(grad, buf, momentum, direction, wide) if nesterov else buf
    add_scaled(param, grad, -lr, param, wide)


def _sgd_meta(self, grads, momentum_buffer_list, *numbers) -> None:
    name = "_multi_tensor_sgd_"
    _check_lists(name, self, grads, momentum_buffer_list)
    if len(grads) != len(self):
        raise RuntimeError(f"{name}: expected one gradient per parameter")
    for tensors in _per_parameter((self, grads, momentum_buffer_list)):
        _check_step(name, *tensors)


@op("_multi_tensor_sgd_(Tensor(a!)[] self, Tensor[] grads, Tensor(b!)[] momentum_buffer_list, "
    "*, float weight_decay, float momentum, float lr, float dampening, bool nesterov, "
    "bool maximize, bool is_first_step) -> ()", meta=_sgd_meta, function=False)
def multi_tensor_sgd_(self, grads, momentum_buffer_list, weight_decay, momentum, lr, dampening,
                      nesterov, maximize, is_first_step, *, out):
    """One SGD step of a group of float32 parameters, in place: torch's SGD, fused.

    `momentum_buffer_list` is empty without momentum; with `is_first_step` its buffers
    are fresh memory that takes the first direction as it is (torch clones it).
    """
    hyper = (weight_decay, maximize, momentum, dampening, nesterov, lr, is_first_step)
    run_group(sgd_block, hyper, None, _per_parameter((self, grads, momentum_buffer_list)))


# ----------------------------------------------------------------------------------
# Adam
# ----------------------------------------------------------------------------------
def adam_block(hyper: tuple, corrections: tuple, scratch: tuple, param: np.ndarray,
               grad: np.ndarray, exp_avg: np.ndarray, exp_avg_sq: np.ndarray,
               max_exp_avg_sq: np.ndarray | None = None) -> None:
    """One Adam step over a block of one parameter, in place.

    `max_exp_avg_sq` is given with amsgrad only. `hyper` is ``(beta1, beta2, lr,
    weight_decay, decoupled, maximize, eps)``; `corrections` is the parameter's
    ``(step_size, bias_correction2_sqrt)`` at this step (they depend on its step count).
    """
    beta1, beta2, lr, weight_decay, decoupled, maximize, eps = hyper
    step_size, correction2 = corrections
    wide, first, spare = scratch
    if maximize:
        grad = np.negative(grad, out=first)
    if weight_decay != 0:
        if decoupled:
            np.multiply(param, F32(1 - lr * weight_decay), out=param)
        else:
            grad = add_scaled(grad, param, weight_decay, first, wide)
    lerp(exp_avg, grad, 1 - beta1, exp_avg, spare, wide)
    np.multiply(exp_avg_sq, F32(beta2), out=exp_avg_sq)
    addcmul(exp_avg_sq, grad, grad, 1 - beta2, exp_avg_sq, spare, wide)
    second = exp_avg_sq
    if max_exp_avg_sq is not None:
        second = np.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
    # param += -step_size * exp_avg / (sqrt(second) / correction2 + eps), as torch rounds
    denom = np.sqrt(second, out=spare)
    np.divide(denom, F32(correction2), out=denom)
    np.add(denom, F32(eps), out=denom)
    update = np.multiply(exp_avg, F32(-step_size), out=first)
    np.divide(update, denom, out=update)
    np.add(param, update, out=param)


def _adam_meta(self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, lr, beta1,
               beta2, weight_decay, eps, amsgrad, *flags) -> None:
    name = "_multi_tensor_adam_"
    _check_lists(name, self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps)
    if any(len(tensors) != len(self) for tensors in (grads, exp_avgs, exp_avg_sqs,
                                                     state_steps)):
        raise RuntimeError(f"{name}: expected one gradient, state and step per parameter")
    if amsgrad != bool(max_exp_avg_sqs):
        raise RuntimeError(f"{name}: expected max_exp_avg_sqs with amsgrad only")
    for tensors in _per_parameter((self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs)):
        _check_step(name, *tensors)


@op("_multi_tensor_adam_(Tensor(a!)[] self, Tensor[] grads, Tensor(b!)[] exp_avgs, "
    "Tensor(c!)[] exp_avg_sqs, Tensor(d!)[] max_exp_avg_sqs, Tensor(e!)[] state_steps, *, "
    "float lr, float beta1, float beta2, float weight_decay, float eps, bool amsgrad, "
    "bool maximize, bool decoupled_weight_decay) -> ()", meta=_adam_meta, function=False)
def multi_tensor_adam_(self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, lr,
                       beta1, beta2, weight_decay, eps, amsgrad, maximize,
                       decoupled_weight_decay, *, out):
    """One Adam (or, with `decoupled_weight_decay`, AdamW) step of a group of float32
    parameters, in place: torch's Adam, fused. Each step count is counted first, and the
    bias corrections are its parameter's, computed in Python floats as torch does.
    `max_exp_avg_sqs` is given with amsgrad only (empty otherwise).
    """
    corrections = []
    for state_step in state_steps:
        state_step += 1
        step = float(state_step)
        corrections.append((lr / (1 - beta1 ** step), (1 - beta2 ** step) ** 0.5))
    hyper = (beta1, beta2, lr, weight_decay, decoupled_weight_decay, maximize, eps)
    arrays = _per_parameter((self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs))
    run_group(adam_block, hyper, corrections, arrays)
