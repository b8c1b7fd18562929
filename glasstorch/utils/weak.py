"""torch.utils.weak: weak references and dictionaries keyed by object identity.

A tensor compares elementwise (``a == b`` is a tensor), so it cannot key a
``weakref.WeakKeyDictionary``; these key by ``id`` instead, each key held weakly.
"""
from __future__ import annotations

import weakref
from collections.abc import MutableMapping
from typing import Any, Iterator

from .._tensor import Tensor

__all__ = ["TensorWeakRef", "WeakIdRef", "WeakIdKeyDictionary", "WeakTensorKeyDictionary"]


class WeakIdRef(weakref.ref):
    """A weak reference equal to another when both point at the same live object (or,
    once dead, when they are the same reference); hashed by the object's id."""

    __slots__ = ["_id"]

    def __init__(self, key, callback=None) -> None:
        self._id = id(key)
        super().__init__(key, callback)

    def __call__(self):
        return super().__call__()

    def __hash__(self) -> int:
        return self._id

    def __eq__(self, other) -> bool:
        a, b = self(), other()
        if a is not None and b is not None:
            return a is b
        return self is other


class _IdRef(WeakIdRef):
    """A WeakIdRef used only to look a key up (a strong pointer would do too)."""


class WeakIdKeyDictionary(MutableMapping):
    """A dict whose keys are held weakly and compared by identity: an entry goes when
    its key object is collected."""

    def __init__(self, dict=None, ref_type=WeakIdRef) -> None:
        self.data: dict = {}
        self.ref_type = ref_type
        self_ref = weakref.ref(self)

        def remove(ref) -> None:
            owner = self_ref()
            if owner is not None:
                owner.data.pop(ref, None)
        self._remove = remove
        if dict is not None:
            self.update(dict)

    def __getitem__(self, key) -> Any:
        return self.data[self.ref_type(key)]

    def __setitem__(self, key, value) -> None:
        self.data[self.ref_type(key, self._remove)] = value

    def __delitem__(self, key) -> None:
        del self.data[self.ref_type(key)]

    def __contains__(self, key) -> bool:
        try:
            ref = self.ref_type(key)
        except TypeError:
            return False
        return ref in self.data

    def __iter__(self) -> Iterator:
        for ref in list(self.data):
            obj = ref()
            if obj is not None:
                yield obj

    def __len__(self) -> int:
        return sum(1 for ref in list(self.data) if ref() is not None)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} at {id(self):#x}>"

    def copy(self) -> "WeakIdKeyDictionary":
        return type(self)(dict(self.items()), self.ref_type)


WeakTensorKeyDictionary = WeakIdKeyDictionary


class TensorWeakRef:
    """A weak reference to a tensor: calling it gives the tensor, or None once freed."""

    __slots__ = ["ref"]

    def __init__(self, tensor: Tensor) -> None:
        assert isinstance(tensor, Tensor)
        self.ref = weakref.ref(tensor)

    def __call__(self):
        return self.ref()
