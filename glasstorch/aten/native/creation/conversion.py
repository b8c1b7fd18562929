"""Conversions between dtypes and devices: `_to_copy`, the `to` overloads, `Tensor.type`.

`_to_copy` is the operator that converts: a new tensor (`empty_strided` laid out as
the memory format asks) filled by `copy_`. The four `to` overloads of ATen decide
only whether a conversion is needed at all: when dtype, device and memory format
already match and no copy is asked for, `to` returns `self` itself.

`Tensor.to`, `Tensor.type` and the shorthands (`float()`, `long()`, `cpu()`, ...)
are Python-level methods in torch, parsed by hand rather than from a schema; they
are defined here as plain functions and installed on `Tensor` by `_tensor.py`.
"""
from __future__ import annotations

from ....c10 import dtype as dtypes
from ....c10.device import CPU, NO_ATEN_CUDA, as_device, check_copy_target, device as Device
from ....c10.dtype import scalar_type_name
from ....c10.layout import (layout as Layout, memory_format as MemoryFormat, preserve_format,
                           strided)
from ....c10.tensor_impl import TensorBase
from ...derivatives import derivative_helper
from ...registry import composite
from ..shape.view import legacy_type_name
from .copy import copy_, strides_like, suggest_memory_format
from .factory import check_options, empty_strided


@derivative_helper
def to_copy_backward(grad, self_dtype):
    """The gradient of a conversion, converted back to the input's dtype (a complex
    gradient of a real input keeps its real part). Done here, not left to the engine:
    a leaf whose `grad_dtype` is None takes whatever dtype arrives."""
    if grad._dtype.is_complex and not self_dtype.is_complex:
        grad = grad.real
    return grad if grad._dtype is self_dtype else grad.to(self_dtype)


@composite("_to_copy(Tensor self, *, ScalarType? dtype=None, Layout? layout=None, "
           "Device? device=None, bool? pin_memory=None, bool non_blocking=False, "
           "MemoryFormat? memory_format=None) -> Tensor", function=False,
           grad={"self": "to_copy_backward(grad, self_scalar_type)"})
def to_copy(self, dtype=None, layout=None, device=None, pin_memory=None, non_blocking=False,
            memory_format=None):
    """A copy of `self` converted to the given dtype / device / memory format."""
    if layout is not None and layout is not strided:
        raise RuntimeError(f"to(options) doesn't support converting to a different layout, "
                           f"but got self.layout being Strided and options.layout set as "
                           f"{_LAYOUT_NAMES.get(layout._name, layout._name)}")
    check_options(None, pin_memory, dtype)
    target = device if device is not None else self._device
    result = empty_strided.call(self._size, strides_like(self, memory_format),
                                dtype or self._dtype, None, target, None)
    return copy_.call(result, self, non_blocking)


_LAYOUT_NAMES = {"sparse_coo": "Sparse", "sparse_csr": "SparseCsr", "sparse_csc": "SparseCsc",
                 "sparse_bsr": "SparseBsr", "sparse_bsc": "SparseBsc", "_mkldnn": "Mkldnn",
                 "jagged": "Jagged"}


def _to(self, dtype, layout, device, pin_memory, non_blocking, copy, memory_format):
    """`self` when nothing would change (and no copy is asked for), else `_to_copy`."""
    if (not copy and (dtype is None or dtype is self._dtype)
            and (layout is None or layout is self.layout)
            and (device is None or device == self._device)
            and (memory_format is None or memory_format is preserve_format
                 or memory_format is suggest_memory_format(self))):
        return self
    return to_copy.call(self, dtype, layout, device, pin_memory, non_blocking, memory_format)


@composite("to.dtype_layout(Tensor(a) self, *, ScalarType? dtype=None, Layout? layout=None, "
           "Device? device=None, bool? pin_memory=None, bool non_blocking=False, "
           "bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", function=False)
def to_dtype_layout(self, dtype=None, layout=None, device=None, pin_memory=None,
                    non_blocking=False, copy=False, memory_format=None):
    """`self` converted to the given options (returned as is when they already match)."""
    return _to(self, dtype, layout, device, pin_memory, non_blocking, copy, memory_format)


@composite("to.device(Tensor(a) self, Device device, ScalarType dtype, bool non_blocking=False, "
           "bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", function=False)
def to_device(self, device, dtype, non_blocking=False, copy=False, memory_format=None):
    """`self` on `device` with `dtype`."""
    return _to(self, dtype, None, device, None, non_blocking, copy, memory_format)


