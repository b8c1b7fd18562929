"""`Optimizer`: the base class every optimizer builds on.

An optimizer holds `param_groups` (a list of dicts: the tensors under ``"params"`` plus
that group's hyperparameters, filled from `defaults`) and `state` (a dict keyed by the
parameter tensor itself, holding what the algorithm carries from step to step, such as
Adam's running averages). A subclass writes `step`; the base class gives it hooks
around each call, the checkpoint format (`state_dict` / `load_state_dict`, with
parameters replaced by their position, as torch saves them), `zero_grad` and `repr`.
"""
from __future__ import annotations

import functools
from collections import OrderedDict, defaultdict
from collections.abc import Callable, Iterable
from copy import deepcopy
from itertools import chain
from typing import Any, Optional, TypeAlias, Union
import warnings

from ..aten.observers import Region, enter_region, exit_region
from ..autograd.grad_mode import is_grad_enabled, set_grad_enabled
from ..c10.dtype import float32
from ..c10.tensor_impl import TensorBase
from ..utils._grads import reset_grad
from ..utils.hooks import RemovableHandle

__all__ = ["Optimizer", "register_optimizer_step_pre_hook",
           "register_optimizer_step_post_hook"]

# The typing names torch.optim.optimizer offers for hooks, checkpoints and parameters.
Args: TypeAlias = tuple[Any, ...]
Kwargs: TypeAlias = dict[str, Any]
StateDict: TypeAlias = dict[str, Any]
GlobalOptimizerPreHook: TypeAlias = Callable[["Optimizer", Args, Kwargs],
                                             Optional[tuple[Args, Kwargs]]]
GlobalOptimizerPostHook: TypeAlias = Callable[["Optimizer", Args, Kwargs], None]
ParamsT: TypeAlias = Union[Iterable[TensorBase], Iterable[dict[str, Any]],
                           Iterable[tuple[str, TensorBase]]]

# Hooks run around the step of every optimizer (pre hooks first, post hooks last).
_global_optimizer_pre_hooks: OrderedDict = OrderedDict()
_global_optimizer_post_hooks: OrderedDict = OrderedDict()


class _RequiredParameter:
    """The default of a hyperparameter every group must give itself."""

    def __repr__(self) -> str:
        return "<required parameter>"


required = _RequiredParameter()


def _typename(value: Any) -> str:
    """The name torch's messages give a value's type ("torch.FloatTensor", "int")."""
    if isinstance(value, TensorBase):
        return value.type()
    module = getattr(value, "__module__", None)
    prefix = "" if module in (None, "", "builtins") else module + "."
    name = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    return prefix + (name or type(value).__name__)


def _use_grad_for_differentiable(step: Callable) -> Callable:
    """Run `step` with grad mode on only for a ``differentiable=True`` optimizer.

    A plain step updates the parameters in place under no_grad (nothing records it);
    a differentiable one records the update, so that autograd can go through it.
    """
    @functools.wraps(step)
    def run(self, *args, **kwargs):
        previous = is_grad_enabled()
        set_grad_enabled(self.defaults["differentiable"])
        try:
            return step(self, *args, **kwargs)
        finally:
            set_grad_enabled(previous)
    return run


def to_scalar(value: Any) -> Any:
    """A one-element hyperparameter tensor as a 0-dim tensor; anything else unchanged."""
    if isinstance(value, TensorBase) and value.dim() != 0:
        return value.squeeze()
    return value


def float32_step(*tensors) -> bool:
    """Whether the float32 step operators (`aten/native/optim/steps.py`) can update these
    tensors (None entries are ignored): float32 CPU tensors. Others, and differentiable
    steps, take the readable form, which chains operators."""
    for tensor in tensors:
        if tensor is not None and (tensor._dtype is not float32 or
                                   tensor._device.type != "cpu"):
            return False
    return True


