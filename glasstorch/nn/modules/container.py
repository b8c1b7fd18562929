"""Containers: modules that hold other modules (Sequential, ModuleList, ModuleDict) or
parameters (ParameterList, ParameterDict) and register what they hold, so that
`parameters()`, `state_dict()`, `to()` and printing reach it.

List-like containers register their items under the names '0', '1', ...; deleting an
item renumbers the rest, as torch does, so names always count from zero.
"""
from __future__ import annotations

import operator
import warnings
from collections import OrderedDict, abc
from itertools import chain, islice
from typing import Any, Iterable, Iterator, Mapping

from ...c10.tensor_impl import TensorBase
from ..parameter import Parameter
from .module import Module, _addindent, _typename

__all__ = ["Container", "Sequential", "ModuleList", "ModuleDict", "ParameterList", "ParameterDict"]


def _absolute_index(idx, size: int) -> int:
    """`idx` (anything with __index__) as a position in 0..size-1, or IndexError."""
    idx = operator.index(idx)
    if not -size <= idx < size:
        raise IndexError(f"index {idx} is out of range")
    return idx % size


def _without_digits(keys: list) -> list:
    """dir() of a list-like container hides its '0', '1', ... entries."""
    return [key for key in keys if not key.isdigit()]


def _renumber(module: Module) -> None:
    """After a deletion: name the remaining submodules 0, 1, ... again, in order."""
    module._modules = OrderedDict((str(i), m) for i, m in enumerate(module._modules.values()))


def _check_pairs(kind: str, pairs: Iterable) -> Iterator[tuple]:
    """The (key, value) pairs of an update() argument that is not a mapping."""
    for j, pair in enumerate(pairs):
        if not isinstance(pair, abc.Iterable):
            raise TypeError(f"{kind} update sequence element #{j} should be Iterable; is"
                            + type(pair).__name__)
        if not len(pair) == 2:
            raise ValueError(f"{kind} update sequence element #{j} has length {len(pair)}; 2 is "
                             "required")
        yield pair[0], pair[1]


def _check_factor(sequential, other) -> None:
    """torch's checks of a repetition count for ``Sequential * n``."""
    if not isinstance(other, int):
        raise TypeError(f"unsupported operand type(s) for *: {type(sequential)} and "
                        f"{type(other)}")
    if other <= 0:
        raise ValueError(f"Non-positive multiplication factor {other} for {type(sequential)}")


class Container(Module):
    """A module holding the modules given as keyword arguments, under those names (an
    old form of container, kept for old programs).

    Example::

        >>> nn.Container(fc=nn.Linear(2, 2)).fc
        Linear(in_features=2, out_features=2, bias=True)
    """

    __deprecated__ = ("`nn.Container` is deprecated. All of its functionality is now "
                      "implemented in `nn.Module`. Subclass that instead.")

    def __init__(self, **kwargs: Any) -> None:
        warnings.warn(self.__deprecated__, FutureWarning, stacklevel=2)
        super().__init__()
        for key, value in kwargs.items():
            self.add_module(key, value)


