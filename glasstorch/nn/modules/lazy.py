"""`LazyModuleMixin`: modules whose parameter shapes come from their first input.

A lazy layer (torch's LazyLinear, LazyConv2d, ...) starts with UninitializedParameters.
Two hooks do the rest: a forward pre-hook calls the layer's `initialize_parameters`
with the first input, which materializes the parameters, then both hooks remove
themselves and the module becomes its `cls_to_become` (LazyLinear -> Linear); a load
pre-hook materializes them with the checkpoint's shapes when a state dict arrives first.
"""
from __future__ import annotations

from typing import Any

from ...autograd.grad_mode import no_grad
from ..parameter import is_lazy

__all__ = ["LazyModuleMixin"]


class LazyModuleMixin:
    """Mix into a Module subclass (before it in the bases) whose parameters start as
    `UninitializedParameter`; the subclass defines ``initialize_parameters(*args,
    **kwargs)``, which materializes them from the first forward's arguments, and may
    set `cls_to_become` to the class the module turns into afterwards.

    Example::

        >>> class LazyScale(nn.modules.lazy.LazyModuleMixin, nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.scale = nn.UninitializedParameter()
        ...     def initialize_parameters(self, x):
        ...         if self.has_uninitialized_params():
        ...             with torch.no_grad():
        ...                 self.scale.materialize(x.shape[-1:])
        ...                 self.scale.fill_(2.0)
        ...     def forward(self, x):
        ...         return x * self.scale
        >>> LazyScale()(torch.ones(3))
        tensor([2., 2., 2.], grad_fn=<MulBackward0>)
    """

    cls_to_become: type | None = None

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._load_hook = self._register_load_state_dict_pre_hook(self._lazy_load_hook)
        self._initialize_hook = self.register_forward_pre_hook(self._infer_parameters,
                                                               with_kwargs=True)

    def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
        # As Module's, except that placeholders are saved as they are (not detached).
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if is_lazy(param) or keep_vars \
                    else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if is_lazy(buf) or keep_vars else buf.detach()

    def _lazy_load_hook(self, state_dict: dict, prefix: str, local_metadata: dict,
                        strict: bool, missing_keys: list, unexpected_keys: list,
                        error_msgs: list) -> None:
        """Materialize placeholders with the shapes of the checkpoint's tensors."""
        for name, param in (*self._parameters.items(), *self._buffers.items()):
            key = prefix + name
            if key in state_dict and param is not None and is_lazy(param) \
                    and not is_lazy(state_dict[key]):
                with no_grad():
                    param.materialize(state_dict[key].shape)

    def initialize_parameters(self, *args, **kwargs) -> None:
        """Materialize the parameters from the first forward's arguments (subclasses)."""
        raise NotImplementedError(f"initialize_parameters is not implemented for "
                                  f"{type(self).__name__}")

    def has_uninitialized_params(self) -> bool:
        """Whether a parameter or buffer is still a placeholder."""
        return any(is_lazy(value) for value in (*self._parameters.values(),
                                                *self._buffers.values()))

    def _infer_parameters(self, module, args: tuple, kwargs: dict | None = None) -> None:
        """The forward pre-hook: initialize, check, remove both hooks, change class."""
        module.initialize_parameters(*args, **(kwargs or {}))
        if module.has_uninitialized_params():
            raise RuntimeError(f"module {self._get_name()} has not been fully initialized")
        module._initialize_hook.remove()
        module._load_hook.remove()
        delattr(module, "_initialize_hook")
        delattr(module, "_load_hook")
        if module.cls_to_become is not None:
            module.__class__ = module.cls_to_become

    def _replicate_for_data_parallel(self) -> Any:
        raise RuntimeError("Modules with uninitialized parameters can't be used with "
                           "`DataParallel`. Run a dummy forward pass to correctly initialize "
                           "the modules")
