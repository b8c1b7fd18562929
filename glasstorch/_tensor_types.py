"""torch's legacy typed tensor classes: `torch.FloatTensor`, `torch.LongTensor`, ...

They are bound with `import glasstorch`, as torch binds them; the constructor they call
(`_tensor_new.py`) loads on first use.
"""
from __future__ import annotations

from .c10 import dtype as dtypes
from .c10.layout import strided
from .c10.tensor_impl import TensorBase


class tensortype(type):
    """The class of torch's legacy typed tensor classes (`torch.FloatTensor`, ...).

    Calling one is the legacy constructor with its dtype on the CPU; `isinstance`
    asks whether a tensor is a CPU tensor of that dtype; ``x.type(torch.LongTensor)``
    converts to it.
    """

    def __call__(cls, *args, **kwargs):
        from ._tensor_new import legacy_typed
        return legacy_typed(cls.dtype, args, kwargs)

    def __instancecheck__(cls, value) -> bool:
        return isinstance(value, TensorBase) and value._dtype is cls.dtype and \
            value._device.type == "cpu"

    def __repr__(cls) -> str:
        return f"<class 'torch.{cls.__name__}'>"


def _typed_class(name: str, dtype) -> tensortype:
    return tensortype(name, (), {"dtype": dtype, "_legacy_dtype": dtype, "is_cuda": False,
                                 "is_sparse": False, "layout": strided, "__module__": "torch"})


# Exported by the torch namespace: torch.FloatTensor, torch.LongTensor, ...
LEGACY_TYPES = {f"{name}Tensor": _typed_class(f"{name}Tensor", dtype) for name, dtype in (
    ("Float", dtypes.float32), ("Double", dtypes.float64), ("Half", dtypes.float16),
    ("BFloat16", dtypes.bfloat16), ("Byte", dtypes.uint8), ("Char", dtypes.int8),
    ("Short", dtypes.int16), ("Int", dtypes.int32), ("Long", dtypes.int64),
    ("Bool", dtypes.bool))}
