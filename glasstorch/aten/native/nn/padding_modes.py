"""Padding by the input's own values: reflection_pad{1,2,3}d and replication_pad{1,2,3}d
with their backward operators, and _pad_circular.

Note [Non-constant padding]
    Each output position along a padded dim reads one input position: reflection
    mirrors about the edge (without repeating it), replication clamps to the edge,
    circular wraps around (after cropping what negative amounts remove, as torch does).
    The forward kernel gathers those positions (`np.take`, one padded dim after the
    other); the backward kernel sums the gradient back onto them, as one small 0/1
    matrix per padded dim contracted with the gradient (BLAS; each input position
    receives the few output positions that read it).
"""
from __future__ import annotations

import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ....c10.tensor_impl import wrap_array
from ....c10.size import Size
from ...backends import register_meta
from ...registry import TensorMeta, composite, op
from ..pointwise.unary import refuse

_BOOL = frozenset({np.dtype(np.bool_)})
_AXES = ("W", "H", "D")               # the padded dims, innermost first


def source_positions(size: int, left: int, right: int, mode: str) -> np.ndarray:
    """Which input position each output position reads (Note [Non-constant padding])."""
    positions = np.arange(-left, size + right)
    if mode == "replicate":
        return np.clip(positions, 0, size - 1)
    if mode == "circular":
        start = max(-left, 0)
        length = size - start - max(-right, 0)
        return start + np.arange(-max(left, 0), length + max(right, 0)) % length
    period = 2 * (size - 1) if size > 1 else 1
    folded = np.abs(positions) % period
    return np.where(folded >= size, period - folded, folded)


def _padded_shape(name: str, self, padding, reflect: bool, show=list) -> tuple:
    """torch's checks of reflection_pad / replication_pad, then the result's sizes.
    `show` prints the input's sizes: a list in its kernel's words, a `Size` in its
    meta function's (the Meta registration)."""
    k = len(padding) // 2
    size = self._size
    batched_ok = len(size) == k + 2 and all(size[1:])
    if not (batched_ok or (len(size) == k + 1 and all(size))):
        raise RuntimeError(f"Expected {k + 1}D or {k + 2}D (batch mode) tensor with possibly 0 "
                           f"batch size and other non-zero dimensions for input, but got: "
                           f"{list(size)}")
    shape = list(size)
    for i in range(k):
        dim = len(size) - 1 - i
        left, right = padding[2 * i], padding[2 * i + 1]
        if reflect and (left >= size[dim] or right >= size[dim]):
            raise RuntimeError(f"Argument #{4 + 2 * i}: Padding size should be less than the "
                               f"corresponding input dimension, but got: padding ({left}, "
                               f"{right}) at dimension {dim} of input {show(size)}")
        shape[dim] = size[dim] + left + right
    if any(n < 1 for n in shape[len(size) - k:]):
        inputs = ", ".join(f"{_AXES[i]}: {size[len(size) - 1 - i]}" for i in reversed(range(k)))
        outputs = " ".join(f"{_AXES[i]}: {shape[len(size) - 1 - i]}"
                           for i in reversed(range(k)))
        raise RuntimeError(f"input ({inputs}) is too small. Calculated output {outputs}")
    return tuple(shape)


def _refuse_out_dtype(name: str, dtype, given) -> None:
    """out= must have the result's dtype; reflection_pad2d (not a structured kernel in
    torch) words it differently."""
    if name == "reflection_pad2d":
        raise RuntimeError(f"expected scalar type {scalar_type_name(dtype)} but found "
                           f"{scalar_type_name(given)}")
    raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(dtype)}, but got "
                       f"{type_meta_name(given)} instead")


