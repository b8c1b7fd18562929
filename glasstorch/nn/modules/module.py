"""`Module`: the base class of every layer and model.

A Module keeps three ordered tables that attribute assignment fills: ``_parameters``
(Parameters), ``_buffers`` (tensors that are state but not parameters) and
``_modules`` (submodules). Reading ``module.weight`` finds the entry through
``__getattr__``, which Python only calls when ordinary lookup fails, so plain
attributes cost nothing extra. Everything else walks those tables: iteration
(``named_parameters`` and friends), conversion (``_apply``), the state dict
(module_state.py) and printing. Hooks and the slow path of ``__call__`` live in
module_hooks.py.
"""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable, Iterator, TypeVar

from ...c10.tensor_impl import TensorBase
from ...utils._grads import reset_grad
from ..parameter import Buffer, Parameter
from . import module_hooks as _hooks
from . import module_state as _state
from . import module_convert as _convert
from .module_hooks import (register_module_backward_hook,  # noqa: F401 (torch's names)
                           register_module_buffer_registration_hook,
                           register_module_forward_hook, register_module_forward_pre_hook,
                           register_module_full_backward_hook,
                           register_module_full_backward_pre_hook,
                           register_module_module_registration_hook,
                           register_module_parameter_registration_hook)

__all__ = ["Module", "register_module_forward_pre_hook", "register_module_forward_hook",
           "register_module_full_backward_pre_hook", "register_module_backward_hook",
           "register_module_full_backward_hook", "register_module_buffer_registration_hook",
           "register_module_module_registration_hook",
           "register_module_parameter_registration_hook"]


def _typename(value: Any) -> str:
    """torch.typename: ``torch.FloatTensor`` for a tensor, ``module.Class`` otherwise."""
    if isinstance(value, TensorBase):
        return value.type()
    module = getattr(value, "__module__", "") or ""
    qualname = getattr(value, "__qualname__", None) or getattr(value, "__name__", None)
    if qualname is None:
        module = type(value).__module__ or ""
        qualname = type(value).__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def _addindent(text: str, spaces: int) -> str:
    """Indent every line of `text` but the first by `spaces` spaces."""
    first, *rest = text.split("\n")
    return "\n".join([first] + [" " * spaces + line for line in rest])


def _forward_unimplemented(self, *input: Any) -> None:
    """Define the computation of the module; every subclass overrides this."""
    raise NotImplementedError(f'Module [{type(self).__name__}] is missing the required '
                              '"forward" function')


