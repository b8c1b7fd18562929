"""`Parameter` and `Buffer`: tensors a Module registers when they are assigned to it.

A Parameter is a Tensor subclass that shares its data's storage (no copy) and requires
grad by default; results of operations on it are plain Tensors, as kernels make every
result of the registered Tensor class (Note [Which class results have]). A Buffer is
not a subclass at all: like torch's, ``Buffer(t)`` returns a detached plain tensor marked
with ``_is_buffer`` (and ``persistent``), and ``isinstance(x, Buffer)`` reads that mark.
UninitializedParameter and UninitializedBuffer are the placeholders of lazy modules
(nn/modules/lazy.py) until their first forward gives them a shape.
"""
from __future__ import annotations

from collections import OrderedDict

from .._tensor import Tensor
from ..c10.dispatch_key import AUTOGRAD
from ..c10.tensor_impl import TensorBase, make_tensor

__all__ = ["Parameter", "UninitializedParameter", "is_lazy", "Buffer", "UninitializedBuffer",
           "UninitializedTensorMixin"]


def _make_subclass(cls: type, data: TensorBase, requires_grad: bool) -> Tensor:
    """An instance of `cls` aliasing `data` as a new leaf: same storage, geometry and
    version counter, so in-place writes through either are seen by both (torch's
    ``Tensor._make_subclass``: ``data.detach()`` with another class)."""
    if requires_grad and not (data.dtype.is_floating_point or data.dtype.is_complex):
        raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                           "gradients")        # capitalised here, unlike requires_grad_'s
    result = make_tensor(data._storage, data._size, data._stride, data._offset, data._dtype,
                         data._arr, cls)
    result._vc = data._version_counter()
    result._keys = data._keys & ~AUTOGRAD
    result.requires_grad = requires_grad
    return result


class _ParameterMeta(type):
    # Tensors marked `_is_param` (torch's escape hatch for tensor subclasses that cannot
    # be wrapped) count as Parameters too.
    def __instancecheck__(cls, instance) -> bool:
        if cls is Parameter and isinstance(instance, TensorBase) \
                and getattr(instance, "_is_param", False):
            return True
        return super().__instancecheck__(instance)


class Parameter(Tensor, metaclass=_ParameterMeta):
    """A tensor that a Module registers as one of its parameters when it is assigned
    as an attribute (``self.weight = nn.Parameter(...)``), so that it shows up in
    `Module.parameters()` and in the state dict. Plain tensors assigned to a module
    are ordinary attributes.

    Args:
        data (Tensor): the values; the parameter shares their storage. An empty
            tensor when omitted.
        requires_grad (bool, optional): whether the parameter requires gradient, even
            under `torch.no_grad()`. Default: ``True``

    Example::

        >>> p = nn.Parameter(torch.zeros(2))
        >>> p
        Parameter containing:
        tensor([0., 0.], requires_grad=True)
    """

    __slots__ = ()
    _prints_as_tensor = True        # "tensor(...)" after the header, as torch prints it

    def __new__(cls, data=None, requires_grad: bool = True):
        if data is None:
            from .. import empty
            data = empty(0)
        return _make_subclass(cls, data, requires_grad)

    def __deepcopy__(self, memo: dict) -> Parameter:
        if id(self) in memo:
            return memo[id(self)]
        result = type(self)(self.data.clone(), self.requires_grad)
        memo[id(self)] = result
        return result

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    def __reduce_ex__(self, protocol):
        return _rebuild_parameter, (self.data, self.requires_grad, OrderedDict())


def _rebuild_parameter(data: Tensor, requires_grad: bool, backward_hooks: OrderedDict) -> Parameter:
    """Unpickle a Parameter (torch._utils._rebuild_parameter)."""
    return Parameter(data, requires_grad)


class _BufferMeta(type):
    # `Buffer(t)` returns a marked plain tensor, so the check reads the mark.
    def __instancecheck__(cls, instance) -> bool:
        if cls is Buffer and isinstance(instance, TensorBase) \
                and getattr(instance, "_is_buffer", False):
            return True
        return super().__instancecheck__(instance)


