"""Tensor methods over a tensor's memory that are not operators (a base of `Tensor`).

Python callables over elements (`apply_`, `map_`, `map2_`), the deprecated out-of-place
`resize` / `resize_as`, pointing a tensor at other memory (`set_`, `is_set_to`),
shared memory between processes (`share_memory_`, `is_shared`) and the typed-storage
views (`storage`, `storage_type`).
"""
from __future__ import annotations

import functools
import numbers
import operator
import warnings

import numpy as np

from .aten import ops
from .aten.allocation import storage_elements
from .aten.direct_binding import MISSING
from .autograd.grad_mode import is_grad_enabled
from .c10.dtype import type_meta_name
from .c10.storage import UntypedStorage
from .c10.tensor_impl import TensorBase, contiguous_strides, forget_array

_aten = ops.aten


def _element_converter(dtype):
    """How a Python value returned by a callable becomes an element of `dtype`, with
    the refusals of torch's conversions."""
    if dtype.is_complex:
        return complex
    if dtype.is_floating_point:
        def to_float(value):
            if not isinstance(value, numbers.Real):
                raise TypeError(f"must be real number, not {type(value).__name__}")
            return float(value)
        return to_float

    def to_int(value):
        if isinstance(value, float):
            return int(value)
        if not isinstance(value, (numbers.Integral, np.integer)):
            raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an "
                            f"integer")
        return int(value)
    return to_int


def _map_elements(self: TensorBase, name: str, others: tuple, function) -> TensorBase:
    """Write ``function(self[i], *others[i])`` into every element of `self`."""
    if any(t.requires_grad for t in (self, *others)):
        raise RuntimeError(f"Can't call {name}() on Variable that requires grad. Use "
                           f"var.detach().{name}() instead.")
    if self._device.type == "meta":
        return self
    convert = _element_converter(self._dtype)
    target = self._np
    sources = [np.broadcast_to(o._np, target.shape) for o in others]
    values = [convert(function(*items)) for items in zip(target.ravel().tolist(),
                                                         *(s.ravel().tolist() for s in sources))]
    target[...] = np.asarray(values, dtype=target.dtype).reshape(target.shape)
    return self


def _check_same_type(name: str, self: TensorBase, other, argument: str, label: str) -> None:
    if not isinstance(other, TensorBase):
        raise TypeError(f"{name}(): argument '{argument}' (position 1) must be Tensor, not "
                        f"{type(other).__name__}")
    if other._dtype is not self._dtype:
        raise TypeError(f"{name}: expected {self.type()} for {label} (got {other.type()})")
    other.expand(self._size)        # torch's broadcast check, and its refusal


class TensorMemory:
    """The memory methods of `Tensor` (see the module docstring)."""

    __slots__ = ()

    # ----- Python callables over elements ------------------------------------------
    def apply_(self, callable):
        """Replace each element by ``callable(element)``; CPU only, slow (a Python call
        per element), and not recorded by autograd.

        Example::

            >>> torch.tensor([1., 2.]).apply_(lambda v: v * 10)
            tensor([10., 20.])
        """
        return _map_elements(self, "apply_", (), callable)

    def map_(self, tensor, callable):
        """Replace each element by ``callable(element, tensor's element)``; `tensor`
        (of the same dtype) broadcasts to this tensor's shape."""
        _check_same_type("map_", self, tensor, "other", "'other'")
        return _map_elements(self, "map_", (tensor,), callable)

    def map2_(self, x, y, callable):
        """Replace each element by ``callable(element, x's element, y's element)``."""
        _check_same_type("map2_", self, x, "x", "argument 'x'")
        _check_same_type("map2_", self, y, "y", "argument 'y'")
        return _map_elements(self, "map2_", (x, y), callable)

    # ----- copying in ------------------------------------------------------------------
    def copy_(self, other=MISSING, non_blocking: bool = False):
        """Copy `other`'s elements into this tensor, broadcast to its shape and cast to its
        dtype; a number fills it. Returns this tensor.

        Example::

            >>> torch.zeros(2, 2).copy_(torch.tensor([1., 2.]))
            tensor([[1., 2.],
                    [1., 2.]])
        """
        if other is MISSING:
            raise TypeError("copy_() received an invalid combination of arguments - got (), "
                            "but expected (Tensor other, bool non_blocking = False)")
        if not isinstance(other, TensorBase):
            if not isinstance(other, (numbers.Number, np.number, np.bool_)):
                raise TypeError(f"copy_(): argument 'other' (position 1) must be Tensor, not "
                                f"{type(other).__name__}")
            from ._tensor_new import tensor      # loaded on first use (import time)
            other = tensor(other)
        return _aten.copy_.default(self, other, non_blocking)

    # ----- deprecated out-of-place resize -----------------------------------------------
    def resize(self, *sizes):
        """Deprecated: this tensor's elements in a new shape of as many elements (a view
        of a row-major copy when needed); use `reshape`."""
        warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
        return _resized(self, sizes)

    def resize_as(self, tensor):
        """Deprecated: `resize` to `tensor`'s shape; use `reshape_as`."""
        warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
        return _resized(self, tensor.size())

    # ----- pointing at other memory -----------------------------------------------------
    def set_(self, *args, **kwargs):
        """Make this tensor view other memory, in place.

        ``set_()`` empties it; ``set_(tensor)`` shares `tensor`'s storage and geometry;
        ``set_(storage)`` views a whole storage as 1-D; ``set_(storage_or_tensor,
        storage_offset, size, stride=None)`` views it with that geometry (the storage
        grows when the geometry needs more).

        Example::

            >>> x = torch.arange(4.)
            >>> torch.empty(0).set_(x.untyped_storage(), 1, (2,), (2,))
            tensor([1., 3.])
        """
        source, storage_offset, size, stride = _set_arguments(args, kwargs)
        return set_tensor(self, source, storage_offset, size, stride)

    def is_set_to(self, tensor) -> bool:
        """Whether this tensor views the same memory as `tensor`, with the same geometry."""
        return (self._storage is tensor._storage and self._offset == tensor._offset
                and self._size == tensor._size and self._stride == tensor._stride)

    # ----- shared memory --------------------------------------------------------------
    def share_memory_(self):
        """Move this tensor's storage to memory shared with child processes (a no-op if
        it is there already); returns this tensor."""
        if self._device.type == "cpu" and not self._storage.is_shared():
            self._storage.share_memory_()
            forget_array(self)
        return self

    def is_shared(self) -> bool:
        """Whether this tensor's storage is in shared memory."""
        return self._storage.is_shared()

    # ----- typed storages (glasstorch/storage.py) -------------------------------------
    def storage(self):
        """Deprecated: this tensor's storage as a `TypedStorage` of its dtype; use
        `untyped_storage`."""
        from .storage import TypedStorage, warn_typed_storage_removal
        warn_typed_storage_removal()
        return TypedStorage(wrap_storage=self._storage, dtype=self._dtype, _internal=True)

    def storage_type(self):
        """The legacy storage class of this tensor's dtype (``torch.FloatStorage``, ...)."""
        from .storage import legacy_storage_class
        return legacy_storage_class(self._dtype)


