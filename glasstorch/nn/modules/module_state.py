"""A Module's state dict: saving parameters and persistent buffers by dotted name,
loading them back with torch's checks and report, and the hooks around both.

The functions named like Module methods are installed on `Module` (module.py).

Note [State dict layout]
    ``state_dict()`` is an OrderedDict of ``prefix + name -> tensor``: each module's
    parameters, then its persistent buffers, then (when the class defines
    ``get_extra_state``) ``prefix + '_extra_state'``, then its children's entries under
    ``prefix + child_name + '.'``, depth first. Its ``_metadata`` attribute maps each
    module's prefix without the trailing dot ('' for the root) to ``{'version':
    module._version}``, which ``_load_from_state_dict`` receives as
    ``local_metadata`` so that a class can convert checkpoints of older versions.
"""
from __future__ import annotations

import warnings
from collections import OrderedDict, namedtuple
from typing import Any, Callable, Mapping

from ...autograd.grad_mode import no_grad
from ...c10.tensor_impl import TensorBase
from ...utils.hooks import RemovableHandle
from ..parameter import Parameter, is_lazy

_EXTRA_STATE_KEY_SUFFIX = "_extra_state"


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    """What `load_state_dict` returns: the keys the module wanted and did not find,
    and the keys it found and did not want."""

    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


# ----- extra state: a class opts in by defining both -------------------------------------
def get_extra_state(self) -> Any:
    """Any extra (picklable) state to store under ``'_extra_state'`` in the state dict;
    a subclass that needs it overrides this and `set_extra_state`."""
    raise RuntimeError(
        "Reached a code path in Module.get_extra_state() that should never be called. Please "
        "file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
        "to report this bug.")


def set_extra_state(self, state: Any) -> None:
    """Restore what `get_extra_state` returned, when loading a state dict."""
    raise RuntimeError(
        "Reached a code path in Module.set_extra_state() that should never be called. Please "
        "file an issue at https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml "
        "to report this bug.")


def _overrides(module, name: str, default: Callable) -> bool:
    return getattr(type(module), name, default) is not default


# ----- saving -------------------------------------------------------------------------
def _save_to_state_dict(self, destination: dict, prefix: str, keep_vars: bool) -> None:
    """Write this module's own entries (not its children's) into `destination`."""
    for name, param in self._parameters.items():
        if param is not None:
            destination[prefix + name] = param if keep_vars else param.detach()
    for name, buf in self._buffers.items():
        if buf is not None and name not in self._non_persistent_buffers_set:
            destination[prefix + name] = buf if keep_vars else buf.detach()
    if _overrides(self, "get_extra_state", get_extra_state):
        destination[prefix + _EXTRA_STATE_KEY_SUFFIX] = self.get_extra_state()


def state_dict(self, *args, destination=None, prefix: str = "", keep_vars: bool = False):
    """The module's whole state: parameters and persistent buffers by dotted name.

    Args:
        destination (dict, optional): a mapping to fill and return instead of a new
            OrderedDict.
        prefix (str, optional): prepended to every key. Default: ``''``
        keep_vars (bool, optional): keep the tensors themselves (attached to autograd)
            instead of detached aliases. Default: ``False``

    Returns:
        dict: see Note [State dict layout].

    Example::

        >>> list(nn.Linear(2, 3).state_dict())
        ['weight', 'bias']
    """
    if args:
        warnings.warn("Positional args are being deprecated, use kwargs instead. Refer to "
                      "https://pytorch.org/docs/main/generated/torch.nn.Module.html"
                      "#torch.nn.Module.state_dict for details.", FutureWarning, stacklevel=2)
        destination = args[0] if destination is None else destination
        prefix = args[1] if len(args) > 1 and prefix == "" else prefix
        keep_vars = args[2] if len(args) > 2 and keep_vars is False else keep_vars
    if destination is None:
        destination = OrderedDict()
        destination._metadata = OrderedDict()
    local_metadata = dict(version=self._version)
    if hasattr(destination, "_metadata"):
        destination._metadata[prefix[:-1]] = local_metadata
    for hook in self._state_dict_pre_hooks.values():
        hook(self, prefix, keep_vars)
    self._save_to_state_dict(destination, prefix, keep_vars)
    for name, module in self._modules.items():
        if module is not None:
            module.state_dict(destination=destination, prefix=prefix + name + ".",
                              keep_vars=keep_vars)
    for hook in self._state_dict_hooks.values():
        result = hook(self, destination, prefix, local_metadata)
        if getattr(hook, "_from_public_api", False):
            if result is not None:
                raise RuntimeError("state_dict post-hook must return None")
        elif result is not None:
            destination = result
    return destination