class Buffer(Tensor, metaclass=_BufferMeta):
    """Marks a tensor as a buffer: assigned to a Module attribute, it is registered
    with `Module.register_buffer` (state that is not a parameter, such as running
    statistics).

    Args:
        data (Tensor): the buffer's values (detached, storage shared). Empty if omitted.
        persistent (bool, optional): whether the buffer goes into the module's
            `state_dict`. Default: ``True``

    Example::

        >>> m = nn.Module()
        >>> m.count = nn.Buffer(torch.zeros(()))
        >>> list(m.named_buffers())
        [('count', tensor(0.))]
    """

    __slots__ = ()

    def __new__(cls, data=None, *, persistent: bool = True):
        if data is None:
            from .. import empty
            data = empty(0)
        result = data.detach().requires_grad_(data.requires_grad)
        result.persistent = persistent
        result._is_buffer = True
        return result


# ----- uninitialized (lazy) parameters and buffers ------------------------------------------
class UninitializedTensorMixin:
    """What UninitializedParameter and UninitializedBuffer share: no shape until
    `materialize` gives one (a lazy module's first forward does), then the object
    becomes an ordinary Parameter / Tensor (`cls_to_become`) in place.

    torch also refuses every operator but a few conversions on them (through
    ``__torch_function__``, which glasstorch does not have): here operators see the
    empty placeholder; `shape` raises torch's error, as do pickling and sharing.
    """

    __slots__ = ()
    cls_to_become: type = Tensor

    def materialize(self, shape, device=None, dtype=None) -> None:
        """Give the tensor uninitialised data of `shape` (on this tensor's device and
        dtype unless told otherwise); it then becomes a `cls_to_become` in place.

        Args:
            shape (tuple): the shape of the data.
            device (torch.device, optional): where the data lives.
            dtype (torch.dtype, optional): the data's dtype.
        """
        from .. import empty
        device = self.data.device if device is None else device
        dtype = self.data.dtype if dtype is None else dtype
        self.data = empty(shape, device=device, dtype=dtype)
        self.__class__ = self.cls_to_become

    @property
    def shape(self):
        raise RuntimeError(
            "Can't access the shape of an uninitialized parameter or buffer. This error usually "
            "happens in `load_state_dict` when trying to load an uninitialized parameter into an "
            "initialized one. Call `forward` to initialize the parameters before accessing their "
            "attributes.")

    def share_memory_(self):
        raise RuntimeError(
            "Can't share memory on an uninitialized parameter or buffer. Call `forward` to "
            "initialize the parameters before calling `module.share_memory()`.")

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"

    def __reduce_ex__(self, protocol):
        return type(self), (self.requires_grad,)


def is_lazy(param) -> bool:
    """Whether `param` is an UninitializedParameter or UninitializedBuffer."""
    return isinstance(param, UninitializedTensorMixin)


class UninitializedParameter(UninitializedTensorMixin, Parameter):
    """A Parameter whose shape is not known yet (a lazy module's); it becomes a
    `Parameter` when materialized.

    Args:
        requires_grad (bool, optional): Default: ``True``
        device (torch.device, optional): the device of the data to come.
        dtype (torch.dtype, optional): the dtype of the data to come.
    """

    __slots__ = ()
    cls_to_become = Parameter

    def __new__(cls, requires_grad: bool = True, device=None, dtype=None):
        from .. import empty
        return _make_subclass(cls, empty(0, device=device, dtype=dtype), requires_grad)

    def __deepcopy__(self, memo: dict) -> UninitializedParameter:
        if id(self) not in memo:
            memo[id(self)] = type(self)(self.requires_grad, self.data.device, self.data.dtype)
        return memo[id(self)]


class UninitializedBuffer(UninitializedTensorMixin, Tensor):
    """A buffer whose shape is not known yet; it becomes a plain Tensor when
    materialized.

    Args:
        requires_grad (bool, optional): Default: ``False``
        device (torch.device, optional): the device of the data to come.
        dtype (torch.dtype, optional): the dtype of the data to come.
        persistent (bool, optional): whether it goes into the state dict. Default: ``True``
    """

    __slots__ = ()
    cls_to_become = Tensor

    def __new__(cls, requires_grad: bool = False, device=None, dtype=None,
                persistent: bool = True):
        from .. import empty
        result = _make_subclass(cls, empty(0, device=device, dtype=dtype), requires_grad)
        result.persistent = persistent
        result._is_buffer = True
        return result
