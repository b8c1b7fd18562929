"""`TensorBase`: the data model of a tensor, a strided view over a Storage.

A tensor is `(storage, size, stride, storage_offset, dtype, device)` plus the fields
autograd needs (`requires_grad`, `grad`, `grad_fn`, the version counter, `_base`).
Strides count elements, never bytes, and are never negative. Operators live in
`aten/`; the Python face (operators, printing, conversions) lives in `_tensor.py`,
whose `Tensor` subclasses this class.

Note [Cached ndarray views]
    CPU kernels consume NumPy arrays. A tensor builds the ndarray that views its
    storage with its exact geometry the first time a kernel asks (`_np`), and keeps
    it. View operators therefore only compute metadata; a chain such as
    ``x.view(-1)[2:].t()`` builds no array at all until data is needed. A kernel's
    own output array becomes the result tensor's cached view directly. Resizing a
    storage reallocates its buffer, so `resize_` rebuilds the cache of the tensor
    that asked; other tensors over the same storage keep their old arrays, as they
    would keep a stale data pointer in ATen.

Note [Which class results have]
    Kernels create tensors, but the `Tensor` class with its Python methods is defined
    later, in `_tensor.py`. As torch's C++ core is told the Python class once at
    start-up (`THPVariableClass`), `_tensor.py` calls `set_tensor_class(Tensor)` once
    and every result is made of that class.
"""
from __future__ import annotations

import warnings

import numpy as np

from . import dispatch_key
from .device import CPU as _CPU, device as _device
from .dtype import dtype as _dtype, scalar_type_name, type_meta_name
from .layout import strided, contiguous_format, channels_last, channels_last_3d, preserve_format
from .size import Size
from .storage import UntypedStorage
from .strides import contiguous_strides, is_channels_last_strides, is_contiguous_strides

_tuple_new = tuple.__new__


class VersionCounter:
    """A counter shared by a tensor and its views, bumped by every in-place write.

    It starts at the class's 0 and holds its own value from the first bump: made with
    no `__init__` frame, as every first view of a tensor (a saved output, `t()`) makes one.
    """

    value = 0


# AutogradMeta.grad_dtype's default: the gradient has the tensor's own dtype
SAME_DTYPE = "same as the tensor"

_NON_LEAF_GRAD = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad "
    "attribute won't be populated during autograd.backward(). If you indeed want the .grad "
    "field to be populated for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. "
    "If you access the non-leaf Tensor by mistake, make sure you access the leaf Tensor "
    "instead. See github.com/pytorch/pytorch/pull/30531 for more information.")


class AutogradMeta:
    """The autograd fields of a tensor, present only once autograd concerns it.

    As in torch's TensorImpl, a tensor that neither requires grad nor came out of a
    recorded operation has none (`_autograd is None`), so the common tensor pays
    nothing for autograd.
    """

    __slots__ = ("requires_grad", "grad", "grad_fn", "retains_grad", "output_nr",
                 "grad_accumulator", "kept_accumulator", "hooks", "post_accumulate_hooks",
                 "attr_version", "fw_grad", "grad_dtype")

    def __init__(self) -> None:
        self.requires_grad = False
        self.grad = None
        self.grad_fn = None              # the Node that made this tensor (None: a leaf)
        self.retains_grad = False
        self.output_nr = 0               # which output of grad_fn this tensor is
        self.grad_accumulator = None     # weak reference to a leaf's AccumulateGrad
        self.kept_accumulator = None     # the same, held (Note [A leaf keeps its accumulator])
        self.hooks = None                # Tensor.register_hook: {id: hook}
        self.post_accumulate_hooks = None
        self.attr_version = None         # a view: the version its grad_fn describes
        self.fw_grad = None              # forward AD: the tangent at the active level
        self.grad_dtype = SAME_DTYPE     # a leaf's Tensor.grad_dtype (None: any dtype)

    def __deepcopy__(self, memo: dict) -> "AutogradMeta":
        """A copy for a deep-copied leaf: its fields copied, but no accumulator (the
        original's adds into the original)."""
        import copy                      # (deep copies are rare: not loaded at import)
        copied = AutogradMeta()
        memo[id(self)] = copied
        for name in AutogradMeta.__slots__:
            if name not in ("grad_accumulator", "kept_accumulator"):
                setattr(copied, name, copy.deepcopy(getattr(self, name), memo))
        return copied


