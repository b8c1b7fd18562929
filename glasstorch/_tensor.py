"""`Tensor`: the Python face of the strided tensor.

Operators reach this class as generated methods (`aten/binding.py` installs one per
declared method). What is written here by hand is the Python protocol: indexing,
conversion to Python numbers and NumPy, `len` / `iter` / `bool`, the properties
that are spelled as attributes (`T`, `mT`, `data`), dtype-conversion shorthands
and printing.
"""
from __future__ import annotations

import functools

import importlib

import numpy as np

from . import _indexing, _python_ops, autograd
from ._tensor_device import TensorDeviceMixin
from ._dlpack import TensorDLPack
from ._tensor_legacy import TensorLegacy
from ._tensor_memory import TensorMemory
from ._tensor_queries import TensorQueries
from ._tensor_views import TensorViews
from .aten import binding, native, ops
from .aten.math_bits import materialise, refuse_numpy
from .c10.dispatch_key import AUTOGRAD, INFERENCE, local_keys
from .c10.dtype import COMPLEX32_PAIR, TENSOR_SHORTHANDS, pairs_to_complex64, scalar_type_name
from .c10.tensor_impl import TensorBase, set_tensor_class

_aten = ops.aten


@functools.cache
def _default(name: str):
    """``torch.ops.aten.<name>.default``, found once (a cache hit is a C call; the
    namespace's look-up runs two Python frames, paid by every `x.T`)."""
    return getattr(_aten, name).default


def _tensor_new():
    """`_tensor_new.py`, the constructors from Python data, imported on first use."""
    return importlib.import_module("glasstorch._tensor_new")


# `_tensor_new.py`'s legacy constructor (`torch.Tensor(...)`) and NumPy arrays taken as
# tensors, loaded on first use
_legacy_new = native.first_use(globals(), "_legacy_new", lambda: _tensor_new().legacy_new)
_from_numpy = native.first_use(globals(), "_from_numpy", lambda: _tensor_new().from_numpy)


class _FamilyMethod:
    """A method written in a family file, found on first access with its family (Note
    [Families load on first use]), then put in its own place on the class. `entry` names
    it in a table of methods the family defines (the dtype shorthands)."""

    def __init__(self, family: str, name: str, entry: str | None = None) -> None:
        self.family = family
        self.name = name
        self.entry = entry

    def __set_name__(self, owner: type, attribute: str) -> None:
        self.owner = owner
        self.attribute = attribute

    def __get__(self, obj, cls=None):
        function = self._find()
        setattr(self.owner, self.attribute, function)
        return function if obj is None else function.__get__(obj, cls)

    def _find(self):
        function = native.member(self.family, self.name)
        return function if self.entry is None else function[self.entry]


class _FaceMethod(_FamilyMethod):
    """A method written in a module of the face that `import glasstorch` leaves for first
    use (`Tensor.new`, in `_tensor_new.py`), found as a family method is."""

    def _find(self):
        return getattr(importlib.import_module(f"glasstorch.{self.family}"), self.name)


