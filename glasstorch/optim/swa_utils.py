"""torch.optim.swa_utils: weight averaging (Stochastic Weight Averaging and exponential
moving averages) of a model along its training.

`AveragedModel` keeps a copy of a model whose parameters (and, with `use_buffers`,
buffers) are an average of the model's at each `update_parameters` call: by default
the running mean (SWA), or any rule given as `avg_fn` (one tensor at a time) or
`multi_avg_fn` (a list of tensors of one device and dtype at a time); the
``get_*_avg_fn`` factories make the usual ones. `SWALR` anneals each group's lr to a
constant SWA lr, and `update_bn` recomputes batch-norm statistics for the averaged
weights (averaging weights does not average the activations' statistics).
"""
from __future__ import annotations

import itertools
import math
from copy import deepcopy
from typing import Any, Callable, Iterable

import glasstorch as torch
from ..autograd.grad_mode import no_grad
from ..c10.tensor_impl import TensorBase
from ..nn.modules.module import Module
from ._scheduler import LRScheduler, per_group
from .optimizer import Optimizer

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn",
           "get_swa_multi_avg_fn", "get_ema_avg_fn", "get_swa_avg_fn"]


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in "
                         "[0,1] range.")


def _is_inexact(tensor: TensorBase) -> bool:
    return tensor.is_floating_point() or tensor.is_complex()


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable:
    """The exponential moving average, for `AveragedModel`'s `multi_avg_fn`:
    ``averaged = decay * averaged + (1 - decay) * current``, in place.

    Args:
        decay (float): the weight kept by the average, in [0, 1] (default: 0.999).
    """
    _check_decay(decay)

    @no_grad()
    def ema_update(averaged: list, current: list, _num_averaged: Any) -> None:
        if _is_inexact(averaged[0]):
            for p_ema, p_model in zip(averaged, current):
                p_ema.lerp_(p_model, 1 - decay)
        else:
            for p_ema, p_model in zip(averaged, current):
                p_ema.copy_(p_ema * decay + p_model * (1 - decay))
    return ema_update


def get_swa_multi_avg_fn() -> Callable:
    """The running mean, for `AveragedModel`'s `multi_avg_fn`: after `n` averages,
    ``averaged += (current - averaged) / (n + 1)``, in place."""
    @no_grad()
    def swa_update(averaged: list, current: list, num_averaged: TensorBase | int) -> None:
        if _is_inexact(averaged[0]):
            for p_avg, p_model in zip(averaged, current):
                p_avg.lerp_(p_model, 1 / (num_averaged + 1))
            return
        for p_avg, p_model in zip(averaged, current):
            diff = p_model - p_avg
            if isinstance(num_averaged, TensorBase):
                p_avg.addcdiv_(diff, num_averaged + 1)
            else:
                p_avg.add_(diff, alpha=1.0 / (num_averaged + 1))
    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable:
    """The exponential moving average of one tensor, for `AveragedModel`'s `avg_fn`:
    returns ``decay * averaged + (1 - decay) * current``.

    Args:
        decay (float): the weight kept by the average, in [0, 1] (default: 0.999).
    """
    _check_decay(decay)

    @no_grad()
    def ema_update(ema_param: TensorBase, current_param: TensorBase,
                   num_averaged: Any) -> TensorBase:
        return decay * ema_param + (1 - decay) * current_param
    return ema_update


def get_swa_avg_fn() -> Callable:
    """The running mean of one tensor, for `AveragedModel`'s `avg_fn`: returns
    ``averaged + (current - averaged) / (n + 1)`` after `n` averages."""
    @no_grad()
    def swa_update(averaged_param: TensorBase, current_param: TensorBase,
                   num_averaged: TensorBase | int) -> TensorBase:
        return averaged_param + (current_param - averaged_param) / (num_averaged + 1)
    return swa_update