class TensorBase:
    """Storage + geometry + dtype + device, and the autograd fields."""

    __slots__ = ("_storage_slot", "_size", "_stride", "_offset", "_dtype", "_device", "_arr",
                 "_vc", "_base", "_keys", "_autograd", "__dict__", "__weakref__")
    _creation_meta = 0      # a view: how it was made (autograd/views.py); 0 is DEFAULT

    @property
    def _storage(self) -> UntypedStorage:
        """The storage; one a kernel's result has not needed yet is made now (Note
        [Storage made on first use])."""
        storage = self._storage_slot
        if storage is None:
            storage = self._storage_slot = _storage_over(self._arr)
        return storage

    @_storage.setter
    def _storage(self, storage: UntypedStorage) -> None:
        self._storage_slot = storage

    # ----- geometry ---------------------------------------------------------------
    @property
    def shape(self) -> Size:
        return _tuple_new(Size, self._size)

    def size(self, dim=None):
        """The sizes as a `torch.Size`, or the size of one dimension."""
        if dim is None:
            return _tuple_new(Size, self._size)
        return self._size[_dim_index(self, dim, "size")]

    def stride(self, dim=None):
        """The strides, in elements, as a tuple, or the stride of one dimension."""
        if dim is None:
            return self._stride
        return self._stride[_dim_index(self, dim, "stride")]

    def storage_offset(self) -> int:
        """Where element ``[0, ..., 0]`` sits in the storage, in elements."""
        return self._offset

    def dim(self) -> int:
        return len(self._size)

    ndimension = dim

    @property
    def ndim(self) -> int:
        return len(self._size)

    def numel(self) -> int:
        count = 1
        for s in self._size:
            count *= s
        return count

    nelement = numel

    def element_size(self) -> int:
        return self._dtype.itemsize

    @property
    def itemsize(self) -> int:
        return self._dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.numel() * self._dtype.itemsize

    def is_contiguous(self, memory_format=contiguous_format) -> bool:
        """Whether the elements are laid out densely in `memory_format` order."""
        if memory_format is contiguous_format:
            return is_contiguous_strides(self._size, self._stride)
        if memory_format is channels_last:
            return len(self._size) == 4 and is_channels_last_strides(self._size, self._stride)
        if memory_format is channels_last_3d:
            return len(self._size) == 5 and is_channels_last_strides(self._size, self._stride)
        if memory_format is preserve_format:
            raise RuntimeError("is_contiguous(): preserve memory format is unsupported by "
                               "the contiguous operator")
        raise TypeError(f"is_contiguous(): argument 'memory_format' must be "
                        f"torch.memory_format, not {type(memory_format).__name__}")

    # ----- storage ----------------------------------------------------------------
    def untyped_storage(self) -> UntypedStorage:
        return self._storage

    def data_ptr(self) -> int:
        """The address of the first element (storage address + offset)."""
        if self._device.type == "meta":
            return 0
        return self._storage.data_ptr() + self._offset * self._dtype.itemsize

    @property
    def _np(self) -> np.ndarray:
        """The NumPy view of this tensor's elements (CPU only); see Note [Cached ndarray views]."""
        arr = self._arr
        if arr is None:
            arr = self._arr = _build_array(self)
        return arr

    # ----- dtype / device / layout ------------------------------------------------
    @property
    def dtype(self) -> _dtype:
        return self._dtype

    @property
    def device(self) -> _device:
        return self._device

    @property
    def layout(self):
        return strided

    @property
    def is_cpu(self) -> bool:
        return self._device.type == "cpu"

    @property
    def is_meta(self) -> bool:
        return self._device.type == "meta"

    @property
    def is_cuda(self) -> bool:
        return False

    @property
    def is_sparse(self) -> bool:
        return False

    @property
    def is_quantized(self) -> bool:
        return False

    @property
    def is_mkldnn(self) -> bool:
        return False

    @property
    def is_nested(self) -> bool:
        return False

    def is_floating_point(self) -> bool:
        return self._dtype.is_floating_point

    def is_complex(self) -> bool:
        return self._dtype.is_complex

    def is_signed(self) -> bool:
        return self._dtype.is_signed

    def get_device(self) -> int:
        return -1

    # ----- versions and views -----------------------------------------------------
    @property
    def _version(self) -> int:
        if self._keys & dispatch_key.INFERENCE:
            raise RuntimeError("Inference tensors do not track version counter.")
        vc = self._vc
        return 0 if vc is None else vc.value

    def _bump_version(self) -> None:
        self._version_counter().value += 1

    def _version_counter(self) -> VersionCounter:
        """The counter shared with this tensor's views, made when first shared or bumped.

        A fresh result has none (`_vc is None` reads as version 0): most tensors are
        never written in place nor viewed, and so never pay for one.
        """
        vc = self._vc
        if vc is None:
            vc = self._vc = VersionCounter()
        return vc

    def _is_view(self) -> bool:
        return self._base is not None

    # ----- autograd fields (the engine arrives with the autograd package) ---------
    @property
    def requires_grad(self) -> bool:
        meta = self._autograd
        return meta is not None and meta.requires_grad

    @requires_grad.setter
    def requires_grad(self, flag: bool) -> None:
        if type(flag) is not bool:
            raise TypeError(f"requires_grad must be a bool, not {type(flag).__name__}")
        if flag and self._keys & dispatch_key.INFERENCE \
                and not dispatch_key.local_keys.included & dispatch_key.INFERENCE:
            raise RuntimeError("Setting requires_grad=True on inference tensor outside "
                               "InferenceMode is not allowed.")
        if flag and not (self._dtype.is_floating_point or self._dtype.is_complex):
            raise RuntimeError("only Tensors of floating point and complex dtype can require "
                               "gradients")
        if self.grad_fn is not None and not flag:
            raise RuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use "
                "a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach().")
        self._autograd_meta().requires_grad = flag
        if flag:
            self._keys |= dispatch_key.AUTOGRAD
        else:
            self._keys &= ~dispatch_key.AUTOGRAD

    def _autograd_meta(self) -> AutogradMeta:
        """This tensor's autograd fields, created on first need."""
        meta = self._autograd
        if meta is None:
            meta = self._autograd = AutogradMeta()
        return meta

    @property
    def is_leaf(self) -> bool:
        meta = self._autograd
        return meta is None or meta.grad_fn is None

    @property
    def grad_fn(self):
        meta = self._autograd
        if meta is None:
            return None
        if self._base is not None and meta.attr_version is not None:
            return _view_grad_fn(self)       # stale after an in-place write: made anew
        return meta.grad_fn

    @property
    def grad(self):
        meta = self._autograd
        if meta is None:
            return None
        if meta.grad_fn is not None and not meta.retains_grad:
            warnings.warn(_NON_LEAF_GRAD, UserWarning, stacklevel=2)
        return meta.grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, TensorBase):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad "
                                f"of type {type(value).__name__}")
            allowed = self._grad_dtype()
            if allowed is not None and value._dtype is not allowed:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype "
                    f"'{type_meta_name(value._dtype)}' to a tensor with grad_dtype "
                    f"'{scalar_type_name(allowed)}'. The gradient must match the tensor's "
                    f"grad_dtype (defaults to the tensor's dtype). You can set the tensor's "
                    f"grad_dtype attribute with a specific dtype, or None to allow any dtype. "
                    f"Set grad_dtype with caution. Diverging the dtypes of a tensor and its "
                    f"gradient may break downstream systems that assume they match.")
            if value._size != self._size:
                raise RuntimeError("assigned grad has data of a different size")
        meta = self._autograd               # (an optimizer's `p.grad = None`: no frame)
        if meta is None:
            meta = self._autograd_meta()
        meta.grad = value

    @grad.deleter
    def grad(self) -> None:
        if self._autograd is not None:
            self._autograd.grad = None

    def _grad_dtype(self):
        """The dtype a gradient of this leaf must have (None: any), as `grad_dtype`."""
        meta = self._autograd
        if meta is None or meta.grad_dtype is SAME_DTYPE:
            return self._dtype
        return meta.grad_dtype

    @property
    def grad_dtype(self):
        """The dtype `.grad` must have: the tensor's own unless set (None: any dtype).
        Gradients arriving in backward are cast to it. Leaf tensors only."""
        if self.grad_fn is not None:
            raise RuntimeError("grad_dtype can only be accessed on leaf tensors.")
        return self._grad_dtype()

    @grad_dtype.setter
    def grad_dtype(self, value) -> None:
        if self.grad_fn is not None:
            raise RuntimeError("grad_dtype can only be set on leaf tensors.")
        if value is not None and not isinstance(value, _dtype):
            raise RuntimeError(f"grad_dtype must be a torch.dtype or None, but got "
                               f"{type(value).__name__}")
        meta = self._autograd_meta()
        if meta.grad is not None and value is not None and meta.grad._dtype is not value:
            raise RuntimeError(
                f"Cannot set grad_dtype to '{scalar_type_name(value)}' because there is "
                f"already a gradient with dtype '{type_meta_name(meta.grad._dtype)}'. Please "
                f"clear the gradient (.grad = None) before changing grad_dtype, or ensure the "
                f"new grad_dtype matches the existing gradient's dtype.")
        meta.grad_dtype = value
        accumulator = meta.grad_accumulator() if meta.grad_accumulator is not None else None
        if accumulator is not None:          # what backward casts arriving gradients to
            accumulator._input_metadata[0] = accumulator._input_metadata[0].with_dtype(value)

    @property
    def retains_grad(self) -> bool:
        meta = self._autograd
        return meta is not None and meta.retains_grad

    @property
    def _cdata(self) -> int:
        return id(self)


