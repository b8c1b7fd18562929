# Written by tools/stubs.py from the operator schemas and the namespace: do not edit.
from __future__ import annotations

import builtins
from typing import Any, Iterator, Sequence, overload

from glasstorch.c10.device import device as _device
from glasstorch.c10.dtype import dtype as _dtype
from glasstorch.c10.generator import Generator as _Generator
from glasstorch.c10.layout import layout as _layout, memory_format as _memory_format
from glasstorch.c10.dtype import dtype
from glasstorch._tensor import Tensor

_int = builtins.int
_float = builtins.float
_bool = builtins.bool
_complex = builtins.complex
_Number = _int | _float | _bool | _complex
_size = Sequence[_int]


def entr(input: Tensor, *, out: Tensor | None = ...) -> Tensor: ...
