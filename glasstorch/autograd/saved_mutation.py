"""`allow_mutation_on_saved_tensors`: in-place writes to tensors saved for backward,
allowed by keeping a copy of what each write would destroy.

Inside the block every saved tensor is packed as a handle (saved-tensor hooks), and a
dispatch mode watches every operator: before one writes into a storage that saved
tensors live in, each of them not copied yet is cloned. Backward unpacks the clone
when there is one, else the tensor itself, so it computes with the values the forward
saw, where it would otherwise refuse the modified tensor.
"""
from __future__ import annotations

import contextlib
import weakref
from collections import defaultdict
from typing import Iterator

from ..aten.dispatcher import operator_entry
from ..aten.python_dispatch import pop_mode, push_mode
from ..c10.tensor_impl import TensorBase
from .saved import saved_tensors_hooks

_OUTSIDE = ("Trying to backward outside of the 'allow_mutation_on_saved_tensors' context"
            "in which the graph was originally recorded.")


class _Handle:
    """What a saved tensor is packed as."""

    __slots__ = ("__weakref__",)


class _AllowMutationOnSavedContext:
    """The saved tensors of one block: the originals, the clones made before writes,
    and which handles live in which storage."""

    active = False          # blocks cannot be nested

    def __init__(self) -> None:
        self.original = weakref.WeakKeyDictionary()       # handle -> tensor
        self.cloned = weakref.WeakKeyDictionary()         # handle -> copy before a write
        self.by_storage: dict = defaultdict(weakref.WeakSet)   # storage id -> handles

    def clear(self) -> None:
        """Forget every saved tensor."""
        self.original.clear()
        self.cloned.clear()
        self.by_storage.clear()

    def pack(self, tensor) -> _Handle:
        handle = _Handle()
        self.original[handle] = tensor
        self.by_storage[id(tensor.untyped_storage())].add(handle)
        return handle

    def unpack(self, handle: _Handle):
        if not _AllowMutationOnSavedContext.active:
            raise AssertionError(_OUTSIDE)
        if handle in self.cloned:
            return self.cloned[handle]
        if handle not in self.original:
            raise AssertionError(_OUTSIDE)
        return self.original[handle]

    def before_write(self, tensor) -> None:
        """Clone the saved tensors that live in `tensor`'s storage, once each."""
        clone = operator_entry("clone", "")
        for handle in list(self.by_storage.get(id(tensor.untyped_storage()), ())):
            original = self.original.pop(handle, None)
            if original is not None:
                self.cloned[handle] = clone(original, None)


class _CloneBeforeWriteMode:
    """The dispatch mode calling `before_write` for every tensor an operator writes."""

    def __init__(self, context: _AllowMutationOnSavedContext) -> None:
        self.context = context

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        for index in func.written_args:
            written = args[index]
            for tensor in written if isinstance(written, (list, tuple)) else (written,):
                if isinstance(tensor, TensorBase):
                    self.context.before_write(tensor)
        return func(*args, **(kwargs or {}))


@contextlib.contextmanager
def allow_mutation_on_saved_tensors() -> Iterator[_AllowMutationOnSavedContext]:
    """Allow in-place writes to tensors saved for backward inside the block (run the
    forward and the backward both inside it); see the module's docstring.

    Yields:
        The block's record of saved tensors, cleared when the block ends.

    Example::

        >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
        ...     b = torch.ones(2, requires_grad=True).clone()
        ...     out = (b ** 2).sum()
        ...     b.sin_()
        ...     out.backward()
    """
    if _AllowMutationOnSavedContext.active:
        raise RuntimeError("allow_mutation_on_saved_tensors contexts cannot be nested")
    context = _AllowMutationOnSavedContext()
    _AllowMutationOnSavedContext.active = True
    push_mode(_CloneBeforeWriteMode(context))
    try:
        with saved_tensors_hooks(context.pack, context.unpack):
            yield context
    finally:
        pop_mode()
        context.clear()
        _AllowMutationOnSavedContext.active = False