def _view_grad_fn(view):
    """Set by the autograd package (autograd/views.py): a view's current grad_fn."""
    return view._autograd.grad_fn


def set_view_grad_fn(function) -> None:
    """Install autograd's rule for a view's grad_fn (c10 does not know autograd)."""
    global _view_grad_fn
    _view_grad_fn = function


def set_tensor_class(cls: type) -> None:
    """Tell the core which Python class results are made of; see Note [Which class results have]."""
    global _TensorClass
    _TensorClass = cls


_TensorClass = TensorBase


def tensor_class() -> type:
    """The Python class results are made of; see Note [Which class results have]."""
    return _TensorClass


def make_tensor(storage: UntypedStorage, size: tuple, stride: tuple, offset: int,
                dtype: _dtype, arr=None, cls=None) -> TensorBase:
    """Create a tensor over `storage` with the given geometry (no copy, no checks).

    Args:
        storage: the storage to view.
        size, stride, offset: the geometry, in elements.
        dtype: the element type.
        arr: the ndarray that already views exactly this geometry, if the caller has one.
        cls: the class of the result; the registered Tensor class by default.
    """
    t = object.__new__(cls or _TensorClass)
    t._storage_slot = storage
    t._size = size
    t._stride = stride
    t._offset = offset
    t._dtype = dtype
    dev = storage.device
    t._device = dev
    t._arr = arr
    t._vc = None
    t._base = None
    t._keys = dispatch_key.KEYS_BY_DEVICE_TYPE[dev.type]
    t._autograd = None
    return t