@composite("to.dtype(Tensor(a) self, ScalarType dtype, bool non_blocking=False, "
           "bool copy=False, MemoryFormat? memory_format=None) -> Tensor(a)", function=False)
def to_dtype(self, dtype, non_blocking=False, copy=False, memory_format=None):
    """`self` with `dtype`."""
    return _to(self, dtype, None, None, None, non_blocking, copy, memory_format)


@composite("to.other(Tensor(a) self, Tensor other, bool non_blocking=False, bool copy=False, "
           "MemoryFormat? memory_format=None) -> Tensor(a)", function=False)
def to_other(self, other, non_blocking=False, copy=False, memory_format=None):
    """`self` with the dtype and device of `other`."""
    return _to(self, other._dtype, None, other._device, None, non_blocking, copy,
               memory_format)


@composite("type_as(Tensor self, Tensor other) -> Tensor", method=True, function=False)
def type_as(self, other):
    """`self` converted to the dtype (and device) of `other`; `self` if they match.

    Example::

        >>> torch.ones(2).type_as(torch.zeros(1, dtype=torch.int64)).dtype
        torch.int64
    """
    return _to(self, other._dtype, None, other._device, None, False, False, None)


# ----------------------------------------------------------------------------------
# Tensor.to: torch's three Python signatures
# ----------------------------------------------------------------------------------
_TO_SIGNATURES = (
    ("device", "dtype", "non_blocking", "copy"),
    ("dtype", "non_blocking", "copy"),
    ("tensor", "non_blocking", "copy"),
)
_TO_HELP = (
    " * (torch.device device = None, torch.dtype dtype = None, bool non_blocking = False, "
    "bool copy = False, *, torch.memory_format memory_format = None)\n"
    " * (torch.dtype dtype, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n"
    " * (Tensor tensor, bool non_blocking = False, bool copy = False, *, "
    "torch.memory_format memory_format = None)\n")


def tensor_to(self, *args, **kwargs):
    """Convert to another dtype and/or device; `self` itself when nothing changes.

    Forms: ``to(device=None, dtype=None, non_blocking=False, copy=False)``,
    ``to(dtype, non_blocking=False, copy=False)``, ``to(other, non_blocking=False,
    copy=False)`` (the dtype and device of tensor `other`), each with a keyword-only
    ``memory_format``. With ``copy=True`` the result is always a new tensor.

    Example::

        >>> x = torch.ones(2)
        >>> x.to(torch.float64).dtype, x.to('cpu') is x
        (torch.float64, True)
    """
    if not kwargs and len(args) == 1 and type(args[0]) is dtypes.dtype:     # x.to(dtype)
        return _to(self, args[0], None, None, None, False, False, None)
    bound = parse_to(args, kwargs)
    device = bound.get("device")
    if isinstance(device, int) and not isinstance(device, bool):
        raise RuntimeError("Cannot access accelerator device when none is available.")
    if device is not None:
        device = as_device(device)
        check_copy_target(device)
    return _to(self, bound.get("dtype"), None, device, None, bound.get("non_blocking", False),
               bound.get("copy", False), bound.get("memory_format"))


def parse_to(args: tuple, kwargs: dict) -> dict:
    """The arguments of a ``to(...)`` call by name, whichever of its three forms it takes
    (torch._C._nn._parse_to, which Tensor.to and Module.to share): those given of
    ``device``, ``dtype``, ``non_blocking``, ``copy`` and ``memory_format``, a tensor
    given standing for its device and dtype.

    Raises:
        TypeError: no form fits the call (torch's message, listing the forms).
    """
    for names in _TO_SIGNATURES:
        bound = _bind_to(names, args, kwargs)
        if bound is not None:
            break
    else:
        raise TypeError(f"to() received an invalid combination of arguments - got "
                        f"({_describe_call(args, kwargs)}), but expected one of:\n{_TO_HELP}")
    other = bound.pop("tensor", None)
    if other is not None:
        bound["device"], bound["dtype"] = other._device, other._dtype
    return bound


_TO_CHECKS = {
    "device": lambda v: v is None or isinstance(v, (str, Device, int)),
    "dtype": lambda v: v is None or isinstance(v, dtypes.dtype),
    "tensor": lambda v: isinstance(v, TensorBase),
    "non_blocking": lambda v: isinstance(v, bool),
    "copy": lambda v: isinstance(v, bool),
    "memory_format": lambda v: v is None or isinstance(v, MemoryFormat),
}