# ----- loading ------------------------------------------------------------------------
def _load_from_state_dict(self, state_dict: dict, prefix: str, local_metadata: dict,
                          strict: bool, missing_keys: list, unexpected_keys: list,
                          error_msgs: list) -> None:
    """Load this module's own entries (not its children's) from `state_dict`,
    appending to the three report lists instead of raising."""
    for hook in self._load_state_dict_pre_hooks.values():
        hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
             error_msgs)
    local_state = {name: value for name, value in self._parameters.items() if value is not None}
    local_state.update((name, value) for name, value in self._buffers.items()
                       if value is not None and name not in self._non_persistent_buffers_set)
    assign = local_metadata.get("assign_to_params_buffers", False)
    for name, param in local_state.items():
        key = prefix + name
        if key in state_dict:
            _load_one(self, name, key, param, state_dict[key], assign, error_msgs)
        elif strict:
            missing_keys.append(key)
    _load_extra_state(self, state_dict, prefix, strict, missing_keys, unexpected_keys)
    if strict:
        extra_key = prefix + _EXTRA_STATE_KEY_SUFFIX
        for key in state_dict:
            if not key.startswith(prefix) or key == extra_key:
                continue
            head, dot, _ = key[len(prefix):].partition(".")
            if (dot and head not in self._modules) or (not dot and head not in local_state):
                unexpected_keys.append(key)


def _load_one(module, name: str, key: str, param, value, assign: bool, error_msgs: list) -> None:
    """Copy (or with `assign`, put) checkpoint `value` into `param`, or explain why not."""
    if not isinstance(value, TensorBase):
        error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                          f'Tensor-like object from checkpoint but received {type(value)}')
        return
    lazy = is_lazy(param)                # a placeholder takes any shape
    if not lazy and len(param.shape) == 0 and len(value.shape) == 1 and value.shape[0] == 1:
        value = value[0]                 # old checkpoints stored scalars as shape (1,)
    if not lazy and value.shape != param.shape:
        error_msgs.append(f"size mismatch for {key}: copying a param with shape {value.shape} "
                          f"from checkpoint, the shape in current model is {param.shape}.")
        return
    if param.is_meta and not value.is_meta and not assign:
        warnings.warn(f"for {key}: copying from a non-meta parameter in the checkpoint to a meta "
                      "parameter in the current model, which is a no-op. (Did you mean to pass "
                      "`assign=True` to assign items in the state dictionary to their "
                      "corresponding key in the module instead of copying them in place?)",
                      stacklevel=2)
    try:
        with no_grad():
            if assign:
                if isinstance(param, Parameter):
                    if isinstance(value, Parameter):
                        value.requires_grad_(param.requires_grad)
                    else:
                        value = Parameter(value, requires_grad=param.requires_grad)
                setattr(module, name, value)
            else:
                param.copy_(value)
    except Exception as error:
        error_msgs.append(f'While copying the parameter named "{key}", whose dimensions in the '
                          f"model are {param.size()} and whose dimensions in the checkpoint are "
                          f"{value.size()}, an exception occurred : {error.args}.")


def _load_extra_state(module, state_dict: dict, prefix: str, strict: bool,
                      missing_keys: list, unexpected_keys: list) -> None:
    key = prefix + _EXTRA_STATE_KEY_SUFFIX
    if _overrides(module, "set_extra_state", set_extra_state):
        if key in state_dict:
            module.set_extra_state(state_dict[key])
        elif strict:
            missing_keys.append(key)
    elif strict and key in state_dict:
        unexpected_keys.append(key)


def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True,
                    assign: bool = False) -> _IncompatibleKeys:
    """Copy parameters and buffers from `state_dict` into this module and its children.

    Args:
        state_dict (dict): a state dict as `state_dict` makes it.
        strict (bool, optional): require the keys to match exactly. Default: ``True``
        assign (bool, optional): put the checkpoint's tensors into the module (keeping
            each parameter's requires_grad) instead of copying into the existing ones.
            Default: ``False``

    Returns:
        ``NamedTuple`` with ``missing_keys`` and ``unexpected_keys``.

    Raises:
        RuntimeError: listing every problem (missing and unexpected keys when
            `strict`, size mismatches, failed copies) at once.
    """
    if not isinstance(state_dict, Mapping):
        raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
    missing_keys: list[str] = []
    unexpected_keys: list[str] = []
    error_msgs: list[str] = []
    metadata = getattr(state_dict, "_metadata", None)
    state_dict = OrderedDict(state_dict)
    if metadata is not None:
        state_dict._metadata = metadata
    report = (missing_keys, unexpected_keys, error_msgs)
    _load_tree(self, state_dict, "", metadata, assign, report)
    if strict:
        if unexpected_keys:
            error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                ", ".join(f'"{k}"' for k in unexpected_keys)))
        if missing_keys:
            error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                ", ".join(f'"{k}"' for k in missing_keys)))
    if error_msgs:
        raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
            type(self).__name__, "\n\t".join(error_msgs)))
    return _IncompatibleKeys(missing_keys, unexpected_keys)


