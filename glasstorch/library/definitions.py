"""torch.library's Library: defining operators in a namespace and registering kernels
(Note [Operators from torch.library] in __init__.py)."""
from __future__ import annotations

from typing import Callable, Union

from ..aten.dispatcher import FALLTHROUGH, OpOverload, find_overload, get_overload
from ..aten.schema import parse_schema
from ..c10.dispatch_key import DispatchKey
from . import kernels

_DEFINED_NAMESPACES: dict = {}      # namespace -> its DEF Library (one per namespace)
REGISTERED_KEY_NAMES: dict = {}     # OpOverload -> the key names `impl` registered it for
_ALIAS_ANALYSES = ("", "FROM_SCHEMA", "CONSERVATIVE", "PURE_FUNCTION")


def fallthrough_kernel():
    """A dummy kernel: `Library.impl` with it makes the key pass calls straight through."""
    raise NotImplementedError("fallthrough_kernel() should never be called.")


class Library:
    """A handle for defining operators of a namespace and implementing them.

    Args:
        ns: the namespace (``"mylib"``: operators become ``torch.ops.mylib.<name>``).
        kind: ``"DEF"`` (the namespace's one defining library), ``"FRAGMENT"`` (another
            defining library of it), or ``"IMPL"`` (implementations only).
        dispatch_key: the key `impl` registers to when given none.

    Example::

        >>> lib = torch.library.Library("mylib", "FRAGMENT")
        >>> lib.define("twice(Tensor x) -> Tensor")
        'twice'
        >>> lib.impl("twice", lambda x: x * 2, "CompositeExplicitAutograd")
        >>> torch.ops.mylib.twice(torch.ones(2))
        tensor([2., 2.])
    """

    def __init__(self, ns: str, kind: str, dispatch_key: str = "") -> None:
        if kind not in ("IMPL", "DEF", "FRAGMENT"):
            raise ValueError(f"Unsupported kind: {kind}")
        if kind == "DEF":
            if ns in _DEFINED_NAMESPACES:
                raise RuntimeError(_single_library_message(ns))
            _DEFINED_NAMESPACES[ns] = self
        self.ns, self.kind, self.dispatch_key = ns, kind, dispatch_key

    def __repr__(self) -> str:
        return f"Library(kind={self.kind}, ns={self.ns}, dispatch_key={self.dispatch_key})>"

    def define(self, schema: str, alias_analysis: str = "", *, tags=()) -> str:
        """Define an operator of this namespace from its schema (``"name(args) -> returns"``).

        Returns:
            The operator's name, without its overload name (torch's answer).
        """
        if alias_analysis not in _ALIAS_ANALYSES:
            raise RuntimeError(f"Invalid alias_analysis type {alias_analysis}")
        parsed = parse_schema(schema)
        if self.kind == "IMPL":
            raise RuntimeError(
                f'def("{parsed.name}"): Cannot define an operator inside of a '
                f"TORCH_LIBRARY_IMPL block.  All def()s should be placed in the (unique) "
                f"TORCH_LIBRARY block for their namespace.")
        if find_overload(self.ns, parsed.name, parsed.overload_name) is not None:
            raise RuntimeError(
                f"Tried to register an operator ({self.ns}::{parsed}) with the same name "
                f"and overload name multiple times. Each overload's schema should only be "
                f"registered with a single call to def().")
        overload = get_overload(parsed, self.ns)
        overload.register(DispatchKey.Meta, kernels.missing_meta_kernel)
        return parsed.name

    def impl(self, op_name: Union[str, OpOverload], fn: Callable, dispatch_key: str = "",
             *, with_keyset: bool = False, allow_override: bool = False) -> None:
        """Register `fn` as the kernel of `op_name` for `dispatch_key`.

        Args:
            op_name: ``"name"``, ``"name.overload"``, or the OpOverload.
            fn: the kernel, taking the schema's arguments; `fallthrough_kernel` makes
                the key pass calls through.
            dispatch_key: ``"CPU"``, ``"Meta"``, ``"CompositeExplicitAutograd"``,
                ``"CompositeImplicitAutograd"`` (the default), ``"Autograd"``; keys of
                devices glasstorch lacks (``"CUDA"``) are accepted and never run.
        """
        if with_keyset:
            raise NotImplementedError(
                f"{_NOT_YET}: Library.impl(with_keyset=True) (glasstorch kernels are not "
                f"given a DispatchKeySet)")
        overload = self._overload(op_name)
        key_name = dispatch_key or self.dispatch_key or "CompositeImplicitAutograd"
        if key_name in kernels.ABSENT_DEVICE_KEYS:
            return
        if key_name not in kernels.KEYS_BY_NAME:
            raise RuntimeError(f"could not parse dispatch key: {key_name}")
        kernel = FALLTHROUGH if fn is fallthrough_kernel else \
            kernels.python_kernel(overload, fn, getattr(fn, "__qualname__", repr(fn)))
        for key in kernels.KEYS_BY_NAME[key_name]:
            overload.register(DispatchKey[key], kernel)
        REGISTERED_KEY_NAMES.setdefault(overload, set()).add(key_name)

    def _overload(self, op_name) -> OpOverload:
        if isinstance(op_name, OpOverload):
            return op_name
        name, _, overload_name = op_name.partition(".")
        overload = find_overload(self.ns, name, overload_name)
        if overload is None:
            raise RuntimeError(f"operator {self.ns}::{op_name} does not exist: define it "
                               f"before registering a kernel for it")
        return overload

    def _destroy(self) -> None:
        """Forget this library's claim on its namespace (its operators stay)."""
        if _DEFINED_NAMESPACES.get(self.ns) is self:
            del _DEFINED_NAMESPACES[self.ns]


_NOT_YET = "glasstorch does not implement"


def _single_library_message(ns: str) -> str:
    return (f"Only a single TORCH_LIBRARY can be used to register the namespace {ns}; please "
            f"put all of your definitions in a single TORCH_LIBRARY block.  If you were "
            f"trying to specify implementations, consider using TORCH_LIBRARY_IMPL (which "
            f"can be duplicated).  If you really intended to define operators for a single "
            f"namespace in a distributed way, you can use TORCH_LIBRARY_FRAGMENT to "
            f"explicitly indicate this.")


def split_qualname(qualname: str) -> tuple:
    """``"mylib::op.overload"`` -> (``"mylib"``, ``"op.overload"``)."""
    namespace, name = qualname.split("::")
    return namespace, name


def resolve_overload(target) -> OpOverload:
    """The OpOverload named by ``"ns::name[.overload]"``, or given (a CustomOpDef's too)."""
    if isinstance(target, OpOverload):
        return target
    if hasattr(target, "_opoverload"):
        return target._opoverload
    namespace, name = split_qualname(target)
    return Library(namespace, "FRAGMENT")._overload(name)