class Module:
    """Base class of neural network modules; models subclass it.

    A subclass registers its parameters, buffers and submodules by assigning them as
    attributes in ``__init__`` (after ``super().__init__()``) and defines ``forward``;
    calling the module runs ``forward`` together with any registered hooks.

    Example::

        >>> class Model(nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.scale = nn.Parameter(torch.ones(3))
        ...     def forward(self, x):
        ...         return x * self.scale
        >>> [name for name, _ in Model().named_parameters()]
        ['scale']
    """

    dump_patches: bool = False
    _version: int = 1
    training: bool
    call_super_init: bool = False
    _compiled_call_impl = None      # torch.compile's wrapper in torch; never set here
    T_destination = TypeVar("T_destination", bound=dict)     # state_dict's destination type

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if self.call_super_init is False and kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword "
                            f"argument '{next(iter(kwargs))}'")
        if self.call_super_init is False and args:
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument "
                            f"but {len(args) + 1} were given")
        # Written into __dict__ directly: __setattr__ would look for these very tables.
        self.__dict__.update(
            training=True, _parameters={}, _buffers={}, _non_persistent_buffers_set=set(),
            _backward_pre_hooks=OrderedDict(), _backward_hooks=OrderedDict(),
            _is_full_backward_hook=None, _forward_hooks=OrderedDict(),
            _forward_hooks_with_kwargs=OrderedDict(),
            _forward_hooks_always_called=OrderedDict(), _forward_pre_hooks=OrderedDict(),
            _forward_pre_hooks_with_kwargs=OrderedDict(), _state_dict_hooks=OrderedDict(),
            _state_dict_pre_hooks=OrderedDict(), _load_state_dict_pre_hooks=OrderedDict(),
            _load_state_dict_post_hooks=OrderedDict(), _modules={})
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    forward: Callable[..., Any] = _forward_unimplemented

    # ----- calling ------------------------------------------------------------------
    def _call_impl(self, *args, **kwargs):
        # The fast path: eight lookups decide that no hook applies (the common case).
        if not (self._forward_pre_hooks or self._forward_hooks or self._backward_hooks
                or self._backward_pre_hooks or _hooks._global_forward_pre_hooks
                or _hooks._global_forward_hooks or _hooks._global_backward_hooks
                or _hooks._global_backward_pre_hooks):
            return self.forward(*args, **kwargs)
        return _hooks.call_with_hooks(self, args, kwargs)

    __call__ = _call_impl
    _wrapped_call_impl = _call_impl

    def compile(self, *args: Any, **kwargs: Any) -> None:
        """Compile this module's calls with `torch.compile` (same arguments, checked alike).

        The calls still run eagerly here: Note [Compiling runs eagerly] (_dynamo/eval_frame.py).
        """
        import glasstorch
        self._compiled_call_impl = glasstorch.compile(self._call_impl, *args, **kwargs)

    # ----- registration -------------------------------------------------------------
    def register_buffer(self, name: str, tensor: TensorBase | None,
                        persistent: bool = True) -> None:
        """Add a buffer: state that is not a parameter (e.g. running statistics).

        Args:
            name (str): the attribute name it is reachable under.
            tensor (Tensor or None): the buffer; ``None`` registers the name with no
                value (skipped by conversions and the state dict).
            persistent (bool): whether it goes into `state_dict`. Default: ``True``
        """
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        _check_new_name(self, name, "buffer", self._buffers)
        if tensor is not None and not isinstance(tensor, TensorBase):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        tensor = _hooks.run_registration_hooks(_hooks._global_buffer_registration_hooks,
                                               self, name, tensor)
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter reachable as attribute `name` (``None``: the name is
        registered with no value, skipped by conversions and the state dict)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {_typename(name)}")
        _check_new_name(self, name, "parameter", self._parameters)
        if param is not None:
            if not isinstance(param, Parameter):
                raise TypeError(f"cannot assign '{_typename(param)}' object to parameter "
                                f"'{name}' (torch.nn.Parameter or None required)")
            if param.grad_fn:
                raise ValueError(
                    f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters "
                    f"must be created explicitly. To express '{name}' as a function of another "
                    "Tensor, compute the value in the forward() method.")
            param = _hooks.run_registration_hooks(
                _hooks._global_parameter_registration_hooks, self, name, param)
        self._parameters[name] = param

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module reachable as attribute `name`."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f"module name can't contain \".\", got: {name}")
        if name == "":
            raise KeyError("module name can't be empty string \"\"")
        self._modules[name] = _hooks.run_registration_hooks(
            _hooks._global_module_registration_hooks, self, name, module)

    def register_module(self, name: str, module: Module | None) -> None:
        """Alias of `add_module`."""
        self.add_module(name, module)

    # ----- attribute protocol -------------------------------------------------------
    def __getattr__(self, name: str) -> Any:
        # Only reached when ordinary lookup failed: look in the three tables (absent
        # until Module.__init__ ran). Written out, not looped: forward reads every
        # submodule and parameter through here.
        state = self.__dict__
        if "_parameters" in state:
            params = state["_parameters"]
            if name in params:
                return params[name]
            buffers = state["_buffers"]
            if name in buffers:
                return buffers[name]
            modules = state["_modules"]
            if name in modules:
                return modules[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value: Any) -> None:
        state = self.__dict__
        params = state.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            _forget(name, state, self._buffers, self._modules)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        elif isinstance(value, Module) or name in state.get("_modules", ()):
            _set_module(self, name, value)
        elif isinstance(value, Buffer) or name in state.get("_buffers", ()):
            _set_buffer(self, name, value)
        else:
            object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __getstate__(self) -> dict:
        state = self.__dict__.copy()
        state.pop("_compiled_call_impl", None)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        # Modules pickled by older versions may lack the newer tables.
        for name in ("_forward_pre_hooks", "_forward_pre_hooks_with_kwargs",
                     "_forward_hooks_with_kwargs", "_forward_hooks_always_called",
                     "_state_dict_hooks", "_state_dict_pre_hooks", "_load_state_dict_pre_hooks",
                     "_load_state_dict_post_hooks", "_backward_pre_hooks"):
            self.__dict__.setdefault(name, OrderedDict())
        self.__dict__.setdefault("_non_persistent_buffers_set", set())
        self.__dict__.setdefault("_is_full_backward_hook", None)

    def __dir__(self) -> list:
        keys = [*dir(type(self)), *self.__dict__, *self._parameters, *self._modules,
                *self._buffers]
        return sorted(key for key in keys if not key[0].isdigit())

    # ----- lookup by dotted path ------------------------------------------------------
    def get_submodule(self, target: str) -> Module:
        """The submodule at dotted path `target` ('' is this module), e.g. ``'net.0'``."""
        if target == "":
            return self
        module = self
        for item in target.split("."):
            if not hasattr(module, item):
                raise AttributeError(module._get_name() + " has no attribute `" + item + "`")
            module = getattr(module, item)
            if not isinstance(module, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return module

    def set_submodule(self, target: str, module: Module, strict: bool = False) -> None:
        """Put `module` at dotted path `target`; with `strict`, only replace an
        existing submodule."""
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent_path, _, name = target.rpartition(".")
        parent = self.get_submodule(parent_path)
        if strict and not hasattr(parent, name):
            raise AttributeError(parent._get_name() + " has no attribute `" + name + "`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError("`" + name + "` is not an nn.Module")
        setattr(parent, name, module)

    def get_parameter(self, target: str) -> Parameter:
        """The parameter at dotted path `target`, e.g. ``'net.0.weight'``."""
        module, name = _owner_of(self, target)
        param = getattr(module, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> TensorBase:
        """The buffer at dotted path `target`."""
        module, name = _owner_of(self, target)
        if name not in module._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return getattr(module, name)

    # ----- iteration ------------------------------------------------------------------
    def _named_members(self, get_members: Callable, prefix: str = "", recurse: bool = True,
                       remove_duplicate: bool = True) -> Iterator:
        """(dotted name, member) over the modules, each member once unless told otherwise."""
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) \
            if recurse else [(prefix, self)]
        for module_prefix, module in modules:
            for name, value in get_members(module):
                if value is None or value in memo:
                    continue
                if remove_duplicate:
                    memo.add(value)
                yield module_prefix + ("." if module_prefix else "") + name, value

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The parameters of this module and (with `recurse`) of every submodule, each
        once, in registration order, depth first."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """The parameters with their dotted names, in registration order, depth first.

        Args:
            prefix (str): put before every name (with a dot).
            recurse (bool): include the submodules' parameters. Default: ``True``
            remove_duplicate (bool): yield a parameter shared under two names only once.
                Default: ``True``

        Example::

            >>> [name for name, _ in nn.Sequential(nn.Linear(2, 2)).named_parameters()]
            ['0.weight', '0.bias']
        """
        yield from self._named_members(lambda module: module._parameters.items(),
                                       prefix=prefix, recurse=recurse,
                                       remove_duplicate=remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[TensorBase]:
        """The buffers of this module and (with `recurse`) of every submodule."""
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, TensorBase]]:
        """(dotted name, buffer) pairs, as `named_parameters` for buffers."""
        yield from self._named_members(lambda module: module._buffers.items(),
                                       prefix=prefix, recurse=recurse,
                                       remove_duplicate=remove_duplicate)

    def children(self) -> Iterator[Module]:
        """The direct submodules, each once."""
        for _, module in self.named_children():
            yield module

    def named_children(self) -> Iterator[tuple[str, Module]]:
        """(name, submodule) of the direct submodules, each module once."""
        memo = set()
        for name, module in self._modules.items():
            if module is not None and module not in memo:
                memo.add(module)
                yield name, module

    def modules(self) -> Iterator[Module]:
        """This module and every submodule, each once, depth first."""
        for _, module in self.named_modules():
            yield module

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """This module (named `prefix`, '' by default) and every submodule with its dotted
        name, depth first.

        Args:
            memo (set, optional): modules to skip; the walk adds the ones it yields.
            prefix (str): the name of this module, put before the others' names.
            remove_duplicate (bool): yield a module reachable under two names only once.
                Default: ``True``

        Example::

            >>> [name for name, _ in nn.Sequential(nn.Linear(2, 2), nn.ReLU()).named_modules()]
            ['', '0', '1']
        """
        if memo is None:
            memo = set()
        if self in memo:
            return
        if remove_duplicate:
            memo.add(self)
        yield prefix, self
        for name, module in self._modules.items():
            if module is None:
                continue
            child_prefix = prefix + ("." if prefix else "") + name
            yield from module.named_modules(memo, child_prefix, remove_duplicate)

    # ----- modes and gradients ----------------------------------------------------------
    def train(self, mode: bool = True) -> Module:
        """Set training or evaluation mode on this module and every submodule (layers such
        as Dropout and BatchNorm behave differently).

        Args:
            mode (bool): ``True`` for training, ``False`` for evaluation. Default: ``True``

        Returns:
            Module: self
        """
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> Module:
        """Evaluation mode: ``train(False)``. Returns self."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> Module:
        """Set `requires_grad` of every parameter. Returns self."""
        for param in self.parameters():
            param.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradient of every parameter.

        Args:
            set_to_none (bool): drop the gradients (``None``, the default, which saves
                memory and a pass) instead of filling them with zeros in place.
        """
        for param in self.parameters():
            reset_grad(param, set_to_none)

    def share_memory(self) -> Module:
        """Move storages to shared memory (a no-op here: one process). Returns self."""
        return self

    # ----- traversal -----------------------------------------------------------------
    def apply(self, fn: Callable[[Module], None]) -> Module:
        """Call ``fn(module)`` on every submodule (children first), then on self, e.g. to
        initialise weights. Returns self."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    # ----- conversion (module_convert.py) ---------------------------------------------
    _apply = _convert._apply
    to = _convert.to
    cuda = _convert.cuda
    xpu = _convert.xpu
    ipu = _convert.ipu
    mtia = _convert.mtia
    to_empty = _convert.to_empty

    def float(self) -> Module:
        """Cast floating point parameters and buffers to float32. Returns self."""
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self) -> Module:
        """Cast floating point parameters and buffers to float64. Returns self."""
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self) -> Module:
        """Cast floating point parameters and buffers to float16. Returns self."""
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self) -> Module:
        """Cast floating point parameters and buffers to bfloat16. Returns self."""
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def type(self, dst_type) -> Module:
        """Cast every parameter and buffer to `dst_type`. Returns self."""
        return self._apply(lambda t: t.type(dst_type))

    def cpu(self) -> Module:
        """Move parameters and buffers to the CPU. Returns self."""
        return self._apply(lambda t: t.cpu())

    # ----- printing -----------------------------------------------------------------
    def _get_name(self) -> str:
        return type(self).__name__

    def extra_repr(self) -> str:
        """The text inside this module's parentheses in its repr (its settings);
        subclasses override it. One line, or several."""
        return ""

    def __repr__(self) -> str:
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [f"({name}): " + _addindent(repr(module), 2)
                       for name, module in self._modules.items()]
        lines = extra_lines + child_lines
        text = self._get_name() + "("
        if len(extra_lines) == 1 and not child_lines:
            text += extra_lines[0]
        elif lines:
            text += "\n  " + "\n  ".join(lines) + "\n"
        return text + ")"

    # ----- hooks (module_hooks.py) and state dict (module_state.py) -----------------------
    register_forward_pre_hook = _hooks.register_forward_pre_hook
    register_forward_hook = _hooks.register_forward_hook
    register_full_backward_pre_hook = _hooks.register_full_backward_pre_hook
    register_full_backward_hook = _hooks.register_full_backward_hook
    register_backward_hook = _hooks.register_backward_hook
    _get_backward_hooks = _hooks._get_backward_hooks
    _get_backward_pre_hooks = _hooks._get_backward_pre_hooks

    state_dict = _state.state_dict
    _save_to_state_dict = _state._save_to_state_dict
    load_state_dict = _state.load_state_dict
    _load_from_state_dict = _state._load_from_state_dict
    get_extra_state = _state.get_extra_state
    set_extra_state = _state.set_extra_state
    register_state_dict_pre_hook = _state.register_state_dict_pre_hook
    register_state_dict_post_hook = _state.register_state_dict_post_hook
    _register_state_dict_hook = _state._register_state_dict_hook
    register_load_state_dict_pre_hook = _state.register_load_state_dict_pre_hook
    _register_load_state_dict_pre_hook = _state._register_load_state_dict_pre_hook
    register_load_state_dict_post_hook = _state.register_load_state_dict_post_hook