def _load_tree(module, state_dict: dict, prefix: str, metadata, assign: bool,
               report: tuple) -> None:
    """Load `module`, then its children (each seeing only the keys under its prefix),
    then run its load post-hooks."""
    missing_keys, unexpected_keys, error_msgs = report
    local_metadata = {} if metadata is None else metadata.get(prefix[:-1], {})
    if assign:
        local_metadata["assign_to_params_buffers"] = assign
    module._load_from_state_dict(state_dict, prefix, local_metadata, True, missing_keys,
                                 unexpected_keys, error_msgs)
    for name, child in module._modules.items():
        if child is not None:
            child_prefix = prefix + name + "."
            child_state = {k: v for k, v in state_dict.items() if k.startswith(child_prefix)}
            _load_tree(child, child_state, child_prefix, metadata, assign, report)
    incompatible_keys = _IncompatibleKeys(missing_keys, unexpected_keys)
    for hook in module._load_state_dict_post_hooks.values():
        if hook(module, incompatible_keys) is not None:
            raise AssertionError(
                "Hooks registered with ``register_load_state_dict_post_hook`` are not expected "
                "to return new values, if incompatible_keys need to be modified, it should be "
                "done inplace.")


# ----- hooks --------------------------------------------------------------------------
def register_state_dict_pre_hook(self, hook: Callable) -> RemovableHandle:
    """Run ``hook(module, prefix, keep_vars)`` before `state_dict` saves this module."""
    handle = RemovableHandle(self._state_dict_pre_hooks)
    self._state_dict_pre_hooks[handle.id] = hook
    return handle


def _register_state_dict_hook(self, hook: Callable) -> RemovableHandle:
    """Run ``hook(module, state_dict, prefix, local_metadata)`` after `state_dict` saved
    this module; a returned dict replaces the result (private API, as in torch)."""
    if getattr(hook, "_from_public_api", False):
        raise RuntimeError("Cannot register the same function as the state dict post hook that "
                           "was previously registered via register_state_dict_post_hook")
    handle = RemovableHandle(self._state_dict_hooks)
    self._state_dict_hooks[handle.id] = hook
    return handle


def register_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
    """Run ``hook(module, state_dict, prefix, local_metadata)`` after `state_dict` saved
    this module; it may change the dict in place and must return None."""
    hook._from_public_api = True
    handle = RemovableHandle(self._state_dict_hooks)
    self._state_dict_hooks[handle.id] = hook
    return handle


def _register_load_state_dict_pre_hook(self, hook: Callable,
                                       with_module: bool = False) -> RemovableHandle:
    handle = RemovableHandle(self._load_state_dict_pre_hooks)
    if with_module:
        hook = _WithModule(hook, self)
    self._load_state_dict_pre_hooks[handle.id] = hook
    return handle


def register_load_state_dict_pre_hook(self, hook: Callable) -> RemovableHandle:
    """Run ``hook(module, state_dict, prefix, local_metadata, strict, missing_keys,
    unexpected_keys, error_msgs)`` before this module loads its entries."""
    return self._register_load_state_dict_pre_hook(hook, with_module=True)


def register_load_state_dict_post_hook(self, hook: Callable) -> RemovableHandle:
    """Run ``hook(module, incompatible_keys)`` after this module and its children
    loaded; it may edit the key lists in place (then `strict` sees the edit)."""
    handle = RemovableHandle(self._load_state_dict_post_hooks)
    self._load_state_dict_post_hooks[handle.id] = hook
    return handle


class _WithModule:
    """A load pre-hook that receives its module first (held weakly, as torch does)."""

    def __init__(self, hook: Callable, module) -> None:
        import weakref
        self.hook = hook
        self.module = weakref.ref(module)

    def __call__(self, *args):
        module = self.module()
        if module is None:
            raise RuntimeError("You are trying to call the hook of a dead Module!")
        return self.hook(module, *args)