def _bind_to(names: tuple, args: tuple, kwargs: dict) -> dict | None:
    """The arguments of one `to` signature by name, or None if the call does not fit."""
    if len(args) > len(names):
        return None
    bound = dict(zip(names, args))
    for key, value in kwargs.items():
        if key in bound or (key not in names and key != "memory_format"):
            return None
        bound[key] = value
    if names[0] != "device" and names[0] not in bound:
        return None
    if names[0] == "dtype" and bound["dtype"] is None:
        return None
    if not all(_TO_CHECKS[key](value) for key, value in bound.items()):
        return None
    return bound


def _describe_call(args: tuple, kwargs: dict) -> str:
    """The call's argument types as torch's parser lists them: keyword arguments last to
    first, after the positional ones; with none of those, each keyword ends in ", "."""
    parts = [_type_text(a) for a in args]
    named = [f"{k}={_type_text(v)}" for k, v in reversed(kwargs.items())]
    if parts:
        return ", ".join(parts + named)
    return "".join(f"{n}, " for n in named)


def _type_text(value) -> str:
    if isinstance(value, TensorBase):
        return "Tensor"
    for kind, text in ((dtypes.dtype, "torch.dtype"), (Device, "torch.device"),
                       (Layout, "torch.layout"), (MemoryFormat, "torch.memory_format")):
        if isinstance(value, kind):
            return text
    return type(value).__name__


# ----------------------------------------------------------------------------------
# Tensor.type and the dtype shorthands
# ----------------------------------------------------------------------------------
_DTYPES_BY_TYPE_NAME = {f"torch.{scalar_type_name(d)}Tensor": d for d in dtypes.ALL_DTYPES}


def tensor_type(self, dtype=None, non_blocking=False, *extra, **kwargs):
    """The type name of this tensor, or this tensor converted to another type.

    Args:
        dtype: a dtype, or a type name such as ``'torch.DoubleTensor'``. Without it
            the name of the current type is returned.
        non_blocking: accepted for compatibility.

    Example::

        >>> torch.ones(2).type()
        'torch.FloatTensor'
        >>> torch.ones(2).type(torch.int32).dtype
        torch.int32
    """
    if extra:
        raise TypeError(f"type() takes from 0 to 2 positional arguments but {len(extra) + 2} "
                        f"were given")
    if dtype is None:
        return legacy_type_name(self)
    if isinstance(dtype, type) and getattr(dtype, "is_cuda", False):
        raise RuntimeError(NO_ATEN_CUDA)
    if isinstance(dtype, type) and hasattr(dtype, "_legacy_dtype"):
        dtype = dtype._legacy_dtype
    elif isinstance(dtype, str):
        if dtype.startswith("torch.cuda."):
            raise RuntimeError(NO_ATEN_CUDA)
        if dtype not in _DTYPES_BY_TYPE_NAME:
            raise ValueError(f"invalid type: '{dtype}'")
        dtype = _DTYPES_BY_TYPE_NAME[dtype]
    elif not isinstance(dtype, dtypes.dtype):
        raise TypeError("dtype must be a type, str, or dtype object")
    return _to(self, dtype, None, None, None, non_blocking, False, None)


def no_positional(name: str, args: tuple) -> None:
    """torch's error for positional arguments to a method that takes keywords only."""
    if args:
        raise TypeError(f"{name}() takes 0 positional arguments but {len(args)} "
                        f"{'was' if len(args) == 1 else 'were'} given")


def _shorthand(name: str, dtype):
    def convert(self, *args, memory_format=preserve_format):
        no_positional(name, args)
        return _to(self, dtype, None, None, None, False, False, memory_format)
    convert.__name__ = convert.__qualname__ = name
    convert.__doc__ = (f"``self.to({dtype})``: this tensor as {dtype} (itself if it already "
                       f"is).\n\nArgs:\n    memory_format: the layout of a converted copy "
                       f"(default: ``torch.preserve_format``).\n")
    return convert


# The dtype shorthand methods of Tensor (`x.float()`), installed by `_tensor.py`.
SHORTHANDS = {name: _shorthand(name, dtype)
              for name, dtype in dtypes.TENSOR_SHORTHANDS.items()}


def real_part(value: complex, cpp_name: str) -> float:
    """The real part of a complex number that `float()` / `int()` convert; it must be real.

    Raises:
        RuntimeError: torch's overflow message when the imaginary part is not 0.
    """
    if value.imag != 0:
        raise RuntimeError(f"value cannot be converted to type {cpp_name} without overflow")
    return value.real


def tensor_cpu(self, memory_format=preserve_format):
    """This tensor on the CPU (itself if it is already there).

    Example::

        >>> x = torch.ones(2); x.cpu() is x
        True
    """
    return _to(self, None, None, CPU, None, False, False, memory_format)