@functools.cache
def step_operator(name: str):
    """The operator ``torch.ops.aten.<name>.default`` (a step, `_foreach_zero_`), looked
    up once (its family loads on first use); called with every schema argument, in
    order (`op.call`)."""
    from ..aten import ops
    return getattr(ops.aten, name).default.call


def check_fused_flags(fused: bool | None, foreach: bool | None, differentiable: bool) -> None:
    """torch's refusals of ``fused=True`` combined with other implementation flags."""
    if fused:
        if differentiable:
            raise RuntimeError("`fused` does not support `differentiable`")
        if foreach:
            raise RuntimeError("`fused` and `foreach` cannot be `True` together.")


def _run_pre_hooks(self: "Optimizer", step: Callable, args: tuple, kwargs: dict) -> tuple:
    """The step's arguments after the global and the optimizer's pre hooks (each may
    return replacements)."""
    for hook in chain(_global_optimizer_pre_hooks.values(),
                      self._optimizer_step_pre_hooks.values()):
        result = hook(self, args, kwargs)
        if result is not None:
            if not (isinstance(result, tuple) and len(result) == 2):
                raise RuntimeError(f"{step} must return None or a tuple of "
                                   f"(new_args, new_kwargs), but got {result}.")
            args, kwargs = result
    return args, kwargs


def _register(table: OrderedDict, hook: Callable, prepend: bool = False) -> RemovableHandle:
    handle = RemovableHandle(table)
    table[handle.id] = hook
    if prepend:
        table.move_to_end(handle.id, last=False)
    return handle


def register_optimizer_step_pre_hook(hook: Callable) -> RemovableHandle:
    """Register ``hook(optimizer, args, kwargs)`` to run before every optimizer's step.

    It may return ``(new_args, new_kwargs)`` to replace the step's arguments.
    """
    return _register(_global_optimizer_pre_hooks, hook)


def register_optimizer_step_post_hook(hook: Callable) -> RemovableHandle:
    """Register ``hook(optimizer, args, kwargs)`` to run after every optimizer's step."""
    return _register(_global_optimizer_post_hooks, hook)


_HOOK_TABLES = ("_optimizer_step_pre_hooks", "_optimizer_step_post_hooks",
                "_optimizer_state_dict_pre_hooks", "_optimizer_state_dict_post_hooks",
                "_optimizer_load_state_dict_pre_hooks", "_optimizer_load_state_dict_post_hooks")


