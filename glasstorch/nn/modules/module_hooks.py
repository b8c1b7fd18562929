"""Module hooks: forward pre/post hooks, full backward hooks, the global hooks of every
module, and the slow path of `Module.__call__` that runs them.

The functions named like Module methods are installed on `Module` (module.py), so they
are ordinary methods of the class; this file only keeps them together.
"""
from __future__ import annotations

import warnings
from collections import OrderedDict
from typing import Any, Callable

from ...c10.tensor_impl import TensorBase
from ...utils.hooks import BackwardHook, RemovableHandle

__all__ = ["register_module_forward_pre_hook", "register_module_forward_hook",
           "register_module_full_backward_pre_hook", "register_module_full_backward_hook",
           "register_module_backward_hook",
           "register_module_buffer_registration_hook",
           "register_module_module_registration_hook",
           "register_module_parameter_registration_hook"]

# Hooks of every module (torch.nn.modules.module.register_module_*). Module.__call__
# reads the first four to decide whether its fast path applies.
_global_backward_pre_hooks: dict[int, Callable] = OrderedDict()
_global_backward_hooks: dict[int, Callable] = OrderedDict()
_global_is_full_backward_hook: bool | None = None
_global_forward_pre_hooks: dict[int, Callable] = OrderedDict()
_global_forward_hooks: dict[int, Callable] = OrderedDict()
_global_forward_hooks_always_called: dict[int, bool] = OrderedDict()
_global_forward_hooks_with_kwargs: dict[int, bool] = OrderedDict()
_global_buffer_registration_hooks: dict[int, Callable] = OrderedDict()
_global_module_registration_hooks: dict[int, Callable] = OrderedDict()
_global_parameter_registration_hooks: dict[int, Callable] = OrderedDict()


def _register(table: dict, hook: Callable, prepend: bool = False, **extra: dict) -> RemovableHandle:
    """Put `hook` into `table` (first when `prepend`); `extra` maps dicts to a flag that
    marks the hook in them when true."""
    marked = [d for d, flag in extra.values() if flag]
    handle = RemovableHandle(table, extra_dict=[d for d, _ in extra.values()] or None)
    table[handle.id] = hook
    for marks in marked:
        marks[handle.id] = True
    if prepend:
        table.move_to_end(handle.id, last=False)
    return handle


# ----- global hooks ---------------------------------------------------------------------
def register_module_forward_pre_hook(hook: Callable) -> RemovableHandle:
    """Run ``hook(module, args)`` before every module's forward (see
    `Module.register_forward_pre_hook`)."""
    return _register(_global_forward_pre_hooks, hook)


def register_module_forward_hook(hook: Callable, *, with_kwargs: bool = False,
                                 always_call: bool = False) -> RemovableHandle:
    """Run ``hook(module, args, output)`` after every module's forward (see
    `Module.register_forward_hook`)."""
    return _register(_global_forward_hooks, hook,
                     kwargs=(_global_forward_hooks_with_kwargs, with_kwargs),
                     always=(_global_forward_hooks_always_called, always_call))


def register_module_full_backward_pre_hook(hook: Callable) -> RemovableHandle:
    """Run ``hook(module, grad_output)`` for every module when its output gradients are known."""
    return _register(_global_backward_pre_hooks, hook)


def register_module_full_backward_hook(hook: Callable) -> RemovableHandle:
    """Run ``hook(module, grad_input, grad_output)`` for every module once its input
    gradients are known."""
    _set_global_backward_kind(True)
    return _register(_global_backward_hooks, hook)


def register_module_backward_hook(hook: Callable) -> RemovableHandle:
    """Deprecated form of `register_module_full_backward_hook` (see
    `Module.register_backward_hook`)."""
    _set_global_backward_kind(False)
    return _register(_global_backward_hooks, hook)


def _set_global_backward_kind(full: bool) -> None:
    global _global_is_full_backward_hook
    if _global_is_full_backward_hook is (not full):
        raise RuntimeError("Cannot use both regular backward hooks and full backward hooks as a "
                           "global Module hook. Please use only one of them.")
    _global_is_full_backward_hook = full


def register_module_buffer_registration_hook(hook: Callable) -> RemovableHandle:
    """Run ``hook(module, name, buffer)`` on every buffer registration; a returned
    tensor is registered instead."""
    return _register(_global_buffer_registration_hooks, hook)


def register_module_module_registration_hook(hook: Callable) -> RemovableHandle:
    """Run ``hook(module, name, submodule)`` on every submodule registration."""
    return _register(_global_module_registration_hooks, hook)


def register_module_parameter_registration_hook(hook: Callable) -> RemovableHandle:
    """Run ``hook(module, name, param)`` on every parameter registration."""
    return _register(_global_parameter_registration_hooks, hook)


def run_registration_hooks(table: dict, module, name: str, value):
    """`value` after the global registration hooks of `table` had their say."""
    for hook in table.values():
        output = hook(module, name, value)
        if output is not None:
            value = output
    return value


