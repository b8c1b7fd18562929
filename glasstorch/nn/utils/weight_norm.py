"""torch.nn.utils.weight_norm: weight normalization as a forward pre-hook (the older form;
`parametrizations.weight_norm` is its successor).

The module's ``<name>`` parameter is replaced by ``<name>_g`` (the magnitude) and
``<name>_v`` (the direction); a forward pre-hook recomputes ``<name> = g * v / ‖v‖``
(Note [Weight norm] in aten/native/nn/weight_norm.py) as a plain attribute before every
call.
"""
from __future__ import annotations

import warnings
from typing import Any, TypeVar

import glasstorch as torch

from ..modules.module import Module
from ..parameter import Parameter, UninitializedParameter

__all__ = ["WeightNorm", "weight_norm", "remove_weight_norm"]

_DEPRECATION = ("`torch.nn.utils.weight_norm` is deprecated in favor of "
                "`torch.nn.utils.parametrizations.weight_norm`.")


class WeightNorm:
    """The forward pre-hook computing ``<name>`` from ``<name>_g`` and ``<name>_v``.

    Args:
        name (str): the parameter's name.
        dim (int): the dim the magnitude runs along (None or -1: the whole tensor).
    """

    name: str
    dim: int

    def __init__(self, name: str, dim: int) -> None:
        self.name = name
        self.dim = -1 if dim is None else dim

    def compute_weight(self, module: Module) -> Any:
        """``g * v / ‖v‖`` from the module's two parameters."""
        g = getattr(module, self.name + "_g")
        v = getattr(module, self.name + "_v")
        return torch._weight_norm(v, g, self.dim)

    @staticmethod
    def apply(module: Module, name: str, dim: int) -> WeightNorm:
        """Split ``module.<name>`` into magnitude and direction and install the hook."""
        warnings.warn(_DEPRECATION, FutureWarning, stacklevel=2)
        for hook in module._forward_pre_hooks.values():
            if isinstance(hook, WeightNorm) and hook.name == name:
                raise RuntimeError(f"Cannot register two weight_norm hooks on the same "
                                   f"parameter {name}")
        fn = WeightNorm(name, dim)
        weight = getattr(module, name)
        if isinstance(weight, UninitializedParameter):
            raise ValueError("The module passed to `WeightNorm` can't have uninitialized "
                             "parameters. Make sure to run the dummy forward before applying "
                             "weight normalization")
        del module._parameters[name]
        module.register_parameter(name + "_g",
                                  Parameter(torch.norm_except_dim(weight, 2, fn.dim).data))
        module.register_parameter(name + "_v", Parameter(weight.data))
        setattr(module, name, fn.compute_weight(module))
        module.register_forward_pre_hook(fn)
        return fn

    def remove(self, module: Module) -> None:
        """Put back one ``<name>`` parameter holding the current weight."""
        weight = self.compute_weight(module)
        delattr(module, self.name)
        del module._parameters[self.name + "_g"]
        del module._parameters[self.name + "_v"]
        setattr(module, self.name, Parameter(weight.data))

    def __call__(self, module: Module, inputs: Any) -> None:
        setattr(module, self.name, self.compute_weight(module))


T_module = TypeVar("T_module", bound=Module)


def weight_norm(module: T_module, name: str = "weight", dim: int = 0) -> T_module:
    """Replace ``module.<name>`` by a magnitude ``<name>_g`` and a direction
    ``<name>_v``, recombined as ``g * v / ‖v‖`` before every forward call.

    Deprecated (FutureWarning): `torch.nn.utils.parametrizations.weight_norm` is the
    newer form.

    Args:
        module (Module): the module.
        name (str): the parameter's name (default ``"weight"``).
        dim (int, optional): the dim the magnitude runs along (default 0); None for one
            magnitude for the whole tensor.

    Returns:
        Module: `module`, with the hook.

    Example::

        >>> m = weight_norm(nn.Linear(20, 40), name="weight")
        >>> m.weight_g.size()
        torch.Size([40, 1])
    """
    WeightNorm.apply(module, name, dim)
    return module


def remove_weight_norm(module: T_module, name: str = "weight") -> T_module:
    """Undo `weight_norm`: ``module.<name>`` is one parameter again.

    Args:
        module (Module): the module.
        name (str): the parameter's name (default ``"weight"``).

    Returns:
        Module: `module`.

    Example::

        >>> m = remove_weight_norm(weight_norm(nn.Linear(20, 40)))
    """
    for key, hook in module._forward_pre_hooks.items():
        if isinstance(hook, WeightNorm) and hook.name == name:
            hook.remove(module)
            del module._forward_pre_hooks[key]
            return module
    raise ValueError(f"weight_norm of '{name}' not found in {module}")