# ----- Sequential ----------------------------------------------------------------------------
class Sequential(Module):
    """A chain of modules: calling it feeds the input through each in turn.

    Build it from modules (named '0', '1', ...) or from one OrderedDict of named
    modules. It indexes and slices like a list (a slice is a new Sequential of the
    same modules).

    Example::

        >>> model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
        >>> model(torch.randn(2, 4)).shape
        torch.Size([2, 1])
    """

    def __init__(self, *args: Module) -> None:
        super().__init__()
        if len(args) == 1 and isinstance(args[0], OrderedDict):
            for key, module in args[0].items():
                self.add_module(key, module)
        else:
            for idx, module in enumerate(args):
                self.add_module(str(idx), module)

    def forward(self, input):
        for module in self:
            input = module(input)
        return input

    def _get_item_by_idx(self, iterator: Iterable, idx):
        """The `idx`-th item of `iterator` (one entry per submodule; negative counts
        from the end)."""
        return next(islice(iterator, _absolute_index(idx, len(self)), None))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(OrderedDict(list(self._modules.items())[idx]))
        return self._get_item_by_idx(self._modules.values(), idx)

    def __setitem__(self, idx, module: Module) -> None:
        setattr(self, self._get_item_by_idx(self._modules.keys(), idx), module)

    def __delitem__(self, idx) -> None:
        keys = list(self._modules)[idx] if isinstance(idx, slice) else \
            [self._get_item_by_idx(self._modules.keys(), idx)]
        for key in keys:
            delattr(self, key)
        _renumber(self)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __dir__(self) -> list:
        return _without_digits(super().__dir__())

    def __add__(self, other: Sequential) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, but "
                             f"{type(other)} is given.")
        return Sequential(*self, *other)

    def __iadd__(self, other: Sequential) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError("add operator supports only objects of Sequential class, but "
                             f"{type(other)} is given.")
        offset = len(self)
        for i, module in enumerate(other):
            self.add_module(str(i + offset), module)
        return self

    def __mul__(self, other: int) -> Sequential:
        """The same modules (not copies) repeated `other` times."""
        _check_factor(self, other)
        return Sequential(*(list(self) * other))

    def __rmul__(self, other: int) -> Sequential:
        return self.__mul__(other)

    def __imul__(self, other: int) -> Sequential:
        _check_factor(self, other)
        modules = list(self)
        for i, module in enumerate(modules * (other - 1), start=len(modules)):
            self.add_module(str(i), module)
        return self

    def pop(self, key) -> Module:
        """Remove and return the module at `key`."""
        value = self[key]
        del self[key]
        return value

    def append(self, module: Module) -> Sequential:
        """Add `module` at the end. Returns self."""
        self.add_module(str(len(self)), module)
        return self

    def insert(self, index: int, module: Module) -> Sequential:
        """Put `module` at position `index` (negative counts from the end). Returns self."""
        if not isinstance(module, Module):
            raise AssertionError(f"module should be of type: {Module}")
        n = len(self._modules)
        if not -n <= index <= n:
            raise IndexError(f"Index out of range: {index}")
        if index < 0:
            index += n
        for i in range(n, index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module
        return self

    def extend(self, sequential: Iterable[Module]) -> Sequential:
        """Append every module of `sequential`. Returns self."""
        for layer in sequential:
            self.append(layer)
        return self


# ----- ModuleList ----------------------------------------------------------------------------
class ModuleList(Module):
    """A list of submodules, registered so that the parent sees their parameters.

    Args:
        modules (iterable, optional): the modules to start with.

    Example::

        >>> layers = nn.ModuleList(nn.Linear(4, 4) for _ in range(3))
        >>> len(list(layers.parameters()))
        6
    """

    def __init__(self, modules: Iterable[Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self += modules

    def _get_abs_string_index(self, idx) -> str:
        """The name of the item at `idx` (negative counts from the end)."""
        return str(_absolute_index(idx, len(self)))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return type(self)(list(self._modules.values())[idx])
        return self._modules[self._get_abs_string_index(idx)]

    def __setitem__(self, idx, module: Module) -> None:
        setattr(self, self._get_abs_string_index(idx), module)

    def __delitem__(self, idx) -> None:
        if isinstance(idx, slice):
            for k in range(len(self._modules))[idx]:
                delattr(self, str(k))
        else:
            delattr(self, self._get_abs_string_index(idx))
        _renumber(self)

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[Module]:
        return iter(self._modules.values())

    def __iadd__(self, modules: Iterable[Module]) -> ModuleList:
        return self.extend(modules)

    def __add__(self, other: Iterable[Module]) -> ModuleList:
        combined = ModuleList()
        for i, module in enumerate(chain(self, other)):
            combined.add_module(str(i), module)
        return combined

    def __dir__(self) -> list:
        return _without_digits(super().__dir__())

    def __repr__(self) -> str:
        """Runs of identical reprs print once, as ``(0-3): 4 x Linear(...)``."""
        reprs = [repr(item) for item in self]
        if not reprs:
            return self._get_name() + "()"
        runs = []                               # [first index, last index, repr]
        for i, text in enumerate(reprs):
            if runs and runs[-1][2] == text:
                runs[-1][1] = i
            else:
                runs.append([i, i, text])
        lines = []
        for first, last, text in runs:
            line = f"({first}): {text}" if first == last else \
                f"({first}-{last}): {last - first + 1} x {text}"
            lines.append(_addindent(line, 2))
        return self._get_name() + "(\n  " + "\n  ".join(lines) + "\n)"

    def insert(self, index: int, module: Module) -> None:
        """Put `module` before position `index`."""
        for i in range(len(self._modules), index, -1):
            self._modules[str(i)] = self._modules[str(i - 1)]
        self._modules[str(index)] = module

    def append(self, module: Module) -> ModuleList:
        """Add `module` at the end. Returns self."""
        self.add_module(str(len(self)), module)
        return self

    def pop(self, key) -> Module:
        """Remove and return the module at `key`."""
        value = self[key]
        del self[key]
        return value

    def extend(self, modules: Iterable[Module]) -> ModuleList:
        """Append every module of the iterable `modules`. Returns self."""
        if not isinstance(modules, abc.Iterable):
            raise TypeError("ModuleList.extend should be called with an iterable, but got "
                            + type(modules).__name__)
        offset = len(self)
        for i, module in enumerate(modules):
            self.add_module(str(offset + i), module)
        return self


# ----- ModuleDict ----------------------------------------------------------------------------
class ModuleDict(Module):
    """A dict of submodules by name, in insertion order, registered with the parent.

    Args:
        modules (mapping or iterable of (name, module) pairs, optional): to start with.

    Example::

        >>> heads = nn.ModuleDict({'a': nn.Linear(2, 2), 'b': nn.Linear(2, 3)})
        >>> list(heads.keys())
        ['a', 'b']
    """

    def __init__(self, modules: Mapping[str, Module] | None = None) -> None:
        super().__init__()
        if modules is not None:
            self.update(modules)

    def __getitem__(self, key: str) -> Module:
        return self._modules[key]

    def __setitem__(self, key: str, module: Module) -> None:
        self.add_module(key, module)

    def __delitem__(self, key: str) -> None:
        del self._modules[key]

    def __len__(self) -> int:
        return len(self._modules)

    def __iter__(self) -> Iterator[str]:
        return iter(self._modules)

    def __contains__(self, key: str) -> bool:
        return key in self._modules

    def clear(self) -> None:
        """Remove every module."""
        self._modules.clear()

    def pop(self, key: str) -> Module:
        """Remove and return the module under `key`."""
        value = self[key]
        del self[key]
        return value

    def keys(self):
        """The names, in insertion order."""
        return self._modules.keys()

    def items(self):
        """(name, module) pairs, in insertion order."""
        return self._modules.items()

    def values(self):
        """The modules, in insertion order."""
        return self._modules.values()

    def update(self, modules) -> None:
        """Add or replace modules from a mapping or an iterable of (name, module) pairs."""
        if not isinstance(modules, abc.Iterable):
            raise TypeError("ModuleDict.update should be called with an iterable of key/value "
                            "pairs, but got " + type(modules).__name__)
        pairs = modules.items() if isinstance(modules, (abc.Mapping, ModuleDict)) else \
            _check_pairs("ModuleDict", modules)
        for key, module in pairs:
            self[key] = module


# ----- ParameterList and ParameterDict ---------------------------------------------------------
def _as_parameter(value):
    """Tensors stored into parameter containers become Parameters; other values stay."""
    if isinstance(value, TensorBase) and not isinstance(value, Parameter):
        return Parameter(value)
    return value


class ParameterList(Module):
    """A list of parameters, registered under '0', '1', ...; tensors put in become
    Parameters (other objects are kept as plain attributes).

    Args:
        values (iterable, optional): the values to start with.

    Example::

        >>> params = nn.ParameterList([torch.zeros(2), torch.ones(3)])
        >>> [p.shape for p in params.parameters()]
        [torch.Size([2]), torch.Size([3])]
    """

    def __init__(self, values: Iterable[Any] | None = None) -> None:
        super().__init__()
        self._size = 0
        if values is not None:
            self += values

    def _get_abs_string_index(self, idx) -> str:
        """The name of the item at `idx` (negative counts from the end)."""
        return str(_absolute_index(idx, len(self)))

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            out = type(self)()
            for i in range(*idx.indices(len(self))):
                out.append(self[i])
            return out
        return getattr(self, self._get_abs_string_index(idx))

    def __setitem__(self, idx, param: Any) -> None:
        setattr(self, self._get_abs_string_index(idx), _as_parameter(param))

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[Any]:
        return (self[i] for i in range(len(self)))

    def __iadd__(self, parameters: Iterable[Any]) -> ParameterList:
        return self.extend(parameters)

    def __dir__(self) -> list:
        return _without_digits(super().__dir__())

    def append(self, value: Any) -> ParameterList:
        """Add `value` at the end. Returns self."""
        index = len(self)
        self._size += 1
        self[index] = value
        return self

    def extend(self, values: Iterable[Any]) -> ParameterList:
        """Append every value of the iterable `values` (a tensor is not an iterable of
        values here). Returns self."""
        if not isinstance(values, abc.Iterable) or isinstance(values, TensorBase):
            raise TypeError("ParameterList.extend should be called with an iterable, but got "
                            + type(values).__name__)
        for value in values:
            self.append(value)
        return self

    def extra_repr(self) -> str:
        return "\n".join(_describe(k, p, p.dtype if isinstance(p, TensorBase) else None)
                         for k, p in enumerate(self))

    def __call__(self, *args, **kwargs):
        raise RuntimeError("ParameterList should not be called.")


def _describe(key, value, type_text) -> str:
    """One line of a parameter container's repr: kind, type, sizes (and a non-CPU device)."""
    if not isinstance(value, TensorBase):
        return f"  ({key}): Object of type: {type(value).__name__}"
    size = "x".join(str(s) for s in value.size())
    device = f" ({value.device})" if value.device.type == "cuda" else ""
    kind = "Parameter" if isinstance(value, Parameter) else "Tensor"
    return f"  ({key}): {kind} containing: [{type_text} of size {size}{device}]"


class ParameterDict(Module):
    """A dict of parameters by string key, in insertion order; tensors put in become
    Parameters. A plain dict given to the constructor or `update` is taken in sorted
    key order (an OrderedDict or ParameterDict keeps its order), as torch does.

    Example::

        >>> params = nn.ParameterDict({'scale': torch.ones(2)})
        >>> params['scale']
        Parameter containing:
        tensor([1., 1.], requires_grad=True)
    """

    def __init__(self, parameters: Any = None) -> None:
        super().__init__()
        self._keys: dict[str, None] = {}
        if parameters is not None:
            self.update(parameters)

    def _key_to_attr(self, key: str) -> str:
        if not isinstance(key, str):
            raise TypeError("Index given to ParameterDict cannot be used as a key as it is not a "
                            f"string (type is '{type(key).__name__}'). Open an issue on github if "
                            "you need non-string keys.")
        return key

    def __getitem__(self, key: str) -> Any:
        return getattr(self, self._key_to_attr(key))

    def __setitem__(self, key: str, value: Any) -> None:
        self._keys[key] = None
        setattr(self, self._key_to_attr(key), _as_parameter(value))

    def __delitem__(self, key: str) -> None:
        del self._keys[key]
        delattr(self, self._key_to_attr(key))

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self) -> Iterator[str]:
        return iter(self._keys)

    def __reversed__(self) -> Iterator[str]:
        return reversed(self._keys)

    def __contains__(self, key: str) -> bool:
        return key in self._keys

    def copy(self) -> ParameterDict:
        """A new ParameterDict holding the same parameters."""
        return ParameterDict(OrderedDict((k, self[k]) for k in self._keys))

    def setdefault(self, key: str, default: Any | None = None) -> Any:
        if key not in self:
            self[key] = default
        return self[key]

    def clear(self) -> None:
        for key in self._keys.copy():
            del self[key]

    def pop(self, key: str) -> Any:
        value = self[key]
        del self[key]
        return value

    def popitem(self) -> tuple[str, Any]:
        """Remove and return the last inserted (key, value)."""
        key = next(reversed(self._keys))
        value = self[key]
        del self[key]
        return key, value

    def get(self, key: str, default: Any | None = None) -> Any:
        return self[key] if key in self else default

    def fromkeys(self, keys: Iterable[str], default: Any | None = None) -> ParameterDict:
        """A new ParameterDict mapping each of `keys` to `default`."""
        return ParameterDict((k, default) for k in keys)

    def keys(self):
        return self._keys.keys()

    def items(self) -> Iterator[tuple[str, Any]]:
        return ((k, self[k]) for k in self._keys)

    def values(self) -> Iterator[Any]:
        return (self[k] for k in self._keys)

    def update(self, parameters) -> None:
        """Add or replace entries from a mapping or an iterable of (key, value) pairs."""
        if not isinstance(parameters, abc.Iterable):
            raise TypeError("ParametersDict.update should be called with an iterable of "
                            "key/value pairs, but got " + type(parameters).__name__)
        if isinstance(parameters, (OrderedDict, ParameterDict)):
            pairs = parameters.items()
        elif isinstance(parameters, abc.Mapping):
            pairs = sorted(parameters.items())
        else:
            pairs = _check_pairs("ParameterDict", parameters)
        for key, value in pairs:
            self[key] = value

    def extra_repr(self) -> str:
        return "\n".join(_describe(k, p, _typename(p) if isinstance(p, TensorBase) else None)
                         for k, p in self.items())

    def __call__(self, input):
        raise RuntimeError("ParameterDict should not be called.")

    def __or__(self, other: ParameterDict) -> ParameterDict:
        result = self.copy()
        result.update(other)
        return result

    def __ror__(self, other: ParameterDict) -> ParameterDict:
        result = other.copy()
        result.update(self)
        return result

    def __ior__(self, other: ParameterDict) -> ParameterDict:
        self.update(other)
        return self
