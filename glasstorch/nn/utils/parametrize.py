"""torch.nn.utils.parametrize: a module's parameter computed from other tensors.

Note [Parametrizations]
    ``register_parametrization(m, "weight", P())`` moves ``m.weight`` into
    ``m.parametrizations.weight.original`` (a `ParametrizationList` of the registered
    modules) and makes ``m.weight`` a property that computes ``P()(original)`` on each
    read. A property must live on the class, so the module's class is swapped for a
    one-off subclass ``Parametrized<Class>`` that holds it (every other instance of the
    class is untouched), and swapped back when the last parametrization is removed.
    Assigning ``m.weight = X`` runs the parametrizations' ``right_inverse`` backwards
    and stores the result in the originals, in place (``set_``), so an optimizer holding
    them keeps working. A ``right_inverse`` may return several tensors: they become
    ``original0``, ``original1``, ... and the first parametrization takes them all.
    Inside `cached()`, each parametrized tensor is computed once and reused.
"""
from __future__ import annotations

import collections.abc
import copyreg
from contextlib import contextmanager
from copy import deepcopy
from typing import Iterator, Sequence

from ...autograd.grad_mode import no_grad
from ..._tensor import Tensor
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["cached", "ParametrizationList", "register_parametrization", "is_parametrized",
           "remove_parametrizations", "type_before_parametrizations",
           "transfer_parametrizations_and_params"]

_cache_depth = 0
_cache: dict = {}


@contextmanager
def cached() -> Iterator[None]:
    """Compute each parametrized tensor once while the context is open, and reuse it.

    Useful when a parametrized weight is read several times in one forward pass (a
    recurrent kernel, shared weights). The cache is dropped when the outermost
    `cached()` context closes.

    Example::

        >>> import torch.nn.utils.parametrize as P
        >>> with P.cached():
        ...     output = model(inputs)
    """
    global _cache_depth, _cache
    _cache_depth += 1
    try:
        yield
    finally:
        _cache_depth -= 1
        if not _cache_depth:
            _cache = {}


def _register_parameter_or_buffer(module: Module, name: str, value: Tensor) -> None:
    if isinstance(value, Parameter):
        module.register_parameter(name, value)
    else:
        module.register_buffer(name, value)