# ----- per-module hooks (installed as Module methods) -------------------------------------
def register_forward_pre_hook(self, hook: Callable, *, prepend: bool = False,
                              with_kwargs: bool = False) -> RemovableHandle:
    """Run ``hook(module, args)`` before `forward`; a returned value (a tuple, or one
    value that is wrapped in a tuple) replaces the positional arguments. With
    ``with_kwargs=True`` it is ``hook(module, args, kwargs)`` and may return a new
    ``(args, kwargs)`` pair. ``prepend=True`` runs it before the hooks already there.
    Returns a handle whose ``remove()`` unregisters it."""
    return _register(self._forward_pre_hooks, hook, prepend,
                     kwargs=(self._forward_pre_hooks_with_kwargs, with_kwargs))


def register_forward_hook(self, hook: Callable, *, prepend: bool = False,
                          with_kwargs: bool = False, always_call: bool = False) -> RemovableHandle:
    """Run ``hook(module, args, output)`` after `forward` (``hook(module, args, kwargs,
    output)`` with ``with_kwargs=True``); a returned value replaces the output.
    ``always_call=True`` runs it even when forward raised. Returns a removable handle."""
    return _register(self._forward_hooks, hook, prepend,
                     kwargs=(self._forward_hooks_with_kwargs, with_kwargs),
                     always=(self._forward_hooks_always_called, always_call))


def register_full_backward_pre_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
    """Run ``hook(module, grad_output)`` when the gradients of the module's outputs are
    known; a returned tuple replaces grad_output. See Note [Module backward hooks]."""
    return _register(self._backward_pre_hooks, hook, prepend)


def register_full_backward_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
    """Run ``hook(module, grad_input, grad_output)`` when the gradients of the module's
    inputs are known; a returned tuple replaces grad_input. See Note [Module backward hooks]."""
    if self._is_full_backward_hook is False:
        raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a "
                           "single Module. Please use only one of them.")
    self._is_full_backward_hook = True
    return _register(self._backward_hooks, hook, prepend)


def register_backward_hook(self, hook: Callable) -> RemovableHandle:
    """Deprecated form of `register_full_backward_hook`: the hook is put on the grad_fn
    of the output, so it sees that node's gradients only."""
    if self._is_full_backward_hook is True:
        raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a "
                           "single Module. Please use only one of them.")
    self._is_full_backward_hook = False
    return _register(self._backward_hooks, hook)


def _get_backward_hooks(self) -> tuple[list, list]:
    """(full backward hooks, old-style backward hooks) that apply to this module, the
    global ones first."""
    full, old = [], []
    for owner_is_full, table in ((_global_is_full_backward_hook, _global_backward_hooks),
                                 (self._is_full_backward_hook, self._backward_hooks)):
        if owner_is_full is True:
            full += table.values()
        elif owner_is_full is False:
            old += table.values()
    return full, old


def _get_backward_pre_hooks(self) -> list:
    """The backward pre-hooks that apply to this module, the global ones first."""
    return [*_global_backward_pre_hooks.values(), *self._backward_pre_hooks.values()]


# ----- the slow path of __call__ -------------------------------------------------------------
def call_with_hooks(module, args: tuple, kwargs: dict) -> Any:
    """Run `module.forward` between its hooks (and the global ones).

    When forward or a hook raises, forward hooks registered with ``always_call=True``
    that have not run yet still run, then the error propagates.
    """
    called: set = set()
    state = {"args": args, "kwargs": kwargs, "result": None}
    try:
        return _call_inner(module, state, called)
    except Exception:
        _run_always_called_hooks(module, state, called)
        raise


def _call_inner(module, state: dict, called: set) -> Any:
    pre_hooks = module._get_backward_pre_hooks()
    full_hooks, old_hooks = module._get_backward_hooks()
    _run_forward_pre_hooks(module, state)
    backward_hook = None
    if full_hooks or pre_hooks:
        backward_hook = BackwardHook(module, full_hooks, pre_hooks)
        state["args"] = backward_hook.setup_input_hook(state["args"])
    state["result"] = module.forward(*state["args"], **state["kwargs"])
    _run_forward_hooks(module, state, called)
    if backward_hook is not None:
        result = state["result"]
        if not isinstance(result, (TensorBase, tuple)):
            warnings.warn("For backward hooks to be called, module output should be a Tensor or "
                          f"a tuple of Tensors but received {type(result)}", stacklevel=2)
        state["result"] = backward_hook.setup_output_hook(result)
    if old_hooks:
        _attach_old_backward_hooks(module, state["args"], state["result"], old_hooks)
    return state["result"]


def _run_forward_pre_hooks(module, state: dict) -> None:
    for hook_id, hook in (*_global_forward_pre_hooks.items(),
                          *module._forward_pre_hooks.items()):
        if hook_id in module._forward_pre_hooks_with_kwargs:
            replaced = hook(module, state["args"], state["kwargs"])
            if replaced is None:
                continue
            if not (isinstance(replaced, tuple) and len(replaced) == 2):
                raise RuntimeError("forward pre-hook must return None or a tuple of "
                                   f"(new_args, new_kwargs), but got {replaced}.")
            state["args"], state["kwargs"] = replaced
        else:
            replaced = hook(module, state["args"])
            if replaced is not None:
                state["args"] = replaced if isinstance(replaced, tuple) else (replaced,)