def _positions(shape: tuple, padding, mode: str) -> list:
    """(axis, source positions) for each padded dim of an input of `shape`."""
    return [(len(shape) - 1 - i, source_positions(shape[len(shape) - 1 - i], padding[2 * i],
                                                  padding[2 * i + 1], mode))
            for i in range(len(padding) // 2)]


def _gather(self: np.ndarray, padding, mode: str, out: np.ndarray) -> None:
    result = self
    for axis, positions in _positions(self.shape, padding, mode):
        result = np.take(result, positions, axis=axis)
    np.copyto(out, result)


def _scatter_back(grad: np.ndarray, shape: tuple, padding, mode: str, out: np.ndarray) -> None:
    """Each input position's sum of the gradient at the output positions reading it."""
    if grad.dtype.itemsize == 2:
        # torch adds float16/bfloat16 terms one by one in that dtype, in output order
        sources = np.empty(grad.shape, np.int64)
        _gather(np.arange(math.prod(shape)).reshape(shape), padding, mode, sources)
        out.fill(0)
        np.add.at(out.reshape(-1), sources.reshape(-1), grad.reshape(-1))
        return
    result = grad
    for axis, positions in _positions(shape, padding, mode):
        reads = np.zeros((len(positions), shape[axis]), dtype=result.dtype)
        np.add.at(reads, (np.arange(len(positions)), positions), 1)
        result = np.moveaxis(np.tensordot(result, reads, axes=([axis], [0])), -1, axis)
    np.copyto(out, result)


def _declare(kind: str, k: int) -> tuple:
    """reflection_pad{k}d / replication_pad{k}d and its backward operator."""
    name = f"{kind}_pad{k}d"
    mode, reflect = ("reflect", True) if kind == "reflection" else ("replicate", False)

    def meta_rule(show):
        def meta(self, padding, out=None):
            shape = _padded_shape(name, self, padding, reflect, show)
            if out is not None and out._dtype is not self._dtype:
                _refuse_out_dtype(name, self._dtype, out._dtype)
            return TensorMeta(shape, self._dtype)
        meta.__name__ = meta.__qualname__ = f"{name}_meta"
        return meta

    def kernel(self, padding, *, out):
        refuse(self, name, _BOOL)
        _gather(self, padding, mode, out)
    kernel.__name__ = name
    kernel.__doc__ = (f"{'Mirror' if reflect else 'Repeat'} the edges of the last {k} dim(s) "
                      f"outwards by ``padding`` ((left, right) pairs from the last dim).")
    # bound in torch._C._nn only, which glasstorch has no face for: torch.ops.aten
    forward = op(f"{name}(Tensor self, SymInt[{2 * k}] padding) -> Tensor",
                 meta=meta_rule(list), out=True, function=False,
                 grad={"self": f"{name}_backward(grad, self, padding)"})(kernel)
    register_meta(forward, meta_rule(Size))

    def backward_meta(grad_output, self, padding):
        return TensorMeta(self._size, grad_output._dtype)

    def backward_kernel(grad_output, self, padding, *, out):
        _scatter_back(grad_output, self.shape, padding, mode, out)
    backward_kernel.__name__ = f"{name}_backward"
    backward_kernel.__doc__ = f"The gradient of `{name}`'s input (Note [Non-constant padding])."
    backward = op(f"{name}_backward(Tensor grad_output, Tensor self, SymInt[{2 * k}] padding) "
                  f"-> Tensor", meta=backward_meta, out=True, out_overload="grad_input",
                  out_names=("grad_input",), function=False,
                  grad={"grad_output": f"{name}(grad, padding)", "self": "zeros_like(self)"}
                  )(backward_kernel)
    return forward, backward


reflection_pad1d, reflection_pad1d_backward = _declare("reflection", 1)
reflection_pad2d, reflection_pad2d_backward = _declare("reflection", 2)
reflection_pad3d, reflection_pad3d_backward = _declare("reflection", 3)
replication_pad1d, replication_pad1d_backward = _declare("replication", 1)
replication_pad2d, replication_pad2d_backward = _declare("replication", 2)
replication_pad3d, replication_pad3d_backward = _declare("replication", 3)
PADS = {("reflect", 1): reflection_pad1d, ("reflect", 2): reflection_pad2d,
        ("reflect", 3): reflection_pad3d, ("replicate", 1): replication_pad1d,
        ("replicate", 2): replication_pad2d, ("replicate", 3): replication_pad3d}


@composite("_pad_circular(Tensor self, SymInt[] pad) -> Tensor", function=False)
def _pad_circular(self, pad):
    """Wrap the last ``len(pad) // 2`` dims around: the left border repeats the right
    end and the other way round (one index_select per padded dim)."""
    for i in range(len(pad) // 2):
        size = self._size[self.dim() - 1 - i]
        if pad[2 * i] > size or pad[2 * i + 1] > size:
            raise RuntimeError("Padding value causes wrapping around more than once.")
    result = self
    for axis, positions in _positions(self._size, pad, "circular"):
        index = wrap_array(positions.astype(np.int64, copy=False), dtypes.int64)
        result = result.index_select(axis, index)
    return result