# ----- helpers of the methods above (kept out of the class, so dir(Module) is torch's) ---
def _check_new_name(module: Module, name: str, kind: str, table: dict) -> None:
    """torch's checks of a new parameter or buffer name."""
    if "." in name:
        raise KeyError(f"{kind} name can't contain \".\"")
    if name == "":
        raise KeyError(f"{kind} name can't be empty string \"\"")
    if name not in table and hasattr(module, name):
        raise KeyError(f"attribute '{name}' already exists")


def _forget(name: str, *tables) -> None:
    """Remove `name` from each dict or set in `tables` (an attribute changing kind)."""
    for table in tables:
        if name in table:
            if isinstance(table, dict):
                del table[name]
            else:
                table.discard(name)


def _set_module(module: Module, name: str, value: Any) -> None:
    """``module.name = value`` for a submodule (or None into a submodule slot)."""
    modules = module.__dict__.get("_modules")
    if isinstance(value, Module):
        if modules is None:
            raise AttributeError("cannot assign module before Module.__init__() call")
        _forget(name, module.__dict__, module._parameters, module._buffers,
                module._non_persistent_buffers_set)
    elif value is not None:
        raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                        "(torch.nn.Module or None expected)")
    modules[name] = _hooks.run_registration_hooks(
        _hooks._global_module_registration_hooks, module, name, value)


def _set_buffer(module: Module, name: str, value: Any) -> None:
    """``module.name = value`` for a Buffer (or a tensor into a buffer slot)."""
    if value is not None and not isinstance(value, TensorBase):
        raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                        "(torch.nn.Buffer, torch.Tensor or None expected)")
    if isinstance(value, Buffer):
        persistent = value.persistent
    else:
        persistent = name not in module._non_persistent_buffers_set
    module.register_buffer(name, value, persistent)


def _owner_of(root: Module, target: str) -> tuple:
    """(submodule, attribute name) of a dotted path to an attribute that exists."""
    module_path, _, name = target.rpartition(".")
    module = root.get_submodule(module_path)
    if not hasattr(module, name):
        raise AttributeError(module._get_name() + " has no attribute `" + name + "`")
    return module, name
