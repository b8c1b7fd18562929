"""The writer's pickler: glasstorch objects pickled under torch's names.

Python's pickler names a function or class by the module it was defined in; a
checkpoint must name torch's (Note in _names.py). This pickler is Python's own
(the pure-Python implementation, whose hooks can be overridden one by one), or a
`pickle_module`'s subclass of it, with three changes: a tensor pickles as torch's
record of one (`reduce_tensor`), an object torch knows pickles under torch's path, and
a storage becomes a persistent id, written as a record of the archive instead of into
the pickle.
"""
from __future__ import annotations

import pickle
from collections import OrderedDict

from ..c10 import dtype as dtypes
from ..c10.layout import layout
from ..c10.storage import UntypedStorage
from ..c10.tensor_impl import TensorBase, tensor_class
from ..nn.parameter import Parameter
from ..storage import TypedStorage
from . import _rebuild
from ._location import location_tag
from ._names import torch_path
from ._storage_types import pickled_storage_type


class StorageRef:
    """A storage as the pickle meets it: the bytes, the dtype they are read as, and
    whether the checkpoint names it untyped (a storage saved for itself, or the
    storage of a dtype without a typed storage class)."""

    __slots__ = ("storage", "dtype", "untyped")

    def __init__(self, storage: UntypedStorage, dtype: dtypes.dtype,
                 untyped: bool = False) -> None:
        self.storage = storage
        self.dtype = dtype
        self.untyped = untyped or pickled_storage_type(dtype) is UntypedStorage


def typed_storage_ref(storage: TypedStorage) -> StorageRef:
    """A typed storage saved for itself: recorded under its legacy class, so that it
    loads typed; torch refuses the dtypes that have no such class."""
    if pickled_storage_type(storage.dtype) is UntypedStorage:
        raise KeyError(f"dtype {storage.dtype} is not recognized")
    return StorageRef(storage.untyped(), storage.dtype)


class StorageTable:
    """The storages a checkpoint holds, each once, keyed ``'0'``, ``'1'``, ... in the
    order the pickle first meets them."""

    def __init__(self) -> None:
        self.storages: dict[str, UntypedStorage] = {}
        self.dtypes: dict[str, dtypes.dtype] = {}
        self._keys: dict[int, tuple[str, dtypes.dtype]] = {}

    def persistent_id(self, ref: StorageRef) -> tuple:
        """``('storage', storage type, key, location, numel)``, torch's storage reference."""
        storage = ref.storage
        known = self._keys.get(id(storage))
        if known is None:
            known = self._keys[id(storage)] = (str(len(self.storages)), ref.dtype)
            self.storages[known[0]] = storage
            self.dtypes[known[0]] = ref.dtype
        elif known[1] is not ref.dtype:
            raise RuntimeError("Cannot save multiple tensors or storages that view the same "
                               "data as different types")
        if ref.untyped:
            return ("storage", UntypedStorage, known[0], location_tag(storage), storage.nbytes())
        numel = storage.nbytes() // ref.dtype.itemsize
        return ("storage", pickled_storage_type(ref.dtype), known[0], location_tag(storage), numel)


class TorchNamesPickling:
    """The checkpoint's changes to a pure-Python pickler (Python's own, or a subclass of
    it from a `pickle_module`): storages to `table`, glasstorch objects under torch's
    names. What the changes leave alone goes to the base pickler's own hooks.

    Args:
        file: where the pickle goes.
        protocol (int): the pickle protocol.
        table (StorageTable): collects the storages the tensors refer to.
    """

    def __init__(self, file, protocol: int, table: StorageTable) -> None:
        super().__init__(file, protocol=protocol)
        self._table = table

    def persistent_id(self, obj):
        if type(obj) is StorageRef:
            return self._table.persistent_id(obj)
        if type(obj) is UntypedStorage:
            return self._table.persistent_id(StorageRef(obj, dtypes.uint8, untyped=True))
        if isinstance(obj, TypedStorage):
            return self._table.persistent_id(typed_storage_ref(obj))
        return super().persistent_id(obj)

    def reducer_override(self, obj):
        if isinstance(obj, TensorBase):
            return reduce_tensor(obj)
        path = torch_path(obj)
        if path is not None:
            return path[1]                 # a global: save_global writes torch's path
        if type(obj) is layout:
            return (_rebuild._get_layout, (str(obj),))
        base = getattr(super(), "reducer_override", None)
        return NotImplemented if base is None else base(obj)

    def save_global(self, obj, name=None) -> None:
        path = torch_path(obj)
        if path is None:
            super().save_global(obj, name)
            return
        module, qualname = path
        if self.proto >= 4:
            self.save(module)
            self.save(qualname)
            self.write(pickle.STACK_GLOBAL)
        else:
            self.write(pickle.GLOBAL + f"{module}\n{qualname}\n".encode())
        self.memoize(obj)