class Optimizer:
    """Base class for all optimizers.

    Args:
        params (iterable): the tensors to optimize, ``(name, tensor)`` pairs, or dicts
            defining parameter groups (each with its own ``"params"`` and options).
        defaults (dict): the options a group takes when it does not give its own.

    Parameters must come in an ordered collection (not a set): the checkpoint format
    refers to them by position.
    """

    OptimizerPreHook: TypeAlias = Callable[[Any, Args, Kwargs], Optional[tuple[Args, Kwargs]]]
    OptimizerPostHook: TypeAlias = Callable[[Any, Args, Kwargs], None]

    def __init__(self, params: Iterable, defaults: dict[str, Any]) -> None:
        self.defaults = defaults
        for table in _HOOK_TABLES:
            setattr(self, table, OrderedDict())
        self._patch_step_function()
        if isinstance(params, TensorBase):
            raise TypeError("params argument given to the optimizer should be an iterable "
                            "of Tensors or dicts, but got " + _typename(params))
        self.state: defaultdict = defaultdict(dict)
        self.param_groups: list[dict[str, Any]] = []
        param_groups = list(params)
        if len(param_groups) == 0:
            raise ValueError("optimizer got an empty parameter list")
        if not isinstance(param_groups[0], dict):
            param_groups = [{"params": param_groups}]
        for param_group in param_groups:
            self.add_param_group(param_group)

    def _patch_step_function(self) -> None:
        """Wrap the class's `step` with the hooks, once per class (as torch does it)."""
        cls = type(self)
        self._zero_grad_profile_name = f"Optimizer.zero_grad#{cls.__name__}.zero_grad"
        if not getattr(cls.step, "hooked", False):
            cls.step = self.profile_hook_step(cls.step)
            cls.step.hooked = True

    @staticmethod
    def profile_hook_step(func: Callable) -> Callable:
        """`func` (a `step`) wrapped with the global and per-optimizer step hooks, and
        shown to the profiler as ``Optimizer.step#<class>.step``.

        As torch's, the hooks' `args` include the optimizer itself (``args[0]``), and a
        pre hook's replacement arguments must too.
        """
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            self = args[0]
            tokens = enter_region(f"Optimizer.step#{type(self).__name__}.step", (),
                                  Region.USER_SCOPE)
            try:
                args, kwargs = _run_pre_hooks(self, func, args, kwargs)
                loss = func(*args, **kwargs)
                self._optimizer_step_code()
                for hook in chain(self._optimizer_step_post_hooks.values(),
                                  _global_optimizer_post_hooks.values()):
                    hook(self, args, kwargs)
                return loss
            finally:
                exit_region(tokens)
        return wrapper

    def _optimizer_step_code(self) -> None:
        """An empty call at the end of each step, where a profiler may look."""

    # ----- pickling ---------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        return {"defaults": self.defaults, "state": self.state,
                "param_groups": self.param_groups}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        for table in _HOOK_TABLES:
            if table not in self.__dict__:
                setattr(self, table, OrderedDict())
        self._patch_step_function()
        self.defaults.setdefault("differentiable", False)

    def __repr__(self) -> str:
        text = type(self).__name__ + " ("
        for index, group in enumerate(self.param_groups):
            text += f"\nParameter Group {index}\n"
            for key in sorted(group):
                if key != "params":
                    text += f"    {key}: {group[key]}\n"
        return text + ")"

    # ----- parameter groups -------------------------------------------------------
    def add_param_group(self, param_group: dict[str, Any]) -> None:
        """Add a group of parameters (with its own options) to `param_groups`.

        Args:
            param_group (dict): ``"params"`` (a tensor or an ordered collection of
                tensors or ``(name, tensor)`` pairs) and any options that differ from
                the optimizer's defaults.
        """
        if not isinstance(param_group, dict):
            raise TypeError(f"param_group must be a dict, but got {type(param_group)}")
        _split_names(param_group)
        for param in param_group["params"]:
            if not isinstance(param, TensorBase):
                raise TypeError("optimizer can only optimize Tensors, but one of the params "
                                "is " + _typename(param))
            if not self.defaults.get("differentiable", None) and not (
                    param.is_leaf or param.retains_grad):
                raise ValueError("can't optimize a non-leaf Tensor")
        for name, default in self.defaults.items():
            if default is required and name not in param_group:
                raise ValueError("parameter group didn't specify a value of required "
                                 f"optimization parameter {name}")
            param_group.setdefault(name, default)
        self._check_new_group(param_group)
        self.param_groups.append(param_group)

    def _check_new_group(self, param_group: dict[str, Any]) -> None:
        """Duplicates within the group warn; parameters already in a group are refused."""
        params = param_group["params"]
        if len(params) != len(set(params)):
            warnings.warn("optimizer contains a parameter group with duplicate parameters; "
                          "in future, this will cause an error; see "
                          "github.com/pytorch/pytorch/issues/40967 for more information",
                          stacklevel=4)
        seen: set = set()
        for group in self.param_groups:
            seen.update(group["params"])
            if ("param_names" in param_group) != ("param_names" in group):
                kind = "with names" if "param_names" in param_group else "without names"
                raise ValueError("all optimizer param groups should be with/without names. "
                                 f"cannot add param group {kind} to the optimizer")
        if not seen.isdisjoint(params):
            raise ValueError("some parameters appear in more than one parameter group")

    # ----- gradients ---------------------------------------------------------------
    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of every optimized tensor.

        Args:
            set_to_none (bool): set ``.grad`` to None (the default) instead of filling
                it with zeros. A None gradient makes the next step skip that parameter,
                where a zero gradient still moves it (through momentum or decay).
        """
        # as torch's: with foreach or fused kernels, the gradients of one device and
        # dtype are zeroed by one call
        foreach = self.defaults.get("foreach", False) or self.defaults.get("fused", False)
        tokens = enter_region(self._zero_grad_profile_name, (), Region.USER_SCOPE)
        try:
            lists: defaultdict = defaultdict(list)
            for group in self.param_groups:
                for param in group["params"]:
                    grad = reset_grad(param, set_to_none, zero=not foreach)
                    if grad is not None and grad.is_sparse:
                        grad.zero_()
                    elif grad is not None:
                        lists[grad.device, grad.dtype].append(grad)
            for grads in lists.values():
                step_operator("_foreach_zero_")(grads)
        finally:
            exit_region(tokens)

    def step(self, closure: Callable[[], float] | None = None) -> float | None:
        """Perform one optimization step (each optimizer defines it).

        Args:
            closure (Callable, optional): re-evaluates the model and returns the loss.
        """
        raise NotImplementedError

    # ----- hooks -------------------------------------------------------------------
    def register_step_pre_hook(self, hook: Callable) -> RemovableHandle:
        """Register ``hook(optimizer, args, kwargs)`` to run before this optimizer's step.

        It may return ``(new_args, new_kwargs)`` to replace the step's arguments.
        """
        return _register(self._optimizer_step_pre_hooks, hook)

    def register_step_post_hook(self, hook: Callable) -> RemovableHandle:
        """Register ``hook(optimizer, args, kwargs)`` to run after this optimizer's step."""
        return _register(self._optimizer_step_post_hooks, hook)

    def register_state_dict_pre_hook(self, hook: Callable, prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer)`` to run before `state_dict` builds its result."""
        return _register(self._optimizer_state_dict_pre_hooks, hook, prepend)

    def register_state_dict_post_hook(self, hook: Callable,
                                      prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer, state_dict)``; it may return a replacement dict."""
        return _register(self._optimizer_state_dict_post_hooks, hook, prepend)

    def register_load_state_dict_pre_hook(self, hook: Callable,
                                          prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer, state_dict)`` to run before loading; it may return
        the dict to load instead."""
        return _register(self._optimizer_load_state_dict_pre_hooks, hook, prepend)

    def register_load_state_dict_post_hook(self, hook: Callable,
                                           prepend: bool = False) -> RemovableHandle:
        """Register ``hook(optimizer)`` to run after `load_state_dict`."""
        return _register(self._optimizer_load_state_dict_post_hooks, hook, prepend)

    # ----- checkpoints -------------------------------------------------------------
    def state_dict(self) -> dict[str, Any]:
        """The optimizer's state as a dict: ``"state"`` and ``"param_groups"``.

        Parameters are replaced by integer ids, numbered through the groups in order;
        ``"state"`` maps those ids to each parameter's state (the live tensors, not
        copies), and each group lists its parameters' ids under ``"params"``.

        Example::

            >>> opt = torch.optim.SGD([torch.zeros(2, requires_grad=True)], lr=0.1)
            >>> opt.state_dict()["param_groups"][0]["params"]
            [0]
        """
        for hook in self._optimizer_state_dict_pre_hooks.values():
            hook(self)
        ids: dict[int, int] = {}
        param_groups = []
        for group in self.param_groups:
            packed = {key: value for key, value in group.items() if key != "params"}
            for param in group["params"]:
                ids.setdefault(id(param), len(ids))
            packed["params"] = [ids[id(param)] for param in group["params"]]
            param_groups.append(packed)
        packed_state = {(ids[id(key)] if isinstance(key, TensorBase) else key): value
                        for key, value in self.state.items()}
        state_dict = {"state": packed_state, "param_groups": param_groups}
        for hook in self._optimizer_state_dict_post_hooks.values():
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        return state_dict

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Load a state made by `state_dict` (this optimizer's or torch's).

        Parameters are matched by position, group by group. Floating state tensors
        take their parameter's dtype, except ``"step"``, which keeps its own.

        Args:
            state_dict (dict): the optimizer state to load.
        """
        state_dict = state_dict.copy()
        for hook in self._optimizer_load_state_dict_pre_hooks.values():
            result = hook(self, state_dict)
            if result is not None:
                state_dict = result
        groups = self.param_groups
        saved_groups = deepcopy(state_dict["param_groups"])
        _check_group_sizes(groups, saved_groups)
        id_map = dict(zip(chain.from_iterable(g["params"] for g in saved_groups),
                          chain.from_iterable(g["params"] for g in groups)))
        state: defaultdict = defaultdict(dict)
        for key, value in state_dict["state"].items():
            if key in id_map:
                param = id_map[key]
                options = _group_options(key, state_dict["param_groups"])
                state[param] = _cast_state(param, value, options, None)
            else:
                state[key] = value
        for group, saved in zip(groups, saved_groups):
            saved["params"] = group["params"]
            if "param_names" in group and "param_names" not in saved:
                saved["param_names"] = group["param_names"]
        self.__setstate__({"state": state, "param_groups": saved_groups})
        for hook in self._optimizer_load_state_dict_post_hooks.values():
            hook(self)


