"""torch.cuda.sparse: the legacy sparse CUDA tensor types, which nothing here can make."""
from __future__ import annotations

from ._legacy import LEGACY_CLASSES

__all__ = ["BFloat16Tensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor",
           "HalfTensor", "IntTensor", "LongTensor", "ShortTensor"]
BFloat16Tensor = LEGACY_CLASSES["BFloat16Tensor"]
ByteTensor = LEGACY_CLASSES["ByteTensor"]
CharTensor = LEGACY_CLASSES["CharTensor"]
DoubleTensor = LEGACY_CLASSES["DoubleTensor"]
FloatTensor = LEGACY_CLASSES["FloatTensor"]
HalfTensor = LEGACY_CLASSES["HalfTensor"]
IntTensor = LEGACY_CLASSES["IntTensor"]
LongTensor = LEGACY_CLASSES["LongTensor"]
ShortTensor = LEGACY_CLASSES["ShortTensor"]