class CheckpointPickler(TorchNamesPickling, pickle._Pickler):
    """Python's pure-Python pickler writing a checkpoint (`TorchNamesPickling`)."""


def pickler_class(pickle_module) -> type:
    """The checkpoint pickler `save` uses with `pickle_module`: as torch does, a subclass
    of the module's ``Pickler``, which must be Python's pure-Python pickler or a subclass
    of it, the only picklers whose ``save_global`` can write torch's names.

    Raises:
        AttributeError: when the module has no ``Pickler``, as in torch.
        TypeError: when its ``Pickler`` is another (a C-accelerated one).
    """
    base = pickle_module.Pickler
    if base is pickle.Pickler or base is pickle._Pickler:
        return CheckpointPickler
    if isinstance(base, type) and issubclass(base, pickle._Pickler):
        return type(f"Checkpoint{base.__name__}", (TorchNamesPickling, base), {})
    name = getattr(pickle_module, "__name__", pickle_module)
    raise TypeError(f"torch.save cannot use pickle_module {name!r}: glasstorch writes torch's "
                    "names for its own objects through the pickler's save_global, which only "
                    "Python's pure-Python pickle._Pickler and its subclasses (dill's Pickler, "
                    f"for one) let it override, and {base!r} is not one of them")


# Attributes glasstorch itself keeps on a tensor (from_numpy's array), not user state.
_OWN_ATTRIBUTES = frozenset({"_numpy_base"})


def _user_state(tensor: TensorBase) -> dict:
    return {k: v for k, v in tensor.__dict__.items() if k not in _OWN_ATTRIBUTES}


def reduce_tensor(tensor: TensorBase) -> tuple:
    """torch's record of `tensor`: a rebuild function and its arguments."""
    if isinstance(tensor, Parameter):
        data = tensor.detach()
        state = _user_state(tensor)
        if state or type(tensor) is not Parameter:
            return (_rebuild._rebuild_parameter_with_state,
                    (data, tensor.requires_grad, OrderedDict(), state))
        return (_rebuild._rebuild_parameter, (data, tensor.requires_grad, OrderedDict()))
    function, args = _plain_record(tensor)
    state = _user_state(tensor)
    if state or type(tensor) is not tensor_class():
        return (_rebuild._rebuild_from_type_v2, (function, type(tensor), args, state))
    return function, args


def _plain_record(tensor: TensorBase) -> tuple:
    """The record of the tensor's data and geometry, without its class."""
    size, stride = tuple(tensor.shape), tuple(tensor.stride())
    if tensor.device.type == "meta":
        return (_rebuild._rebuild_meta_tensor_no_storage,
                (tensor.dtype, size, stride, tensor.requires_grad))
    ref = StorageRef(tensor.untyped_storage(), tensor.dtype)
    args = (ref, tensor.storage_offset(), size, stride, tensor.requires_grad, OrderedDict())
    metadata = _bits(tensor)
    if pickled_storage_type(tensor.dtype) is UntypedStorage:
        return _rebuild._rebuild_tensor_v3, args + (tensor.dtype,) + metadata
    return _rebuild._rebuild_tensor_v2, args + metadata


def _bits(tensor: TensorBase) -> tuple:
    """The conjugate / negative bits of a lazily conjugated or negated view, which
    torch records beside the (unconjugated) data; empty for an ordinary tensor."""
    is_conj = getattr(tensor, "is_conj", None)
    is_neg = getattr(tensor, "is_neg", None)
    bits = {}
    if is_conj is not None and is_conj():
        bits["conj"] = True
    if is_neg is not None and is_neg():
        bits["neg"] = True
    return (bits,) if bits else ()
