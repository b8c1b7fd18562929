"""torch.cuda's legacy typed classes (`torch.cuda.FloatTensor`, `torch.cuda.FloatStorage`):
they exist, for `isinstance` checks and `x.type(...)` names, and refuse to be made."""
from __future__ import annotations

from ..c10 import dtype as dtypes
from ..c10.layout import strided
from ._unavailable import NOT_COMPILED


class _CudaTensorType(type):
    """The class of `torch.cuda.FloatTensor` and friends: no tensor is ever one here."""

    def __call__(cls, *args, **kwargs):
        raise TypeError(f"type torch.cuda.{cls.__name__} not available. {NOT_COMPILED}.")

    def __instancecheck__(cls, value) -> bool:
        return False

    def __repr__(cls) -> str:
        return f"<class 'torch.cuda.{cls.__name__}'>"


class _CudaLegacyStorage:
    """A typed storage in CUDA memory: refuses to be made without CUDA."""

    def __init__(self, *args, **kwargs) -> None:
        raise AssertionError(NOT_COMPILED)


_TENSOR_DTYPES = (("Float", dtypes.float32), ("Double", dtypes.float64),
                  ("Half", dtypes.float16), ("BFloat16", dtypes.bfloat16),
                  ("Byte", dtypes.uint8), ("Char", dtypes.int8), ("Short", dtypes.int16),
                  ("Int", dtypes.int32), ("Long", dtypes.int64), ("Bool", dtypes.bool))
_STORAGE_DTYPES = _TENSOR_DTYPES + (("ComplexFloat", dtypes.complex64),
                                    ("ComplexDouble", dtypes.complex128))

LEGACY_CLASSES = {
    **{f"{name}Tensor": _CudaTensorType(f"{name}Tensor", (), {
        "dtype": dtype, "is_cuda": True, "is_sparse": False, "layout": strided,
        "__module__": "torch.cuda"}) for name, dtype in _TENSOR_DTYPES},
    **{f"{name}Storage": type(f"{name}Storage", (_CudaLegacyStorage,), {
        "dtype": dtype, "is_cuda": True, "__module__": "torch.cuda"})
       for name, dtype in _STORAGE_DTYPES},
}
