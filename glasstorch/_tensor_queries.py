"""Top-level functions that ask about a tensor or name its type.

``torch.is_floating_point(x)``, ``torch.is_nonzero(x)``, ``torch.get_device(x)``, ...
answer what the Tensor methods answer; as functions they refuse a non-tensor in the
words of torch's argument parser. Also `typename` and the deprecated
`set_default_tensor_type`, which speak in the legacy type names
(``torch.FloatTensor``).
"""
from __future__ import annotations

from ._tensor_types import LEGACY_TYPES
from .aten import ops
from .aten.context import warn_once
from .aten.meta.shape import dims_in_order
from .c10.layout import channels_last, memory_format
from .c10.promotion import set_default_dtype
from .c10.tensor_impl import TensorBase

_aten = ops.aten


def _tensor(value, function: str, name: str = "input", position: int = 1) -> TensorBase:
    if not isinstance(value, TensorBase):
        raise TypeError(f"{function}(): argument '{name}' (position {position}) must be "
                        f"Tensor, not {type(value).__name__}")
    return value


def is_floating_point(input: TensorBase) -> bool:
    """Whether `input`'s dtype is a floating point one (float16, bfloat16, float32, ...)."""
    return _tensor(input, "is_floating_point").is_floating_point()


def is_complex(input: TensorBase) -> bool:
    """Whether `input`'s dtype is complex."""
    return _tensor(input, "is_complex").is_complex()


def is_signed(input: TensorBase) -> bool:
    """Whether `input`'s dtype holds negative numbers (not bool nor unsigned ints)."""
    return _tensor(input, "is_signed").is_signed()


def is_inference(input: TensorBase) -> bool:
    """Whether `input` was made under `torch.inference_mode`."""
    return _tensor(input, "is_inference").is_inference()


def is_nonzero(input: TensorBase) -> bool:
    """Whether the single element of `input` is not zero (NaN counts as nonzero).

    Raises:
        RuntimeError: if `input` has no element or more than one.

    Example::

        >>> torch.is_nonzero(torch.tensor([0.5]))
        True
    """
    return _tensor(input, "is_nonzero").is_nonzero()


def is_same_size(input: TensorBase, other: TensorBase) -> bool:
    """Whether `input` and `other` have the same shape."""
    return _tensor(input, "is_same_size").is_same_size(_tensor(other, "is_same_size",
                                                                 "other", 2))


def get_device(input: TensorBase) -> int:
    """The index of `input`'s device: -1 for the CPU, as in torch."""
    return _tensor(input, "get_device").get_device()


def typename(obj, /) -> str:
    """The name of `obj`'s type: a tensor's legacy type (``'torch.FloatTensor'``),
    otherwise the qualified name of a class, function or object's class.

    Example::

        >>> torch.typename(torch.zeros(1)), torch.typename(3)
        ('torch.FloatTensor', 'int')
    """
    if isinstance(obj, TensorBase):
        return obj.type()
    module = getattr(obj, "__module__", "") or ""
    if hasattr(obj, "__qualname__"):
        qualname = obj.__qualname__
    elif hasattr(obj, "__name__"):
        qualname = obj.__name__
    else:
        module = type(obj).__module__
        qualname = type(obj).__qualname__
    return qualname if module in ("", "builtins") else f"{module}.{qualname}"


def set_default_tensor_type(t, /) -> None:
    """Deprecated: make a floating legacy type (``torch.DoubleTensor`` or its name) the
    default; use `torch.set_default_dtype` instead.

    Raises:
        TypeError: for integer types, CUDA types or objects that are not types.
    """
    warn_once("torch.set_default_tensor_type() is deprecated as of PyTorch 2.1, please use "
              "torch.set_default_dtype() and torch.set_default_device() as alternatives.")
    if isinstance(t, str):
        if t.startswith("torch.cuda."):
            raise TypeError(f"type {t} not available. Torch not compiled with CUDA enabled.")
        legacy = LEGACY_TYPES.get(t.removeprefix("torch."))
        if legacy is None:
            raise AttributeError(f"module 'torch' has no attribute '{t.rsplit('.', 1)[-1]}'")
        dtype = legacy._legacy_dtype
    elif isinstance(t, type) and hasattr(t, "_legacy_dtype"):
        dtype = t._legacy_dtype
    else:
        raise TypeError("invalid type object: only floating-point types are supported as "
                        "the default type")
    if not dtype.is_floating_point:
        raise TypeError("only floating-point types are supported as the default type")
    set_default_dtype(dtype)


