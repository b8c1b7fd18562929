"""torch.utils.module_tracker: which modules a program is inside, forward and backward.

`ModuleTracker.parents` is the set of the modules whose forward (or backward) is running,
by name: ``"Global"`` always, the outermost module by its class name, each submodule by
its parent's name and its attribute (``"Sequential.0"``). Forward is followed by global
module hooks; backward by gradient hooks: a module is entered when its outputs'
gradients arrive and left once its inputs' gradients are computed.
"""
from __future__ import annotations

import warnings
import weakref

from ..autograd.graph import register_multi_grad_hook
from ..nn.modules.module_hooks import (register_module_forward_hook,
                                       register_module_forward_pre_hook)
from .._tensor import Tensor

__all__ = ["ModuleTracker"]


def _tensors_requiring_grad(value) -> list:
    if isinstance(value, Tensor):
        return [value] if value.requires_grad else []
    if isinstance(value, (list, tuple)):
        return [t for item in value for t in _tensors_requiring_grad(item)]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _tensors_requiring_grad(item)]
    return []


class ModuleTracker:
    """A context manager following the module hierarchy of the code run inside it.

    Example::

        >>> with ModuleTracker() as tracker:
        ...     model(x)          # inside, tracker.parents names the running modules
    """

    parents: set

    def __init__(self) -> None:
        self.parents = {"Global"}
        self._known_modules: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
        self._seen_modules: weakref.WeakSet = weakref.WeakSet()
        self._handles: list = []
        self._is_bw = False

    @property
    def is_bw(self) -> bool:
        """Whether the code now running is a backward pass."""
        return self._is_bw

    def _get_mod_name(self, mod) -> str:
        if mod not in self._known_modules:
            self._known_modules[mod] = type(mod).__name__
        name = self._known_modules[mod]
        if mod not in self._seen_modules:
            for child_name, child in mod.named_children():
                self._known_modules[child] = f"{name}.{child_name}"
            self._seen_modules.add(mod)
        return name

    def _enter(self, name: str, is_bw: bool):
        def enter(*ignored) -> None:
            self._is_bw = is_bw
            if name in self.parents:
                warnings.warn(f"The module hierarchy tracking seems to be broken as this "
                              f"Module was already entered. {name} during "
                              f"{'backward' if is_bw else 'forward'}", stacklevel=2)
            self.parents.add(name)
        return enter

    def _leave(self, name: str, is_bw: bool):
        def leave(*ignored) -> None:
            if name in self.parents:
                self.parents.remove(name)
            elif not is_bw:             # backward may skip modules gradients do not reach
                warnings.warn(f"The Module hierarchy tracking is confused as we're exiting "
                              f"a Module that was never entered. {name}", stacklevel=2)
        return leave

    def _fw_pre_hook(self, mod, inputs) -> None:
        name = self._get_mod_name(mod)
        self._enter(name, False)()
        tensors = _tensors_requiring_grad(inputs)
        if tensors:
            register_multi_grad_hook(tensors, self._leave(name, True))

    def _fw_post_hook(self, mod, inputs, outputs) -> None:
        name = self._get_mod_name(mod)
        self._leave(name, False)()
        tensors = _tensors_requiring_grad(outputs)
        if tensors:
            register_multi_grad_hook(tensors, self._enter(name, True))

    def __enter__(self) -> "ModuleTracker":
        self._handles = [register_module_forward_pre_hook(self._fw_pre_hook),
                         register_module_forward_hook(self._fw_post_hook)]
        return self

    def __exit__(self, *args) -> None:
        for handle in self._handles:
            handle.remove()
        self._handles = []