def _run_forward_hooks(module, state: dict, called: set) -> None:
    for hook_id, hook in (*_global_forward_hooks.items(), *module._forward_hooks.items()):
        if hook_id in module._forward_hooks_always_called \
                or hook_id in _global_forward_hooks_always_called:
            called.add(hook_id)
        _run_one_forward_hook(module, state, hook_id, hook)


def _run_one_forward_hook(module, state: dict, hook_id: int, hook: Callable) -> None:
    if hook_id in module._forward_hooks_with_kwargs \
            or hook_id in _global_forward_hooks_with_kwargs:
        replaced = hook(module, state["args"], state["kwargs"], state["result"])
    else:
        replaced = hook(module, state["args"], state["result"])
    if replaced is not None:
        state["result"] = replaced


def _run_always_called_hooks(module, state: dict, called: set) -> None:
    """After a failure: the ``always_call`` forward hooks that did not run yet, each
    silenced (with a warning) if it fails too."""
    for scope, table, always in (
            ("global module", _global_forward_hooks, _global_forward_hooks_always_called),
            ("module", module._forward_hooks, module._forward_hooks_always_called)):
        for hook_id, hook in list(table.items()):
            if hook_id not in always or hook_id in called:
                continue
            try:
                _run_one_forward_hook(module, state, hook_id, hook)
            except Exception as error:
                warnings.warn(f"{scope} forward hook with ``always_call=True`` raised an "
                              "exception that was silenced as another error was raised in "
                              f"forward: {error}", stacklevel=2)


def _attach_old_backward_hooks(module, args: tuple, result, hooks: list) -> None:
    """Deprecated backward hooks go on the grad_fn of the first output tensor."""
    value = result
    while not isinstance(value, TensorBase):
        value = next(v for v in value.values() if isinstance(v, TensorBase)) \
            if isinstance(value, dict) else value[0]
    grad_fn = value.grad_fn
    if grad_fn is None:
        return
    for hook in hooks:
        grad_fn.register_hook(_bind_module(hook, module))
    _warn_old_backward_hook(args, result, grad_fn)


_OLD_HOOK_WARNINGS = {
    "output": "Using non-full backward hooks on a Module that does not return a single Tensor "
              "or a tuple of Tensors is deprecated and will be removed in future versions. This "
              "hook will be missing some of the grad_output. Please use "
              "register_full_backward_hook to get the documented behavior.",
    "input": "Using non-full backward hooks on a Module that does not take as input a single "
             "Tensor or a tuple of Tensors is deprecated and will be removed in future versions. "
             "This hook will be missing some of the grad_input. Please use "
             "register_full_backward_hook to get the documented behavior.",
    "nested": "Using a non-full backward hook when outputs are nested in python data structure "
              "is deprecated and will be removed in future versions. This hook will be missing "
              "some grad_output.",
    "outputs": "Using a non-full backward hook when outputs are generated by different autograd "
               "Nodes is deprecated and will be removed in future versions. This hook will be "
               "missing some grad_output. Please use register_full_backward_hook to get the "
               "documented behavior.",
    "inner": "Using a non-full backward hook when the forward contains multiple autograd Nodes "
             "is deprecated and will be removed in future versions. This hook will be missing "
             "some grad_input. Please use register_full_backward_hook to get the documented "
             "behavior.",
}


def _old_hook_problem(args: tuple, result, grad_fn) -> str | None:
    """Why a deprecated backward hook on `grad_fn` cannot see all gradients, if it cannot."""
    outputs = (result,) if isinstance(result, TensorBase) else result
    if not (isinstance(outputs, tuple) and all(isinstance(r, TensorBase) for r in outputs)):
        return "output"
    if not all(isinstance(a, TensorBase) for a in args):
        return "input"
    output_nodes = {r.grad_fn for r in outputs if r.grad_fn is not None}
    if not output_nodes or (len(output_nodes) == 1 and grad_fn not in output_nodes):
        return "nested"
    if len(output_nodes) > 1:
        return "outputs"
    input_nodes = {a.grad_fn for a in args if a.grad_fn is not None}
    if input_nodes != {edge[0] for edge in grad_fn.next_functions}:
        return "inner"
    return None


def _warn_old_backward_hook(args: tuple, result, grad_fn) -> None:
    problem = _old_hook_problem(args, result, grad_fn)
    if problem is not None:
        warnings.warn(_OLD_HOOK_WARNINGS[problem], FutureWarning, stacklevel=4)


def _bind_module(hook: Callable, module) -> Callable:
    def bound(grad_input, grad_output):
        return hook(module, grad_input, grad_output)
    return bound
