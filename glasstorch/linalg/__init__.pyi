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
LinAlgError: builtins.type

_int = builtins.int
_float = builtins.float
_bool = builtins.bool
_complex = builtins.complex
_Number = _int | _float | _bool | _complex
_size = Sequence[_int]


def cholesky(input: Tensor, *, upper: _bool = ..., out: Tensor | None = ...) -> Tensor: ...

def cholesky_ex(input: Tensor, *, upper: _bool = ..., check_errors: _bool = ..., out: Tensor | None = ...) -> tuple[Tensor, Tensor]: ...

def cross(input: Tensor, other: Tensor, *, dim: _int = ..., out: Tensor | None = ...) -> Tensor: ...

def det(A: Tensor, *, out: Tensor | None = ...) -> Tensor: ...

def eigh(input: Tensor, UPLO: str = ..., *, out: Tensor | None = ...) -> tuple[Tensor, Tensor]: ...

def eigvalsh(input: Tensor, UPLO: str = ..., *, out: Tensor | None = ...) -> Tensor: ...

def inv(A: Tensor, *, out: Tensor | None = ...) -> Tensor: ...

def inv_ex(A: Tensor, *, check_errors: _bool = ..., out: Tensor | None = ...) -> tuple[Tensor, Tensor]: ...

def matmul(input: Tensor, other: Tensor, *, out: Tensor | None = ...) -> Tensor: ...

def multi_dot(tensors: Sequence[Tensor], *, out: Tensor | None = ...) -> Tensor: ...

def slogdet(A: Tensor, *, out: Tensor | None = ...) -> tuple[Tensor, Tensor]: ...

def solve(A: Tensor, B: Tensor, *, left: _bool = ..., out: Tensor | None = ...) -> Tensor: ...

def solve_ex(A: Tensor, B: Tensor, *, left: _bool = ..., check_errors: _bool = ..., out: Tensor | None = ...) -> tuple[Tensor, Tensor]: ...

def solve_triangular(input: Tensor, B: Tensor, *, upper: _bool, left: _bool = ..., unitriangular: _bool = ..., out: Tensor | None = ...) -> Tensor: ...

def vector_norm(input: Tensor, ord: _Number = ..., dim: _int | _size | None = ..., keepdim: _bool = ..., *, dtype: _dtype | None = ..., out: Tensor | None = ...) -> Tensor: ...