class Tensor(TensorViews, TensorQueries, TensorLegacy, TensorMemory, TensorDLPack,
             TensorDeviceMixin, TensorBase):
    """A multi-dimensional array of one dtype on one device, with autograd fields.

    Create tensors with factories (`torch.tensor`, `torch.zeros`, ...), not with this
    class; ``torch.Tensor(2, 3)`` is the legacy uninitialised-float constructor.
    """

    __slots__ = ()

    def __new__(cls, *args, **kwargs):
        return _legacy_new(cls, args, kwargs)

    # ----- indexing ---------------------------------------------------------------
    __getitem__ = _indexing.getitem
    __setitem__ = _indexing.setitem
    nonzero = _FamilyMethod("indexing.masked", "nonzero_method")   # takes the Python-only as_tuple=
    unique = _FamilyMethod("sorting.unique", "unique")            # Python functions in torch too
    unique_consecutive = _FamilyMethod("sorting.unique", "unique_consecutive")
    norm = _FamilyMethod("reduction.norms", "tensor_norm")     # torch.norm's routing, Python in torch
    lu = _FamilyMethod("linalg.lu_decomposition", "lu_method")    # torch.lu, Python in torch
    eig = _FamilyMethod("linalg.removed", "eig")                # removed in 1.9: they raise
    lstsq = _FamilyMethod("linalg.removed", "lstsq")
    solve = _FamilyMethod("linalg.removed", "solve")
    symeig = _FamilyMethod("linalg.removed", "symeig")

    # ----- Python protocol --------------------------------------------------------
    def __len__(self) -> int:
        if not self._size:
            raise TypeError("len() of a 0-d tensor")
        return self._size[0]

    def __iter__(self):
        if not self._size:
            raise TypeError("iteration over a 0-d tensor")
        return iter(self.unbind(0))

    def __hash__(self) -> int:
        return id(self)

    def __bool__(self) -> bool:
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with more than one value is ambiguous"
                               if self.numel() > 1 else
                               "Boolean value of Tensor with no values is ambiguous")
        return bool(self.item())

    def __float__(self) -> float:
        value = self._scalar()
        if isinstance(value, complex):
            value = native.member("creation.conversion", "real_part")(value, "double")
        return float(value)

    def __int__(self) -> int:
        value = self._scalar()
        if isinstance(value, complex):
            value = native.member("creation.conversion", "real_part")(value, "int64_t")
        return int(value)

    def __complex__(self) -> complex:
        return complex(self._scalar())

    def __index__(self) -> int:
        if self._dtype.is_floating_point or self._dtype.is_complex or self.numel() != 1:
            raise TypeError("only integer tensors of a single element can be converted to an "
                            "index")
        return int(self.item())

    def _scalar(self):
        if self.numel() != 1:
            raise ValueError("only one element tensors can be converted to Python scalars")
        return self.item()

    def item(self):
        """The single element of this tensor as a Python number.

        bool tensors give a bool, integer tensors an int, floating tensors (float16
        and bfloat16 included) a float, complex tensors a complex.

        Example::

            >>> torch.tensor([2.5]).item()
            2.5
        """
        return _default("_local_scalar_dense").call(self)

    def tolist(self):
        """The elements as nested Python lists of Python numbers; a 0-d tensor gives a number.

        Example::

            >>> torch.tensor([[1, 2], [3, 4]]).tolist()
            [[1, 2], [3, 4]]
        """
        if self._device.type == "meta":
            raise NotImplementedError("Cannot copy out of meta tensor; no data!")
        arr = materialise(self)._np             # lazy conjugates give their values
        if arr.dtype == COMPLEX32_PAIR:         # Note [complex32 as float16 pairs]
            arr = pairs_to_complex64(arr)
        elif arr.dtype.kind not in "biufc":     # bfloat16 / float8 hold ml_dtypes scalars
            arr = arr.astype(np.float64)
        return arr.tolist()

    # ----- conversions (aten/native/creation/conversion.py) and construction (_tensor_new.py) --
    to = _FamilyMethod("creation.conversion", "tensor_to")
    type = _FamilyMethod("creation.conversion", "tensor_type")
    cpu = _FamilyMethod("creation.conversion", "tensor_cpu")
    new = _FaceMethod("_tensor_new", "tensor_new")
    new_tensor = _FaceMethod("_tensor_new", "new_tensor")

    # ----- NumPy interop ----------------------------------------------------------
    __array_priority__ = 1000       # NumPy defers `ndarray + tensor` to the tensor

    def numpy(self, *args, force: bool = False) -> np.ndarray:
        """The NumPy array sharing this tensor's memory.

        Args:
            force: also convert tensors that require grad or live on another device
                (through ``detach().cpu()``, which shares memory on the CPU).

        Raises:
            TypeError: for tensors not on the CPU, or dtypes NumPy lacks (bfloat16,
                float8).
            RuntimeError: if the tensor requires grad (and grad mode is on).

        Example::

            >>> t = torch.zeros(2); a = t.numpy(); a[0] = 5; t
            tensor([5., 0.])
        """
        if args:
            native.member("creation.conversion", "no_positional")("numpy", args)
        if not force:
            if self._device.type != "cpu":
                raise TypeError(f"can't convert {self._device.type} device type tensor to "
                                "numpy. Use Tensor.cpu() to copy the tensor to host memory "
                                "first.")
            if self.requires_grad and not local_keys.excluded & AUTOGRAD:
                raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use "
                                   "tensor.detach().numpy() instead.")
            refuse_numpy(self)
        prepared = self.detach().cpu() if force else self
        if force:       # a copy then: the values, resolved
            prepared = materialise(prepared)
        if prepared._dtype._np.kind not in "biufc":
            raise TypeError(f"Got unsupported ScalarType {scalar_type_name(self._dtype)}")
        return prepared._np

    def __array__(self, dtype=None):
        # torch's __array__ takes no `copy` argument; NumPy 2 warns about that, as with torch
        array = self.numpy()
        return array if dtype is None else array.astype(dtype, copy=False)

    def __array_wrap__(self, array, context=None, return_scalar=False):
        # NumPy ufuncs over tensors (``np.sin(t)``, ``t + ndarray``) give tensors back;
        # bool results become uint8, as torch's wrapper makes them.
        if array.dtype == np.bool_:
            array = array.astype(np.uint8)
        return _from_numpy(array)

    # ----- properties spelled as attributes ----------------------------------------
    @property
    def T(self):
        """All dims reversed (``x.permute(n-1, ..., 0)``); deprecated by torch unless 2-D."""
        return _default("numpy_T").call(self)

    @property
    def mT(self):
        """The last two dims swapped: a batch of matrices transposed."""
        return _default("mT").call(self)

    @property
    def H(self):
        """The conjugate transpose of a matrix (2-D tensor)."""
        return _default("matrix_H").call(self)

    @property
    def mH(self):
        """The last two dims swapped and conjugated: a batch of matrices' adjoints."""
        return _default("mH").call(self)

    @property
    def real(self):
        """The real parts as a view for complex tensors; `self` for real ones.

        Assigning to it writes those elements: ``z.real = torch.zeros(3)``.
        """
        return _default("real").call(self)

    @real.setter
    def real(self, value) -> None:
        _assign(_default("real").call(self), value)

    @property
    def imag(self):
        """The imaginary parts of a complex tensor, as a view (real tensors raise)."""
        return _default("imag").call(self)

    @imag.setter
    def imag(self, value) -> None:
        _assign(_default("imag").call(self), value)

    @property
    def data(self):
        """A tensor sharing this one's storage, outside autograd, with its own version counter."""
        result = self.detach()
        result._vc = None                   # a counter of its own, made on first use
        return result

    @data.setter
    def data(self, other) -> None:
        if not isinstance(other, TensorBase):
            raise TypeError(f"Variable data has to be a tensor, but got {type(other).__name__}")
        self._storage = other._storage
        self._size = other._size
        self._stride = other._stride
        self._offset = other._offset
        self._dtype = other._dtype
        self._device = other._device
        self._arr = other._arr
        self._keys = (other._keys & ~AUTOGRAD) | (self._keys & AUTOGRAD)

    def requires_grad_(self, requires_grad: bool = True):
        """Set `requires_grad` in place and return `self`."""
        if requires_grad and not (self._dtype.is_floating_point or self._dtype.is_complex):
            # torch's wording here, unlike the attribute's, leaves complex out
            raise RuntimeError("only Tensors of floating point dtype can require gradients")
        self.requires_grad = requires_grad
        return self

    # ----- autograd (glasstorch/autograd/) -------------------------------------------
    def backward(self, gradient=None, retain_graph=None, create_graph: bool = False,
                 inputs=None) -> None:
        """Accumulate the gradient of this tensor into the leaves' `.grad`.

        Args:
            gradient (Tensor, optional): the gradient of this tensor (1 for a scalar).
            retain_graph (bool, optional): keep the graph for another backward.
            create_graph (bool): record backward itself, for higher-order derivatives.
            inputs (sequence of Tensor, optional): accumulate only into these.

        Example::

            >>> x = torch.tensor([1., 2.], requires_grad=True)
            >>> (x * x).sum().backward()
            >>> x.grad
            tensor([2., 4.])
        """
        autograd.backward(self, gradient, retain_graph, create_graph, inputs=inputs)

    def register_hook(self, hook):
        """Call `hook(grad)` with this tensor's gradient each time it is computed; a
        returned tensor replaces the gradient. Returns a handle with `remove()`."""
        from .autograd.graph import register_tensor_hook
        return register_tensor_hook(self, hook)

    def register_post_accumulate_grad_hook(self, hook):
        """Call `hook(tensor)` after a gradient was accumulated into this leaf's `.grad`."""
        from .autograd.graph import RemovableHandle, next_hook_id
        if not self.is_leaf:
            raise RuntimeError("post accumulate grad hooks cannot be registered on non-leaf "
                               "tensors")
        meta = self._autograd_meta()
        if meta.post_accumulate_hooks is None:
            meta.post_accumulate_hooks = {}
        key = next_hook_id()
        meta.post_accumulate_hooks[key] = hook
        return RemovableHandle(meta.post_accumulate_hooks, key)

    def is_inference(self) -> bool:
        """Whether this tensor was made in inference mode (see `torch.inference_mode`)."""
        return bool(self._keys & INFERENCE)

    def detach_(self):
        """Detach this tensor from the graph in place: it becomes a leaf that does not
        require grad. Views cannot (their history is their base's)."""
        meta = self._autograd
        if meta is None:
            return self
        if self._base is not None and meta.requires_grad:
            raise RuntimeError(
                "Can't detach views in-place. Use detach() instead. If you are using "
                "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is "
                "set as True, gradients are views of DDP buckets, and hence detach_() cannot "
                "be called on these gradients. To fix this error, please refer to the "
                "Optimizer.zero_grad() function in torch/optim/optimizer.py as the solution.")
        meta.grad_fn = None
        meta.requires_grad = False
        self._keys &= ~AUTOGRAD
        return self

    def retain_grad(self) -> None:
        """Keep this non-leaf tensor's gradient in `.grad` during backward."""
        from .autograd.graph import retain_grad
        retain_grad(self)

    # ----- printing ---------------------------------------------------------------
    def __repr__(self, *, tensor_contents=None) -> str:
        from ._tensor_str import tensor_repr
        return tensor_repr(self, tensor_contents=tensor_contents)

    def __format__(self, spec: str) -> str:
        if self.dim() == 0 and self._device.type != "meta":
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __dir__(self):
        return sorted(set(object.__dir__(self)) | set(binding.names("method")))


def _assign(target: Tensor, value) -> None:
    """``target[...] = value``: copy a tensor (broadcast) or fill a number."""
    if isinstance(value, TensorBase):
        target.copy_(value)
    else:
        target.fill_(value)


def _install_method(kind: str, name: str) -> None:
    if kind == "method" and name not in _HAND_WRITTEN:
        setattr(Tensor, name, binding.LazyMethod(Tensor, name))


for _name in TENSOR_SHORTHANDS:     # x.float(), x.long(), ...
    _shorthand = _FamilyMethod("creation.conversion", "SHORTHANDS", _name)
    _shorthand.__set_name__(Tensor, _name)
    setattr(Tensor, _name, _shorthand)
_HAND_WRITTEN = {name for cls in Tensor.__mro__[:-2] for name in vars(cls)}   # mixins too
_python_ops.install(Tensor)
set_tensor_class(Tensor)
binding.add_sink(_install_method)
