"""Modules as functions: `functional_call`, `stack_module_state` (an ensemble's weights
as one batch, for `vmap(functional_call)`), and `replace_all_batch_norm_modules_`."""
from __future__ import annotations

from typing import Any

import glasstorch as torch

from ..nn.modules.batchnorm import _BatchNorm
from ..nn.modules.module import Module
from ..nn.utils.stateless import _functional_call


def functional_call(module: Module, parameter_and_buffer_dicts, args: Any = None,
                    kwargs: dict | None = None, *, tie_weights: bool = True,
                    strict: bool = False):
    """Call `module` with the given parameters and buffers in place of its own.

    Args:
        module (nn.Module): the module to call.
        parameter_and_buffer_dicts (dict or tuple of dicts): tensors by dotted name (a
            name may appear in only one of the dicts).
        args (Any or tuple): the positional arguments (one non-tuple value is one).
        kwargs (dict): the keyword arguments.
        tie_weights (bool): a tensor given for one of tied names serves them all.
        strict (bool): every parameter and buffer must be given, and nothing else.

    Returns:
        What the module returns; its own parameters and buffers are back afterwards.

    Example::

        >>> m = torch.nn.Linear(2, 1)
        >>> torch.func.functional_call(m, {"weight": torch.ones(1, 2), "bias": torch.zeros(1)},
        ...                            (torch.ones(1, 2),))
        tensor([[2.]])
    """
    return _functional_call(module, parameter_and_buffer_dicts, args, kwargs,
                            tie_weights=tie_weights, strict=strict)


def _stacked_leaf(tensors: tuple, name: str):
    wanted = [t.requires_grad for t in tensors]
    if any(wanted) and not all(wanted):
        raise RuntimeError(f"Expected {name} from each model to have the same .requires_grad")
    stacked = torch.stack(tensors)
    return stacked.detach().requires_grad_() if all(wanted) else stacked


def stack_module_state(models) -> tuple:
    """The parameters and buffers of same-class models, each stacked along a new dim 0.

    Args:
        models (list of nn.Module): models of one class, all training or all evaluating.

    Returns:
        ``(params, buffers)``: dicts by name; stacked parameters are new leaves that
        require grad when the models' do.

    Example::

        >>> models = [torch.nn.Linear(3, 2) for _ in range(4)]
        >>> params, buffers = torch.func.stack_module_state(models)
        >>> params["weight"].shape
        torch.Size([4, 2, 3])
    """
    models = list(models)
    if not models:
        raise RuntimeError("stack_module_state: Expected at least one model, got 0.")
    if len({m.training for m in models}) != 1:
        raise RuntimeError("stack_module_state: Expected all models to have the same "
                           "training/eval mode.")
    if len({type(m) for m in models}) != 1:
        raise RuntimeError("stack_module_state: Expected all models to be of the same class.")
    all_params = [dict(m.named_parameters()) for m in models]
    all_buffers = [dict(m.named_buffers()) for m in models]
    params = {k: _stacked_leaf(tuple(p[k] for p in all_params), k) for k in all_params[0]}
    buffers = {k: _stacked_leaf(tuple(b[k] for b in all_buffers), k) for k in all_buffers[0]}
    return params, buffers


def replace_all_batch_norm_modules_(root: Module) -> Module:
    """Make every batch norm in `root` stop tracking running statistics (in place), so
    that vmap over the module never writes per-sample statistics into shared buffers.

    Returns:
        `root`.
    """
    for module in root.modules():
        if isinstance(module, _BatchNorm):
            module.running_mean = None
            module.running_var = None
            module.num_batches_tracked = None
            module.track_running_stats = False
    return root