class TensorQueries:
    """Tensor methods that answer questions about a tensor (a base of `Tensor`)."""

    __slots__ = ()

    def is_nonzero(self) -> bool:
        """Whether the single element of this tensor is not zero; see `torch.is_nonzero`."""
        if self.numel() != 1:
            raise RuntimeError("Boolean value of Tensor with no values is ambiguous"
                               if self.numel() == 0 else
                               "Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.item())

    def is_same_size(self, other) -> bool:
        """Whether this tensor and `other` have the same shape."""
        _tensor(other, "is_same_size", "other", 1)
        return self._size == other._size

    @property
    def output_nr(self) -> int:
        """Which output of its `grad_fn` this tensor is (0 for leaves)."""
        meta = self._autograd
        return 0 if meta is None else meta.output_nr

    def const_data_ptr(self) -> int:
        """The address of the first element, for reading (`data_ptr` for writing)."""
        return self.data_ptr()

    def dim_order(self, *, ambiguity_check=False) -> tuple:
        """The dims ordered from the outermost in memory to the innermost.

        Args:
            ambiguity_check (bool or list of torch.memory_format): refuse a tensor whose
                order is not unique (size-1 dims, equal strides), unless it matches
                exactly one of the memory formats listed.

        Example::

            >>> torch.empty(2, 3, 4).permute(2, 0, 1).dim_order()
            (1, 2, 0)
        """
        return tensor_dim_order(self, ambiguity_check)

    def as_subclass(self, cls):
        """This tensor as an instance of `cls`, a subclass of Tensor, sharing its data
        and staying in its autograd graph (an alias of it)."""
        if not (isinstance(cls, type) and issubclass(cls, TensorBase)):
            raise TypeError("Creating a Tensor subclass from a class that does not inherit "
                            "from Tensor is not possible. Make sure your class inherits from "
                            "Tensor.")
        result = _aten.alias.default.call(self)
        result.__class__ = cls
        return result


def tensor_dim_order(self: TensorBase, ambiguity_check) -> tuple:
    """`Tensor.dim_order`, with torch's checks that the order is the only one (or that
    the tensor matches exactly one of the memory formats given)."""
    if not isinstance(ambiguity_check, bool) and not (
            isinstance(ambiguity_check, list)
            and all(isinstance(f, memory_format) for f in ambiguity_check)):
        raise TypeError("The ambiguity_check argument must be a bool or a list of memory "
                        "formats.")
    formats = ambiguity_check if isinstance(ambiguity_check, list) else []
    check = ambiguity_check if isinstance(ambiguity_check, bool) else True
    size, stride = self._size, self._stride
    ambiguous = any(a == b for a, b in zip(stride, stride[1:])) or 1 in size
    matching = sum(1 for f in formats if self.is_contiguous(memory_format=f))
    if check and ambiguous and matching != 1:
        raise RuntimeError("The tensor does not have unique dim order, or cannot map to exact "
                           "one of the given memory formats.")
    order = _memory_order(self)
    if ambiguity_check and len(order) > 1 and not _is_shortcut(self):
        compare = _stride_comparison(self)
        if any(compare(inner, outer) != -1 for outer, inner in zip(order, order[1:])):
            raise RuntimeError("The tensor does not have unique dim order.")
    return tuple(order)


def _is_shortcut(self: TensorBase) -> bool:
    """Whether exactly one of row-major and channels-last describes the tensor."""
    return self.is_contiguous() != self.is_contiguous(memory_format=channels_last)


def _memory_order(self: TensorBase) -> list:
    """The dims, outermost first: row-major or channels-last when exactly one of them
    fits, else sorted by stride as TensorIterator sorts them."""
    ndim = self.dim()
    if ndim <= 1:
        return list(range(ndim))
    if _is_shortcut(self):
        return list(range(ndim)) if self.is_contiguous() else [0, *range(2, ndim), 1]
    return dims_in_order(ndim, _stride_comparison(self))


def _stride_comparison(self: TensorBase):
    """TensorIterator's order of two dims by their strides (its module, the elementwise
    operators' meta rules, loads on first use)."""
    from .aten.meta.pointwise import stride_comparison
    return stride_comparison((self,), self._size)