def _resized(self: TensorBase, sizes: tuple) -> TensorBase:
    """torch's autograd ``Resize``: the sizes as given multiply to the element count
    (so a single tuple argument is refused: it multiplies to itself), then a view of a
    row-major copy when needed."""
    total = functools.reduce(operator.mul, sizes)
    if total != self.numel():
        asked = "x".join(map(str, sizes))
        have = "x".join(map(str, self._size))
        raise RuntimeError(f"requested resize to {asked} ({total} elements in total), but "
                           f"the given tensor has a size of {have} ({self.numel()} elements). "
                           f"autograd's resize can only change the shape of a given tensor, "
                           f"while preserving the number of elements. ")
    return self.contiguous().view(tuple(sizes))


_SET_SIGNATURES = (
    " * ()\n * (torch.Storage source)\n * (torch.Storage source, int storage_offset, tuple of "
    "ints size, tuple of ints stride = None)\n * (Tensor source)\n * (Tensor source, int "
    "storage_offset, tuple of ints size, tuple of ints stride = None)\n")


def _set_arguments(args: tuple, kwargs: dict) -> tuple:
    """`set_`'s overloads: (), (source), (source, storage_offset, size, stride=None)."""
    names = ("source", "storage_offset", "size", "stride")
    values = dict(zip(names, args), **kwargs)
    if len(args) > 4 or set(values) - set(names) or len(values) == 2 or (
            len(values) == 3 and "stride" in values):
        got = ", ".join([type(a).__name__ if not isinstance(a, TensorBase) else "Tensor"
                         for a in args] + [f"{k}={type(v).__name__}" for k, v in kwargs.items()])
        raise TypeError(f"set_() received an invalid combination of arguments - got ({got}), "
                        f"but expected one of:\n{_SET_SIGNATURES}")
    return (values.get("source"), values.get("storage_offset", 0), values.get("size"),
            values.get("stride"))


def set_tensor(self, source, storage_offset: int, size, stride) -> TensorBase:
    """`Tensor.set_`: torch's checks, then the new storage and geometry (bumping the
    version, as an in-place operation does)."""
    if self.requires_grad and self.is_leaf and is_grad_enabled():
        raise RuntimeError("a leaf Variable that requires grad is being used in an in-place "
                           "operation.")
    if source is None:
        storage, size, stride, storage_offset = UntypedStorage(0, device=self._device), (0,), \
            (1,), 0
    elif isinstance(source, TensorBase):
        if source._dtype is not self._dtype:
            raise RuntimeError(f"Could not set tensor of type {_cpp_name(source)} to a tensor "
                               f"of type {_cpp_name(self)}")
        storage = source._storage
        if size is None:
            size, stride, storage_offset = source._size, source._stride, source._offset
    else:
        storage = getattr(source, "_untyped_storage", source)
        if size is None:
            size = (storage.nbytes() // self._dtype.itemsize,)
    size = tuple(size)
    stride = contiguous_strides(size) if stride is None else tuple(stride)
    needed = storage_elements(size, stride, storage_offset) * self._dtype.itemsize
    if needed > storage.nbytes():
        storage.resize_(needed)
    self._storage, self._size, self._stride, self._offset = storage, size, stride, storage_offset
    self._device = storage.device
    forget_array(self)
    self._bump_version()
    return self


def _cpp_name(t: TensorBase) -> str:
    return type_meta_name(t._dtype)