def _right_inverse_of(modules, value):
    """`value` through the ``right_inverse`` of `modules`, last registered first; a
    module without one (or refusing with NotImplementedError) passes it through."""
    for module in reversed(modules):
        if hasattr(module, "right_inverse"):
            try:
                value = module.right_inverse(value)
            except NotImplementedError:
                pass
    return value


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, and the original tensor(s) they start from.

    It is ``module.parametrizations[name]`` once `register_parametrization` ran; the
    originals are its ``original`` (or ``original0``, ``original1``, ... when the first
    parametrization's ``right_inverse`` returns several tensors). Not meant to be built
    by hand.

    Args:
        modules (sequence of Module): the parametrizations, applied in order.
        original (Tensor or Parameter): the tensor being parametrized.
        unsafe (bool): skip the checks that the parametrization keeps the tensor's
            dtype and shape (default False).
    """

    original: Tensor
    unsafe: bool

    def __init__(self, modules: Sequence[Module], original: Tensor,
                 unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        shape, dtype = original.shape, original.dtype
        with no_grad():
            new = _right_inverse_of(self, original)
        if not isinstance(new, (Tensor, collections.abc.Sequence)):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors "
                             f"(list, tuple...). Got {type(new).__name__}")
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            self._keep_single(original, new)
        else:
            self._keep_several(original, new)
        if not self.unsafe:
            self._check_consistent(shape, dtype)

    def _keep_single(self, original: Tensor, new: Tensor) -> None:
        for what in ("dtype", "device"):
            if getattr(original, what) != getattr(new, what):
                raise ValueError(
                    f"When `right_inverse` outputs one tensor, it may not change the {what}.\n"
                    f"original.{what}: {getattr(original, what)}\n"
                    f"right_inverse(original).{what}: {getattr(new, what)}")
        with no_grad():
            original.set_(new)      # in place: whoever holds `original` sees the new value
        _register_parameter_or_buffer(self, "original", original)

    def _keep_several(self, original: Tensor, new: Sequence) -> None:
        for i, part in enumerate(new):
            if not isinstance(part, Tensor):
                raise ValueError("'right_inverse' must return a Tensor or a Sequence of "
                                 f"tensors (list, tuple...). Got element {i} of the sequence "
                                 f"with type {type(part).__name__}.")
            if isinstance(original, Parameter):
                part = Parameter(part, original.requires_grad)
            part.requires_grad_(original.requires_grad)
            _register_parameter_or_buffer(self, f"original{i}", part)

    def _check_consistent(self, shape, dtype) -> None:
        found = self()
        if not isinstance(found, Tensor):
            raise ValueError(f"A parametrization must return a tensor. Got "
                             f"{type(found).__name__}.")
        if found.dtype != dtype:
            raise ValueError(
                "Registering a parametrization may not change the dtype of the tensor, "
                "unless `unsafe` flag is enabled.\n"
                f"unparametrized dtype: {dtype}\nparametrized dtype: {found.dtype}")
        if found.shape != shape:
            raise ValueError(
                "Registering a parametrization may not change the shape of the tensor, "
                "unless `unsafe` flag is enabled.\n"
                f"unparametrized shape: {shape}\nparametrized shape: {found.shape}")

    def right_inverse(self, value: Tensor) -> None:
        """Store in the originals what makes the parametrized tensor equal `value`: every
        parametrization's ``right_inverse``, last registered first, written in place.

        Args:
            value (Tensor): the value the parametrized tensor should take.
        """
        with no_grad():
            for module in reversed(self):
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(f"parametrization {type(module).__name__} does not "
                                       "implement right_inverse.")
                value = module.right_inverse(value)
            if self.is_tensor:
                self._assign_single(value)
            else:
                self._assign_several(value)

    def _assign_single(self, value) -> None:
        if not isinstance(value, Tensor):
            raise ValueError(f"`right_inverse` should return a tensor. Got "
                             f"{type(value).__name__}")
        if value.dtype != self.original.dtype:
            raise ValueError(f"The tensor returned by `right_inverse` has dtype {value.dtype} "
                             f"while `original` has dtype {self.original.dtype}")
        self.original.set_(value)

    def _assign_several(self, value) -> None:
        if not isinstance(value, collections.abc.Sequence):
            raise ValueError("'right_inverse' must return a sequence of tensors. "
                             f"Got {type(value).__name__}.")
        if len(value) != self.ntensors:
            raise ValueError("'right_inverse' must return a sequence of tensors of length "
                             f"{self.ntensors}. Got a sequence of length {len(value)}.")
        for i, tensor in enumerate(value):
            if not isinstance(tensor, Tensor):
                raise ValueError("'right_inverse' must return a sequence of tensors or "
                                 f"reference-type opaques. Got element {i} of type "
                                 f"{type(tensor).__name__}.")
            original = getattr(self, f"original{i}")
            if original.dtype != tensor.dtype:
                raise ValueError(f"Tensor {i} returned by `right_inverse` has dtype "
                                 f"{tensor.dtype} while `original{i}` has dtype "
                                 f"{original.dtype}")
            original.set_(tensor)

    def forward(self) -> Tensor:
        if self.is_tensor:
            value = self[0](self.original)
        else:
            value = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            value = module(value)
        return value


def _parametrized_class(cls: type) -> type:
    """A subclass of `cls` to hold the properties of one parametrized instance
    (Note [Parametrizations]); pickling it is refused, deep copies copy the state."""
    def refuse_pickle(self):
        raise RuntimeError(
            "Serialization of parametrized modules is only supported through state_dict(). "
            "See:\nhttps://pytorch.org/tutorials/beginner/saving_loading_models.html"
            "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training")

    def copy_state(self, memo: dict):
        if id(self) in memo:
            return memo[id(self)]
        replica = self.__new__(self.__class__)
        memo[id(self)] = replica
        replica.__dict__ = deepcopy(self.__dict__, memo)
        for slot in copyreg._slotnames(self.__class__):
            if hasattr(self, slot):
                setattr(replica, slot, deepcopy(getattr(self, slot), memo))
        return replica
    namespace = {"__getstate__": refuse_pickle}
    if not hasattr(cls, "__deepcopy__"):
        namespace["__deepcopy__"] = copy_state
    return type(f"Parametrized{cls.__name__}", (cls,), namespace)


def _add_property(module: Module, tensor_name: str) -> None:
    """``module.<tensor_name>`` computed by its parametrizations, assigned through their
    right inverses."""
    if hasattr(module, tensor_name):
        raise AssertionError(f"Module already has an attribute named '{tensor_name}'")

    def get(self) -> Tensor:
        parametrization = self.parametrizations[tensor_name]
        if not _cache_depth:
            return parametrization()
        key = (id(self), tensor_name)
        if _cache.get(key) is None:
            _cache[key] = parametrization()
        return _cache[key]

    def assign(self, value: Tensor) -> None:
        self.parametrizations[tensor_name].right_inverse(value)
    setattr(type(module), tensor_name, property(get, assign))


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """Make ``module.<tensor_name>`` the output of `parametrization` applied to a new
    original tensor (Note [Parametrizations]).

    The original lands in ``module.parametrizations[tensor_name].original`` (computed by
    the parametrization's ``right_inverse`` when it has one); registering again on the
    same name chains the parametrizations. The parametrization takes the module's
    training mode.

    Args:
        module (Module): the module owning the tensor.
        tensor_name (str): the name of a parameter or buffer of `module` (or of one
            already parametrized).
        parametrization (Module): computes the tensor from the original(s); it may have
            a ``right_inverse(X)`` returning a tensor or a sequence of tensors.
        unsafe (bool): allow a parametrization that changes the tensor's dtype or shape,
            skipping the consistency checks (default False).

    Returns:
        Module: `module`.

    Example::

        >>> class Symmetric(nn.Module):
        ...     def forward(self, X):
        ...         return X.triu() + X.triu(1).mT
        >>> m = nn.Linear(3, 3)
        >>> P.register_parametrization(m, "weight", Symmetric())
        >>> torch.equal(m.weight, m.weight.T)
        True
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        if not unsafe:
            _check_chained(module, tensor_name, parametrization)
        module.parametrizations[tensor_name].append(parametrization)
        module.parametrizations[tensor_name].unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        chain = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            module.__class__ = _parametrized_class(module.__class__)
            module.parametrizations = ModuleDict()
        _add_property(module, tensor_name)
        module.parametrizations[tensor_name] = chain
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a "
                         f"parametrized element with name '{tensor_name}'")
    return module


def _check_chained(module: Module, name: str, parametrization: Module) -> None:
    """A parametrization added to a chain keeps the tensor's dtype and shape, and so does
    its right inverse."""
    current = getattr(module, name)
    found = parametrization(current)
    if not isinstance(found, Tensor):
        raise ValueError(f"A parametrization must return a tensor. Got {type(found).__name__}.")
    _check_same(found, current, name, "parametrization(module.{0}).{1}",
                "Registering a parametrization may not change the {1} of the tensor, unless "
                "the `unsafe` flag is enabled.")
    if not hasattr(parametrization, "right_inverse"):
        return
    try:
        inverse = parametrization.right_inverse(found)
    except NotImplementedError:
        return
    if not isinstance(inverse, Tensor):
        raise ValueError(f"parametrization.right_inverse must return a tensor. Got: "
                         f"{type(inverse).__name__}")
    _check_same(inverse, current, name, "returned {1}",
                "The tensor returned by parametrization.right_inverse must have the same {1} "
                "as module.{0}, unless the `unsafe` flag is enabled.")


def _check_same(found: Tensor, current: Tensor, name: str, label: str, message: str) -> None:
    for what in ("dtype", "shape"):
        if getattr(found, what) != getattr(current, what):
            raise ValueError(f"{message.format(name, what)}\n"
                             f"module.{name}.{what}: {getattr(current, what)}\n"
                             f"{label.format(name, what)}: {getattr(found, what)}")


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether `module` has a parametrization on `tensor_name` (on anything, when None).

    Args:
        module (Module): the module to ask.
        tensor_name (str, optional): the tensor's name.

    Returns:
        bool

    Example::

        >>> P.is_parametrized(nn.Linear(2, 2))
        False
    """
    parametrizations = getattr(module, "parametrizations", None)
    if not isinstance(parametrizations, ModuleDict):
        return False
    return len(parametrizations) > 0 if tensor_name is None else \
        tensor_name in parametrizations


def remove_parametrizations(module: Module, tensor_name: str,
                            leave_parametrized: bool = True) -> Module:
    """Undo the parametrizations of ``module.<tensor_name>``: it becomes a plain parameter
    (or buffer) again, holding its current parametrized value (`leave_parametrized`) or
    the original tensor.

    Args:
        module (Module): the module.
        tensor_name (str): the parametrized tensor's name.
        leave_parametrized (bool): keep the parametrized value (default True); False
            keeps ``original``, which needs a parametrization of one tensor.

    Returns:
        Module: `module`.

    Example::

        >>> P.remove_parametrizations(m, "weight")
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    chain = module.parametrizations[tensor_name]
    if chain.is_tensor:
        original = chain.original
        if leave_parametrized:
            with no_grad():
                value = getattr(module, tensor_name)
                original.set_(value)
    elif leave_parametrized:
        value = getattr(module, tensor_name)
        original = Parameter(value) if value.requires_grad else value
    else:
        raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor "
                         "that is parametrized in terms of a sequence of tensors.")
    delattr(type(module), tensor_name)
    del module.parametrizations[tensor_name]
    _register_parameter_or_buffer(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = type(module).__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The class `module` had before any parametrization was registered on it.

    Example::

        >>> P.type_before_parametrizations(m)
        <class 'torch.nn.modules.linear.Linear'>
    """
    return type(module).__bases__[0] if is_parametrized(module) else type(module)


def transfer_parametrizations_and_params(from_module: Module, to_module: Module,
                                         tensor_name: str | None = None) -> Module:
    """Register on `to_module` the parametrizations of `from_module` (those of
    `tensor_name` only, when given), sharing their originals; a parametrized name
    `to_module` lacks is created first.

    Args:
        from_module (Module): the parametrized module.
        to_module (Module): the module receiving them.
        tensor_name (str, optional): the one tensor to transfer.

    Returns:
        Module: `to_module`.
    """
    if not is_parametrized(from_module):
        return to_module
    names = list(from_module.parametrizations) if tensor_name is None else [tensor_name]
    for name in names:
        if not hasattr(to_module, name):
            setattr(to_module, name, Parameter(getattr(from_module, name)))
        source = from_module.parametrizations[name]
        for parametrization in source:
            register_parametrization(to_module, name, parametrization)
        target = to_module.parametrizations[name]
        if hasattr(source, "original"):
            target.original = source.original
        else:
            index = 0
            while hasattr(source, f"original{index}"):
                setattr(target, f"original{index}", getattr(source, f"original{index}"))
                index += 1
    return to_module