# the keys a view does not take from its source (it records, or carries a tangent, anew)
_NOT_RECORDING = ~(dispatch_key.AUTOGRAD | dispatch_key.FORWARD_AD)
_BATCHED = dispatch_key.BATCHED


def make_view(self: TensorBase, geometry: tuple, base) -> TensorBase:
    """A tensor over `self`'s storage with `geometry` = (size, stride, offset[, dtype]).

    It shares `self`'s version counter; `base` (the tensor it is a view of, or None
    for an alias that is not a view, like `detach`) becomes its `_base`.
    """
    t = object.__new__(_TensorClass)
    storage = self._storage_slot
    if storage is None:                    # (the `_storage` property, without its frame)
        storage = self._storage_slot = _storage_over(self._arr)
    t._storage_slot = storage
    t._size = geometry[0]
    t._stride = geometry[1]
    t._offset = geometry[2]
    t._dtype = geometry[3] if len(geometry) == 4 else self._dtype
    t._device = self._device
    t._arr = None
    vc = self._vc
    if vc is None:
        vc = self._vc = VersionCounter()
    t._vc = vc
    t._base = base
    keys = t._keys = self._keys & _NOT_RECORDING
    t._autograd = None
    if keys & _BATCHED:                    # a vmap's batched tensor: its alias is one too
        return _batched_alias(self, t)
    return t


