"""torch.nn.utils.stateless: a module called with the parameters and buffers it is given.

`functional_call` swaps the given tensors into the module's tables for one call and
puts the module's own back afterwards, however the call ends: so a module becomes a
function of its weights, which `torch.func`'s transforms can differentiate and vmap
(`torch.func.functional_call` is this function without the deprecation warning).
Tied weights (one tensor under two names) stay tied unless ``tie_weights=False``.
"""
from __future__ import annotations

import contextlib
import warnings
from typing import Any

from ..modules.module import Module


def _tied_names(module: Module) -> dict:
    """name -> every name of the same parameter or buffer tensor (tied weights)."""
    by_tensor: dict = {}
    for name, tensor in (*module.named_parameters(remove_duplicate=False),
                         *module.named_buffers(remove_duplicate=False)):
        by_tensor.setdefault(id(tensor), []).append(name)
    return {name: names for names in by_tensor.values() if len(names) > 1 for name in names}


def _untied(module: Module, tensors: dict, tie_weights: bool) -> dict:
    """`tensors` with each tied name's value given to its twins too."""
    if not tie_weights:
        return tensors
    tied = _tied_names(module)
    result = dict(tensors)
    for name, value in tensors.items():
        for twin in tied.get(name, ()):
            if twin in tensors and tensors[twin] is not value:
                given = sorted(n for n in tied[name] if n in tensors)
                raise ValueError(f"functional_call got multiple values for keys {given}, which "
                                 f"are tied. Consider using tie_weights=False")
            result[twin] = value
    return result


def _check_strict(module: Module, tensors: dict) -> None:
    expected = {name for name, _ in module.named_parameters(remove_duplicate=False)} | {
        name for name, _ in module.named_buffers(remove_duplicate=False)}
    unexpected = sorted(set(tensors) - expected)
    missing = sorted(expected - set(tensors))
    lines = []
    if unexpected:
        lines.append("Unexpected key(s): " + ", ".join(f"'{k}'" for k in unexpected) + ".")
    if missing:
        lines.append("Missing key(s): " + ", ".join(f"'{k}'" for k in missing) + ".")
    if lines:
        raise RuntimeError(f"Error(s) in reparametrizing for {type(module).__name__}:\n\t"
                           + "\n\t".join(lines))


def _swap(module: Module, name: str, value):
    """Put `value` under the dotted `name`; returns how to put back what was there."""
    owner_path, _, attribute = name.rpartition(".")
    owner = module.get_submodule(owner_path) if owner_path else module
    for table in (owner._parameters, owner._buffers):
        if attribute in table:
            old = table[attribute]
            table[attribute] = value
            return lambda: table.__setitem__(attribute, old)
    missing = object()
    old = owner.__dict__.get(attribute, missing)
    owner.__dict__[attribute] = value
    if old is missing:
        return lambda: owner.__dict__.pop(attribute, None)
    return lambda: owner.__dict__.__setitem__(attribute, old)


@contextlib.contextmanager
def _reparametrize_module(module: Module, tensors: dict, *, tie_weights: bool = False,
                          strict: bool = False):
    """Within the block, `module` holds `tensors` under their names."""
    if strict:
        _check_strict(module, tensors)
    restores = []
    try:
        for name, value in _untied(module, tensors, tie_weights).items():
            restores.append(_swap(module, name, value))
        yield
    finally:
        for restore in reversed(restores):
            restore()


def _merged(dicts) -> dict:
    if isinstance(dicts, dict):
        return dicts
    seen: dict = {}
    repeated = []
    for mapping in dicts:
        for key, value in mapping.items():
            if key in seen:
                repeated.append(key)
            seen[key] = value
    if repeated:
        raise ValueError(f"{repeated} appeared in multiple dictionaries; behavior of "
                         f"functional call is ambiguous")
    return seen


def _functional_call(module: Module, parameter_and_buffer_dicts, args: Any = None,
                     kwargs: dict | None = None, *, tie_weights: bool = True,
                     strict: bool = False):
    tensors = _merged(parameter_and_buffer_dicts)
    if args is None:
        args = ()
    elif not isinstance(args, tuple):
        args = (args,)
    with _reparametrize_module(module, tensors, tie_weights=tie_weights, strict=strict):
        return module(*args, **(kwargs or {}))


def functional_call(module: Module, parameters_and_buffers, args: Any = None,
                    kwargs: dict | None = None, *, tie_weights: bool = True,
                    strict: bool = False):
    """Call `module` with `parameters_and_buffers` in place of its own (deprecated:
    `torch.func.functional_call` is the same call).

    Args:
        module (nn.Module): the module to call.
        parameters_and_buffers (dict or tuple of dicts): tensors by dotted name.
        args (Any or tuple): the positional arguments (one non-tuple value is one).
        kwargs (dict): the keyword arguments.
        tie_weights (bool): a tensor given for one of tied names serves them all.
        strict (bool): every parameter and buffer must be given, and nothing else.

    Returns:
        What the module returns.

    Example::

        >>> m = torch.nn.Linear(2, 1)
        >>> torch.func.functional_call(m, {"weight": torch.ones(1, 2), "bias": torch.zeros(1)},
        ...                            (torch.ones(1, 2),))
        tensor([[2.]])
    """
    warnings.warn("`torch.nn.utils.stateless.functional_call` is deprecated as of PyTorch 2.0 "
                  "and will be removed in a future version of PyTorch. Please use "
                  "`torch.func.functional_call` instead which is a drop-in replacement.",
                  FutureWarning, stacklevel=2)
    return _functional_call(module, parameters_and_buffers, args, kwargs,
                            tie_weights=tie_weights, strict=strict)
