"""What a checkpoint's tensor records load as: torch's ``torch._utils._rebuild_*``
functions, written again for glasstorch tensors.

A pickled tensor is a call ``_rebuild_tensor_v2(storage, offset, size, stride,
requires_grad, backward_hooks[, metadata])``: the storage comes from the archive (the
persistent id), the rest is geometry. Every argument comes from a file that may be
hostile, so the geometry is checked against the storage before any tensor exists
(Note [Checkpoint geometry]).

Note [Checkpoint geometry]
    A tensor record may claim any sizes, strides and offset. The tensor it makes is a
    view of the archive's storage (no copy, and so no allocation however large the
    claimed size), and it must stay inside that storage: the last element it reaches,
    ``offset + sum((size - 1) * stride)``, must be an element of the storage. Sizes and
    strides must be non-negative integers, as torch's ``set_`` requires. A record that
    breaks a rule is refused with torch's message before anything else happens.
"""
from __future__ import annotations

import operator
from collections import OrderedDict

from ..c10 import dtype as dtypes
from ..c10 import layout as layouts
from ..c10.storage import UntypedStorage
from ..c10.tensor_impl import TensorBase, make_tensor
from ..storage import TypedStorage


def storage_for(untyped: UntypedStorage, dtype: dtypes.dtype) -> TypedStorage:
    """What a storage reference loads as: torch's ``TypedStorage`` of the dtype its
    storage type names (uint8 for ``UntypedStorage``), whether the storage is a tensor's
    or was saved for itself."""
    return TypedStorage(wrap_storage=untyped, dtype=dtype, _internal=True)


def _bytes_and_dtype(storage) -> tuple[UntypedStorage, dtypes.dtype]:
    if isinstance(storage, TypedStorage):
        return storage.untyped(), storage.dtype
    if isinstance(storage, UntypedStorage):
        return storage, dtypes.uint8
    raise RuntimeError(f"expected a storage in the tensor record, got {type(storage).__name__}")


def _check_geometry(nbytes: int, offset, size, stride, itemsize: int) -> tuple:
    """Refuse a geometry leaving the storage (Note [Checkpoint geometry]); returns it as
    int tuples."""
    try:
        offset = operator.index(offset)
        size = tuple(operator.index(s) for s in size)
        stride = tuple(operator.index(s) for s in stride)
    except TypeError:
        raise TypeError("set_() received an invalid combination of arguments - got "
                        f"(storage, {type(offset).__name__}, {type(size).__name__}, "
                        f"{type(stride).__name__})") from None
    if len(size) != len(stride):
        raise RuntimeError(f"unequal size length ({len(size)}) and stride length ({len(stride)})")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    if any(s < 0 for s in size):
        raise RuntimeError("numel: integer multiplication overflow")
    if any(st < 0 for st in stride):
        raise RuntimeError(f"Storage size calculation overflowed with sizes={list(size)} and "
                           f"strides={list(stride)}")
    if 0 not in size:
        last = offset + sum((s - 1) * st for s, st in zip(size, stride))
        if (last + 1) * itemsize > nbytes:
            raise RuntimeError("Trying to resize storage that is not resizable")
    return offset, size, stride


def _tensor_over(storage: UntypedStorage, dtype, offset, size, stride,
                 requires_grad: bool) -> TensorBase:
    offset, size, stride = _check_geometry(storage.nbytes(), offset, size, stride,
                                           dtype.itemsize)
    tensor = make_tensor(storage, size, stride, offset, dtype)
    if requires_grad:
        tensor.requires_grad = True
    return tensor


def _apply_metadata(tensor: TensorBase, metadata) -> TensorBase:
    """The conjugate and negative bits a record may carry, applied as views of the
    stored (unconjugated, unnegated) data."""
    if not metadata:
        return tensor
    if metadata.get("conj"):
        tensor = tensor.conj()
    if metadata.get("neg"):
        tensor = tensor.neg()
    return tensor