def _batched_alias(source: TensorBase, alias: TensorBase) -> TensorBase:
    raise RuntimeError("a batched tensor exists only while torch.func is loaded")


def set_batched_alias(function) -> None:
    """Install functorch's rule for `make_view` of a batched tensor (c10 does not know
    vmap): ``function(source, alias)`` returns the batched alias to use instead."""
    global _batched_alias
    _batched_alias = function


def wrap_array(arr: np.ndarray, dtype: _dtype, strides: tuple | None = None) -> TensorBase:
    """A CPU tensor owning the memory of a C-contiguous kernel output `arr`.

    This is how every CPU result is born, so it is written out flat: one tensor whose
    cached ndarray is `arr` itself, its storage over `arr`'s memory made when first
    asked for (Note [Storage made on first use]). A caller that has the row-major
    `strides` of `arr`'s shape at hand passes them.
    """
    shape = arr.shape
    t = object.__new__(_TensorClass)
    t._storage_slot = None
    t._size = shape
    t._stride = strides if strides is not None else contiguous_strides(shape)
    t._offset = 0
    t._dtype = dtype
    t._device = _CPU
    t._arr = arr
    t._vc = None
    t._base = None
    t._keys = dispatch_key.CPU_KEYS
    t._autograd = None
    return t


def _storage_over(arr: np.ndarray) -> UntypedStorage:
    """The CPU storage of a C-contiguous array a kernel wrote: its bytes are `arr`'s."""
    storage = object.__new__(UntypedStorage)
    storage.device = _CPU
    storage._nbytes = arr.nbytes
    storage._owner = arr
    storage._bytes = None
    return storage


def forget_array(t: TensorBase) -> None:
    """Drop `t`'s cached ndarray after its geometry changed; its storage is made first
    when it has none yet, since the array is what that storage would be made from."""
    if t._storage_slot is None:
        t._storage_slot = _storage_over(t._arr)
    t._arr = None


def share_storage(a: TensorBase, b: TensorBase) -> bool:
    """Whether `a` and `b` are over one storage, without making either's storage: one
    never made shares its memory with no other tensor (Note [Storage made on first use])."""
    storage = a._storage_slot
    return a is b or (storage is not None and storage is b._storage_slot)


# Note [Storage made on first use]
# A tensor is storage plus geometry, and a storage is an object of its own: two views
# share it, `untyped_storage()` returns it, overlap checks compare it by identity. But
# most results of a kernel are used as values and dropped, and never asked for their
# storage, so `wrap_array` leaves `_storage_slot` empty: the result's cached ndarray
# (`_arr`, the kernel's output) holds the memory, and the `_storage` property makes the
# storage over it on first request (a view, `data_ptr`, `untyped_storage`). The rules
# this asks of the code: the cached ndarray is dropped only through `forget_array`, which
# makes the storage first, and a check whether two tensors share memory asks
# `share_storage`, which needs no storage made.


def _build_array(t: TensorBase) -> np.ndarray:
    if t._device.type != "cpu":
        raise NotImplementedError(
            f"Cannot access data of a tensor on the '{t._device.type}' device: it holds no data.")
    np_dtype = t._dtype._np
    size = t._size
    if 0 in size:
        return np.empty(size, np_dtype)
    itemsize = np_dtype.itemsize      # no cached array: the storage exists (Note [Storage...])
    return np.ndarray(size, np_dtype, t._storage_slot._data, t._offset * itemsize,
                      tuple([st * itemsize for st in t._stride]))


def _dim_index(t: TensorBase, dim, name: str) -> int:
    """Wrap `dim` for `size(dim)` / `stride(dim)`, with torch's errors."""
    if isinstance(dim, bool) or not hasattr(dim, "__index__"):
        raise TypeError(f"{name}(): argument 'dim' (position 1) must be int, not "
                        f"{type(dim).__name__}")
    dim = dim.__index__()
    ndim = len(t._size)
    if ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    if dim < -ndim or dim >= ndim:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-ndim}, "
                         f"{ndim - 1}], but got {dim})")
    return dim + ndim if dim < 0 else dim
