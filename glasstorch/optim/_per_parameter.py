"""`PerParameterOptimizer`: the step loop the element-wise optimizers share.

Adadelta, Adafactor, Adagrad, Adamax, ASGD, Muon, NAdam, RAdam, RMSprop and Rprop differ
only in their state and in the arithmetic one parameter's update does. The loop around
it is the same (see Note [One parameter at a time]), so it is written once here, for
`step` and for the functional forms (`update_parameters`); each optimizer file holds its
hyperparameter checks, its state and its update.

Note [One parameter at a time]
------------------------------
torch has three forms of each update: a for-loop over parameters (its default on CPU),
a `foreach` form over lists and, for some, a `fused` kernel. They compute the same
thing, rounding within torch.testing's tolerances of each other. glasstorch has one: the
for-loop's arithmetic, operator for operator, so that its results round as torch's CPU
default does; `foreach` and `fused` are accepted where torch accepts them and run it.

A complex parameter is updated as torch views it: its real and imaginary parts as two
real numbers (`view_as_real`), so every state tensor shaped like the parameter is
viewed the same way before the update sees it. A `differentiable` optimizer runs the
same operators with grad mode on, so autograd records the update.
"""
from __future__ import annotations

from typing import Any, Callable

import glasstorch as torch
from ..autograd.grad_mode import enable_grad, set_grad_enabled
from ..c10.dtype import float32, float64
from ..c10.promotion import get_default_dtype
from ..c10.tensor_impl import TensorBase
from .optimizer import Optimizer, to_scalar

# The devices torch's capturable (CUDA graph) steps accept; a CPU step refuses them.
CAPTURABLE_DEVICES = ["cuda", "xpu", "hpu", "privateuseone", "xla"]


def check_lr(lr: float | TensorBase) -> None:
    """torch's first two checks of every optimizer's learning rate."""
    if isinstance(lr, TensorBase) and lr.numel() != 1:
        raise ValueError("Tensor lr must be 1-element")
    if not 0.0 <= lr:
        raise ValueError(f"Invalid learning rate: {lr}")


def check_betas(betas: tuple) -> None:
    """torch's check that both averaging rates lie in [0, 1)."""
    for index in (0, 1):
        if not 0.0 <= betas[index] < 1.0:
            raise ValueError(f"Invalid beta parameter at index {index}: {betas[index]}")


def check_fused_param(param: TensorBase) -> None:
    """torch's refusal of a ``fused=True`` step on a parameter its fused kernels do not
    take (anything but a floating-point tensor)."""
    if not param.is_floating_point():
        raise RuntimeError("`fused=True` requires all the params to be floating point "
                           "Tensors of supported devices: ['mps', 'cuda', 'xpu', 'hpu', "
                           f"'cpu', 'mtia', 'privateuseone'] but {param.dtype} and "
                           f"{param.device.type}")


def scalar_state(value: float = 0.0) -> TensorBase:
    """A number of an optimizer's state (its step count, ASGD's rates) as torch keeps it:
    a 0-dim tensor, float64 under a float64 default dtype and float32 otherwise."""
    dtype = float64 if get_default_dtype() is float64 else float32
    return torch.tensor(float(value), dtype=dtype)


class PerParameterOptimizer(Optimizer):
    """An optimizer whose step updates each parameter from its gradient and its own
    state alone (Note [One parameter at a time]).

    A subclass names its group flags and their defaults in `_flags` (filled into old
    checkpoints' groups), writes `_new_state` (the state of a parameter's first step)
    and `_update` (one parameter's step, on real views of complex tensors).
    """

    _flags: dict[str, Any] = {"foreach": None, "maximize": False, "differentiable": False,
                              "capturable": False}
    # What the capturable refusal lists besides the parameters (torch's wording).
    _capturable_devices: list[str] = CAPTURABLE_DEVICES
    _capturable_tensors = "params and state_steps"

    def __setstate__(self, state: dict[str, Any]) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            for key, default in self._flags.items():
                group.setdefault(key, default)
            for param in group["params"]:
                param_state = self.state.get(param, {})
                if "step" in param_state and not isinstance(param_state["step"], TensorBase):
                    # checkpoints of old versions counted steps as Python numbers
                    param_state["step"] = scalar_state(param_state["step"])

    def _new_state(self, group: dict, param: TensorBase) -> dict[str, Any]:
        raise NotImplementedError

    @staticmethod
    def _update(group: dict, param: TensorBase, grad: TensorBase, state: dict[str, Any],
                lr: Any) -> None:
        raise NotImplementedError

    def _check_param(self, group: dict, param: TensorBase) -> None:
        """Refusals of a parameter before any is updated (none by default)."""

    def step(self, closure: Callable[[], float] | None = None) -> float | None:
        """Perform one optimization step.

        Args:
            closure (Callable, optional): re-evaluates the model and returns the loss.
        """
        loss = None
        if closure is not None:
            with enable_grad():
                loss = closure()
        # autograd records the update only for a differentiable optimizer
        with set_grad_enabled(bool(self.defaults.get("differentiable"))):
            self._update_groups()
        return loss

    def _update_groups(self) -> None:
        for group in self.param_groups:
            params = [param for param in group["params"] if param.grad is not None]
            states = [self._prepare(group, param) for param in params]
            update_parameters(type(self), group, params, [p.grad for p in params], states,
                              group["lr"])

    def _prepare(self, group: dict, param: TensorBase) -> dict[str, Any]:
        """The parameter's state (made on its first step), after torch's refusals."""
        name = type(self).__name__
        self._check_param(group, param)
        if param.grad.is_sparse:
            raise RuntimeError(f"{name} does not support sparse gradients")
        state = self.state[param]
        if len(state) == 0:
            state.update(self._new_state(group, param))
        step = state.get("step")
        if group.get("differentiable") and step is not None and step.requires_grad:
            raise RuntimeError("`requires_grad` is not supported for `step` in "
                               "differentiable mode")
        return state


def update_parameters(cls: type, group: dict, params: list, grads: list, states: list,
                      lr: Any) -> None:
    """`cls`'s update of each parameter from its gradient and its state (a dict), in
    order: the loop of `step` and of the functional forms (``torch.optim.adadelta.
    adadelta``, ...), which pass the hyperparameters as `group`."""
    lr = to_scalar(lr)
    for param, grad, state in zip(params, grads, states, strict=True):
        if group.get("capturable"):
            raise AssertionError(f"If capturable=True, {cls._capturable_tensors} must be on "
                                 f"supported devices: {cls._capturable_devices}.")
        if group.get("maximize"):
            grad = -grad
        cls._update(group, *_real_views(param, grad, state), lr)


def _real_views(param: TensorBase, grad: TensorBase, state: dict[str, Any]) -> tuple:
    """`param`, `grad` and `state` with every complex tensor shaped like the parameter
    viewed as real pairs (writes through the views reach the originals)."""
    if not param.is_complex():
        return param, grad, state

    def real(value):
        if isinstance(value, TensorBase) and value.is_complex() and value.shape == param.shape:
            return torch.view_as_real(value)
        return value
    return real(param), real(grad), {key: real(value) for key, value in state.items()}