def _rebuild_tensor(storage: TypedStorage, storage_offset, size, stride) -> TensorBase:
    """The oldest tensor record: geometry over a typed storage, nothing else."""
    return _tensor_over(*_bytes_and_dtype(storage), storage_offset, size, stride, False)


def _rebuild_tensor_v2(storage: TypedStorage, storage_offset, size, stride,
                       requires_grad, backward_hooks, metadata=None) -> TensorBase:
    """A tensor over a typed storage (the dtypes with a legacy storage class)."""
    tensor = _tensor_over(*_bytes_and_dtype(storage), storage_offset, size, stride,
                          bool(requires_grad))
    return _apply_metadata(tensor, metadata)


def _rebuild_tensor_v3(storage: TypedStorage, storage_offset, size, stride,
                       requires_grad, backward_hooks, dtype, metadata=None) -> TensorBase:
    """A tensor over untyped bytes (a uint8 storage) that names its own dtype
    (uint16-64, float8, complex32: the dtypes without a legacy storage class)."""
    if not isinstance(dtype, dtypes.dtype) or dtype not in dtypes.EVERY_DTYPE:
        raise RuntimeError(f"_rebuild_tensor_v3: unsupported dtype {dtype!r}")
    tensor = _tensor_over(_bytes_and_dtype(storage)[0], dtype, storage_offset, size, stride,
                          bool(requires_grad))
    return _apply_metadata(tensor, metadata)


def _rebuild_meta_tensor_no_storage(dtype, size, stride, requires_grad) -> TensorBase:
    """A meta tensor: geometry only, no bytes to read."""
    nbytes = _meta_nbytes(size, stride, dtype.itemsize)
    return _tensor_over(UntypedStorage._meta(nbytes), dtype, 0, size, stride,
                        bool(requires_grad))


def _meta_nbytes(size, stride, itemsize: int) -> int:
    if 0 in tuple(size):
        return 0
    return (1 + sum((s - 1) * st for s, st in zip(size, stride))) * itemsize


def _rebuild_parameter(data: TensorBase, requires_grad, backward_hooks):
    """An ``nn.Parameter`` around a rebuilt tensor."""
    from ..nn.parameter import Parameter
    return Parameter(data, bool(requires_grad))


def _rebuild_parameter_with_state(data: TensorBase, requires_grad, backward_hooks, state):
    """An ``nn.Parameter`` (or subclass) with extra attributes set from `state`."""
    param = _rebuild_parameter(data, requires_grad, backward_hooks)
    for name, value in _checked_state(state).items():
        setattr(param, name, value)
    return param


def _checked_state(state) -> dict:
    """A record's attributes for its tensor: a dict of plain names (a file may not set
    ``__class__`` or another special attribute)."""
    if not state:
        return {}
    if not isinstance(state, dict) or any(
            not isinstance(name, str) or name.startswith("__") for name in state):
        raise RuntimeError(f"Invalid tensor attributes in checkpoint: {list(state)!r}")
    return state


def _rebuild_from_type_v2(func, new_type, args, state):
    """A tensor rebuilt by `func`, then given its class and attributes: torch's record
    of a tensor subclass, or of a tensor carrying a ``__dict__``."""
    result = func(*args)
    if type(result) is not new_type and isinstance(new_type, type) \
            and issubclass(new_type, type(result)):
        result = make_tensor(result._storage, result._size, result._stride, result._offset,
                             result._dtype, None, new_type)
    result.__dict__.update(_checked_state(state))
    return result


def _get_layout(name: str):
    """The layout a checkpoint names by its string, ``'torch.strided'``."""
    layout = getattr(layouts, name.rpartition(".")[2], None)
    if not isinstance(layout, layouts.layout):
        raise KeyError(name)
    return layout


def empty_hooks() -> OrderedDict:
    """The (always empty) backward-hooks slot of a tensor record."""
    return OrderedDict()
