"""torch.cuda.sparse: the legacy sparse CUDA tensor types, which nothing here can make."""
from __future__ import annotations

from ._legacy import LEGACY_CLASSES

__all__ = ["BFloat16Tensor", "ByteTensor", "CharTensor", "DoubleTensor", "FloatTensor",
           "HalfTensor", "IntTensor", "LongTensor", "ShortTensor"]
globals().update({name: LEGACY_CLASSES[name] for name in __all__})
