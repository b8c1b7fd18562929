"""torch.types: the type aliases torch's signatures are annotated with.

glasstorch has no symbolic shapes, so the "int-like" aliases are the Python numbers alone
and `py_sym_types` is empty.
"""
from __future__ import annotations

import os
from collections.abc import Sequence
from typing import IO, Union

from .c10.device import device as _device
from .c10.dtype import dtype as _dtype  # noqa: F401  (torch.types exposes these too)
from .c10.size import Size
from ._tensor import Tensor
from .storage import Storage  # noqa: F401  (the storage interface, for annotations)

__all__ = ["Number", "Device", "FileLike", "Storage"]

Number = Union[int, float, bool]
Device = Union[_device, str, int, None]
FileLike = Union[str, os.PathLike, IO[bytes]]
IntLikeType = int
FloatLikeType = float
BoolLikeType = bool
py_sym_types: tuple = ()
PySymType = Union[int, float, bool]

# the private aliases torch programs annotate with (``from torch.types import _size``)
_size = Union[Size, list[int], tuple[int, ...]]
_symsize = Union[Size, Sequence[int]]
_TensorOrTensors = Union[Tensor, Sequence[Tensor]]
_TensorOrOptionalTensors = Union[Tensor, Sequence[Union[Tensor, None]]]
_Number = (int, float, bool)
_bool, _int, _float, _complex, _str, _bytes = bool, int, float, complex, str, bytes