def _split_names(param_group: dict[str, Any]) -> None:
    """Make ``"params"`` a list of tensors, moving names of ``(name, tensor)`` pairs to
    ``"param_names"``; a set is refused (its order changes between runs)."""
    params = param_group["params"]
    if isinstance(params, TensorBase):
        params = [params]
    elif isinstance(params, set):
        raise TypeError("optimizer parameters need to be organized in ordered collections, "
                        "but the ordering of tensors in sets will change between runs. "
                        "Please use a list instead.")
    tensors, names = [], []
    for param in params:
        if isinstance(param, tuple):
            names.append(param[0])
            param = param[1]
        tensors.append(param)
    param_group["params"] = tensors
    if names:
        if len(names) != len(tensors):
            raise ValueError("all optimizer params should be with/without names. "
                             "Some param names are missing")
        param_group["param_names"] = names


def _check_group_sizes(groups: list, saved_groups: list) -> None:
    if len(groups) != len(saved_groups):
        raise ValueError("loaded state dict has a different number of parameter groups")
    for group, saved in zip(groups, saved_groups):
        if len(group["params"]) != len(saved["params"]):
            raise ValueError("loaded state dict contains a parameter group that doesn't "
                             "match the size of optimizer's group")


def _group_options(param_id: int, saved_groups: list) -> tuple[bool, bool]:
    """(fused, capturable) of the saved group holding `param_id`."""
    for group in saved_groups:
        if param_id in group["params"]:
            return bool(group.get("fused", False)), bool(group.get("capturable", False))
    return False, False


def _cast_state(param: TensorBase, value: Any, options: tuple[bool, bool], key: Any) -> Any:
    """A loaded state value, its tensors moved to the parameter's dtype and device.

    ``"step"`` keeps its dtype (a float32 count would lose precision in half
    precision), unless the group is fused or capturable, whose kernels read a float32
    step. Containers are rebuilt with their values cast the same way.
    """
    if isinstance(value, TensorBase):
        if key == "step":
            if any(options):
                return value.to(dtype=float32, device=param.device)
            return value
        if param.is_floating_point():
            return value.to(dtype=param.dtype, device=param.device)
        return value.to(device=param.device)
    if isinstance(value, dict):
        return {k: _cast_state(param, v, options, k) for k, v in value.items()}
    if isinstance(value, Iterable):
        return type(value)(_cast_state(param, v, options, None) for v in value)
    return value