class AveragedModel(Module):
    """A copy of `model` holding the average of its weights over `update_parameters`
    calls; calling it runs the copy.

    Args:
        model (Module): the model to average (deep-copied).
        device (device, optional): where the copy lives (default: the model's device).
        avg_fn (callable, optional): ``avg_fn(averaged, current, num_averaged)``
            returning one tensor's new average (default: the running mean).
        multi_avg_fn (callable, optional): the same on lists of tensors, in place
            (only one of `avg_fn` and `multi_avg_fn`).
        use_buffers (bool): average the buffers too; otherwise they are copied from
            the model at each update (default: False).

    Example::

        >>> ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.999))
        >>> for batch in loader:
        ...     train_step(model, batch)
        ...     ema.update_parameters(model)
    """

    n_averaged: TensorBase

    def __init__(self, model: Module, device: Any = None, avg_fn: Callable | None = None,
                 multi_avg_fn: Callable | None = None, use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", torch.tensor(0, dtype=torch.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        """Run the averaged copy of the model."""
        return self.module(*args, **kwargs)

    def _tensor_pairs(self, model: Module) -> list[tuple[TensorBase, TensorBase]]:
        """(averaged, current) pairs, detached; the current ones moved to the averaged
        ones' device."""
        if self.use_buffers:
            mine = itertools.chain(self.module.parameters(), self.module.buffers())
            theirs = itertools.chain(model.parameters(), model.buffers())
        else:
            mine, theirs = self.parameters(), model.parameters()
        return [(averaged.detach(), current.detach().to(averaged.device))
                for averaged, current in zip(mine, theirs)]

    def update_parameters(self, model: Module) -> None:
        """Average `model`'s current weights into the copy (the first call copies them).

        Args:
            model (Module): the trained model (the one the copy was made from).
        """
        pairs = self._tensor_pairs(model)
        if self.n_averaged == 0:
            for averaged, current in pairs:
                averaged.copy_(current)
        if self.n_averaged > 0:
            if self.avg_fn is not None and self.multi_avg_fn is None:
                for averaged, current in pairs:
                    n_averaged = self.n_averaged.to(averaged.device)
                    averaged.copy_(self.avg_fn(averaged, current, n_averaged))
            else:
                self._average_by_group(pairs)
        if not self.use_buffers:
            for mine, theirs in zip(self.module.buffers(), model.buffers()):
                mine.detach().copy_(theirs.detach().to(mine.device))
        self.n_averaged += 1

    def _average_by_group(self, pairs: list) -> None:
        """`multi_avg_fn` once per (device, dtype) group; without it the running mean,
        one tensor at a time (as torch does on the CPU, which has no fused kernels)."""
        groups: dict = {}
        for averaged, current in pairs:
            lists = groups.setdefault((averaged.device, averaged.dtype), ([], []))
            lists[0].append(averaged)
            lists[1].append(current)
        for (device, _), (averaged, current) in groups.items():
            n_averaged = self.n_averaged.to(device)
            if self.multi_avg_fn is not None:
                self.multi_avg_fn(averaged, current, n_averaged)
                continue
            mean = get_swa_avg_fn()
            for one, other in zip(averaged, current):
                one.copy_(mean(one, other, n_averaged))


@no_grad()
def update_bn(loader: Iterable[Any], model: Module, device: Any = None) -> None:
    """Recompute the running statistics of `model`'s batch-norm layers over one pass
    of `loader` (an equal-weight average over its batches).

    Args:
        loader (iterable): batches (a list or tuple batch gives its first element).
        model (Module): the model (usually an `AveragedModel`).
        device (device, optional): where each batch is moved first.

    Example::

        >>> update_bn(train_loader, swa_model)
    """
    from ..nn.modules.batchnorm import _BatchNorm
    momenta = {}
    for module in model.modules():
        if isinstance(module, _BatchNorm):
            module.reset_running_stats()
            momenta[module] = module.momentum
    if not momenta:
        return
    was_training = model.training
    model.train()
    for module in momenta:
        module.momentum = None          # a cumulative average over the pass
    for batch in loader:
        if isinstance(batch, (list, tuple)):
            batch = batch[0]
        if device is not None:
            batch = batch.to(device)
        model(batch)
    for module, momentum in momenta.items():
        module.momentum = momentum
    model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's lr to a constant `swa_lr` over `anneal_epochs` epochs, then
    hold it (the schedule of the SWA phase).

    Args:
        optimizer (Optimizer): the wrapped optimizer.
        swa_lr (float or list): the target lr, or one per group.
        anneal_epochs (int): the length of the annealing (default: 10).
        anneal_strategy (str): ``"cos"`` or ``"linear"`` (default: ``"cos"``).
        last_epoch (int): the index of the last epoch (default: -1).

    Example::

        >>> swa_scheduler = SWALR(opt, swa_lr=0.05, anneal_epochs=5)
    """

    def __init__(self, optimizer: Optimizer, swa_lr: float | list, anneal_epochs: int = 10,
                 anneal_strategy: str = "cos", last_epoch: int = -1) -> None:
        for value, group in zip(per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups):
            group["swa_lr"] = value
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: Any, swa_lr: Any, alpha: float) -> Any:
        """The lr the annealing started from, recovered from its value at weight
        `alpha` (the schedule is chainable: it reads the current lr)."""
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list:
        self._warn_outside_step()
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        groups = self.optimizer.param_groups
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        starts = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                  for group in groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [group["swa_lr"] * alpha + lr * (1 - alpha) for group, lr in zip(groups, starts)]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict[str, Any]:
        """The attributes but the optimizer and the annealing function."""
        return {key: value for key, value in self.__dict__.items()
                if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore the attributes (and the annealing function they name)."""
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
