"""softmax and log_softmax along one dim, and their backward operators.

As in ATen, the public operators (`softmax.int`, `log_softmax.int`) are composites that
convert to the asked dtype and call the kernels `_softmax` / `_log_softmax`; autograd
records those (`SoftmaxBackward0`, `LogSoftmaxBackward0`), whose formulas call the fused
backward operators `_softmax_backward_data` / `_log_softmax_backward_data`.

Note [Row-blocked softmax]
    A softmax is five NumPy passes over its rows (max, subtract, exp, sum, scale) where
    torch's kernel fuses them into three. Done over the whole tensor, each pass streams
    it through memory again; done a block of rows at a time, the block stays in cache
    for all five. The input is laid out ``(outer, size, inner)`` around the softmax dim
    (row-major, as torch makes it contiguous first) and cut into blocks of outer rows,
    which `parallel_for` shares over the thread pool. A block holds `BLOCK` elements
    (a megabyte of float32): small enough to stay in a core's L2, large enough that
    each NumPy call's fixed cost is paid rarely; a softmax along a middle dim takes its
    whole ``(size, inner)`` slab into one block whenever it fits, and a larger slab is
    cut into columns, no fewer than `MIN_COLUMNS` (NumPy's loops along a middle dim run
    along the columns, and short loops cost more than a block that overflows L2), or
    into single columns when it has fewer. float16 / bfloat16 blocks are computed in
    float32 and rounded once at the end, as torch's kernels accumulate in float. Along the last dim torch scales by the sum's reciprocal, along
    any other it divides by the sum: the same here, for the same roundings.

Note [Reductions along short rows]
    NumPy reduces a ``(rows, size)`` block along its rows one row at a time, at a fixed
    cost per row that outweighs the work when rows are a few hundred elements long (a
    softmax over logits or attention scores). `np.maximum.reduceat` over the flat block
    takes every row's maximum in one loop (a maximum is exact in any order), and
    ``np.einsum("ij->i")`` sums each row in its own vectorized loop, in an order fixed
    by the row's length alone: a row's sum does not depend on the block, the thread or
    the alignment it falls on, so blocking and threads change no result. Along a middle
    dim (``inner > 1``) NumPy's reduction already runs down the contiguous columns,
    adding the softmax dim's entries in order, as torch's kernel does; a block of a
    single column it sums pairwise. The cuts depend on the shape, never on the threads.
"""
from __future__ import annotations

import functools
import math

import numpy as np

from ....c10 import dtype as dtypes
from ....c10.dtype import scalar_type_name, type_meta_name
from ...backends import register_meta
from ...meta.shape import wrap_dim
from ...parallel import GRAIN_SIZE, parallel_for
from ...schema import SchemaKind
from ...registry import TensorMeta, composite, op
from ..creation.conversion import to_dtype
from ..pointwise.unary import refuse

_LOW_PRECISION = (dtypes.float16, dtypes.bfloat16)
_NOT_FLOATING = frozenset(np.dtype(t) for t in (np.bool_, np.uint8, np.int8, np.int16, np.int32,
                                                np.int64, np.uint16, np.uint32, np.uint64,
                                                np.complex64, np.complex128))
BLOCK = 262144          # elements per block (Note [Row-blocked softmax])
MIN_COLUMNS = 32        # the narrowest cut of a slab (Note [Row-blocked softmax])


# ----------------------------------------------------------------------------------
# The row-blocked driver
# ----------------------------------------------------------------------------------
def _rows(array: np.ndarray, axis: int) -> np.ndarray:
    """`array` (row-major) viewed as ``(outer, size, inner)`` around `axis`."""
    shape = array.shape
    return array.reshape(math.prod(shape[:axis]), shape[axis] if shape else 1,
                         math.prod(shape[axis + 1:]))


def along_rows(body, inputs: tuple, dim: int, out: np.ndarray) -> None:
    """Run ``body(*input_blocks, out=out_block)`` over blocks of rows (Note [Row-blocked
    softmax]); each block is the whole softmax extent of some outer rows, in float32 or
    float64 whatever the storage dtype.

    Args:
        body: the math on one block of ``(rows, size, inner)`` arrays, reducing axis 1.
        inputs: the arrays read (of `out`'s shape, any layout).
        dim: the softmax dim (wrapped; 0 for a 0-dim tensor).
        out: the array written.
    """
    if out.size == 0:
        return
    axis = dim if out.ndim else 0
    compute = np.float64 if out.dtype == np.float64 else np.float32
    blocks = [_rows(np.ascontiguousarray(x), axis) for x in inputs]
    direct = out.flags.c_contiguous and out.dtype == compute
    target = out if direct else np.empty(out.shape, compute)
    written = _rows(target, axis)
    size, inner = written.shape[1], written.shape[2]
    per_row = size * inner
    columns = _columns(inner, size)

    def run(start: int, stop: int) -> None:
        step = max(1, BLOCK // per_row)
        for first in range(start, stop, step):
            rows = slice(first, min(first + step, stop))
            for column in columns:
                part = (rows, slice(None), column)
                body(*[b[part].astype(compute, copy=False) for b in blocks],
                     out=written[part])
    parallel_for(0, written.shape[0], max(1, GRAIN_SIZE // per_row), run)
    if not direct:
        np.copyto(out, target, casting="unsafe")


def _columns(inner: int, size: int) -> list:
    """The slices of `inner` a block takes: all of it when a row fits in a block, else
    columns (they reduce independently) at least `MIN_COLUMNS` wide, or single ones."""
    if size * inner <= BLOCK:
        return [slice(None)]
    if inner < MIN_COLUMNS:     # one column at a time: NumPy loops along the softmax dim
        return [slice(column, column + 1) for column in range(inner)]
    count = max(1, inner // max(MIN_COLUMNS, BLOCK // size))
    bounds = [inner * k // count for k in range(count + 1)]
    return [slice(low, high) for low, high in zip(bounds, bounds[1:])]


def _short_rows(x: np.ndarray) -> bool:
    """Whether a block's rows lie contiguous along the softmax dim (a softmax along the
    last dim): Note [Reductions along short rows]."""
    return x.shape[2] == 1 and x.shape[1] > 1 and x.strides[1] == x.itemsize


def _max_along(x: np.ndarray) -> np.ndarray:
    """Each column's maximum along axis 1 of a ``(rows, size, inner)`` block, kept as
    ``(rows, 1, inner)`` (Note [Reductions along short rows])."""
    if _short_rows(x):
        rows, size, _ = x.shape
        flat = x.reshape(-1)
        return np.maximum.reduceat(flat, np.arange(0, flat.size, size)).reshape(rows, 1, 1)
    return x.max(axis=1, keepdims=True)


def _sum_along(x: np.ndarray) -> np.ndarray:
    """Each column's sum along axis 1 of a ``(rows, size, inner)`` block, kept as
    ``(rows, 1, inner)`` (Note [Reductions along short rows])."""
    if _short_rows(x):
        rows, size, _ = x.shape
        return np.einsum("ij->i", x.reshape(rows, size)).reshape(rows, 1, 1)
    return x.sum(axis=1, keepdims=True)


def _exp(x: np.ndarray, *, out: np.ndarray) -> None:
    """``np.exp(x, out=out)``; through a contiguous temporary when `out` is strided (a
    column of a slab), which NumPy's vectorized exp does not write."""
    if out.flags.c_contiguous:
        np.exp(x, out=out)
    else:
        np.copyto(out, np.exp(x))


def _softmax_rows(x: np.ndarray, *, out: np.ndarray, last: bool = False) -> None:
    """exp(x - max) / sum(exp(x - max)) along axis 1 (subtracting the max keeps exp finite).

    `last`: torch's last-dim kernel multiplies by the sum's reciprocal instead of
    dividing by the sum (another rounding).
    """
    np.subtract(x, _max_along(x), out=out)
    _exp(out, out=out)
    total = _sum_along(out)
    if last:
        np.multiply(out, np.reciprocal(total, out=total), out=out)
    else:
        np.divide(out, total, out=out)


def _log_softmax_rows(x: np.ndarray, *, out: np.ndarray, rounded=None) -> None:
    """(x - max) - log(sum(exp(x - max))) along axis 1.

    `rounded`: the float16 / bfloat16 dtype torch's last-dim kernel keeps the sum and
    its log in (they are rounded to it), None to keep them in the compute dtype.
    """
    np.subtract(x, _max_along(x), out=out)
    total = _sum_along(np.exp(out))
    if rounded is not None:
        total = total.astype(rounded).astype(out.dtype)
    np.log(total, out=total)
    if rounded is not None:
        total = total.astype(rounded).astype(out.dtype)
    np.subtract(out, total, out=out)


def _softmax_backward_rows(grad: np.ndarray, output: np.ndarray, *, out: np.ndarray) -> None:
    """output * (grad - sum(grad * output)): the Jacobian-vector product of softmax."""
    np.multiply(grad, output, out=out)
    total = _sum_along(out)
    np.subtract(grad, total, out=out)
    np.multiply(out, output, out=out)


def _log_softmax_backward_rows(grad: np.ndarray, output: np.ndarray, *,
                               out: np.ndarray) -> None:
    """grad - exp(output) * sum(grad): the Jacobian-vector product of log_softmax."""
    _exp(output, out=out)
    np.multiply(out, _sum_along(grad), out=out)
    np.subtract(grad, out, out=out)


def _along(dim: int, x: np.ndarray) -> tuple:
    """(dim wrapped, whether torch runs its `lastdim` kernel: a softmax along the last
    dim, of any size, or of a 0-dim tensor)."""
    dim = wrap_dim(dim, x.ndim)
    return dim, x.ndim == 0 or dim == x.ndim - 1


def _kernel_name(name: str, last: bool) -> str:
    """torch's CPU kernel name for a softmax (`last`: along the last dim)."""
    return f"{name}_lastdim_kernel_impl" if last else f"{name}_kernel_impl"


# ----------------------------------------------------------------------------------
# _softmax / _log_softmax
# ----------------------------------------------------------------------------------
def _check_exact_out(out, wanted) -> None:
    if out is not None and out._dtype is not wanted:
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(wanted)}, but "
                           f"got {type_meta_name(out._dtype)} instead")


def _kernel_meta(self, dim, half_to_float, out=None):
    """The meta rule of `_softmax` / `_log_softmax`: a row-major result of self's shape
    (torch's kernels make the input contiguous first). `half_to_float` is a CUDA-only
    path: the CPU kernel refuses it, the Meta registration describes it."""
    wrap_dim(dim, self.dim())
    if half_to_float:
        raise RuntimeError("softmax with half to float conversion is not supported on CPU")
    _check_exact_out(out, self._dtype)
    return TensorMeta(self._size, self._dtype)


def _kernel_meta_key(accepted: tuple, spelled: str):
    """The Meta registration of `_softmax` / `_log_softmax`: float32 for a low precision
    input with `half_to_float`. `accepted` are the dtypes torch's meta registration takes
    for it, `spelled` how it names them."""
    def meta(self, dim, half_to_float, out=None):
        wrap_dim(dim, self.dim())
        dtype = self._dtype
        if half_to_float:
            if dtype not in accepted:
                raise AssertionError(f"half_to_float is True but x.dtype is {dtype}, "
                                     f"expected {spelled}")
            dtype = dtypes.float32
        _check_exact_out(out, dtype)
        return TensorMeta(self._size, dtype)
    return meta


def _softmax_body(last: bool, dtype: np.dtype):
    """The block math of `_softmax` along the last dim or another, for `dtype`."""
    return functools.partial(_softmax_rows, last=last)


def _log_softmax_body(last: bool, dtype: np.dtype):
    """The block math of `_log_softmax` along the last dim or another, for `dtype`."""
    rounded = dtype if last and dtype.itemsize == 2 else None
    return functools.partial(_log_softmax_rows, rounded=rounded)


def _run_softmax(name: str, make_body, self: np.ndarray, dim: int, out: np.ndarray) -> None:
    """`make_body(last, dtype)` gives the block's math for a softmax along the last dim
    or not, of `self`'s dtype."""
    dim, last = _along(dim, self)
    if self.size:            # torch's empty tensors skip the kernel, and its dtype check
        refuse(self, _kernel_name(name, last), _NOT_FLOATING)
    along_rows(make_body(last, self.dtype), (self,), dim, out)


@op("_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", meta=_kernel_meta,
    out=True, grad={"self": "_softmax_backward_data(grad, result, dim, self_scalar_type)"})
def _softmax(self, dim, half_to_float, *, out):
    """The softmax kernel: `softmax` without its dtype conversion (see `torch.softmax`).

    Example::

        >>> torch._softmax(torch.tensor([0., 1.]), 0, False)
        tensor([0.2689, 0.7311])
    """
    _run_softmax("softmax", _softmax_body, self, dim, out)


register_meta(_softmax, _kernel_meta_key(_LOW_PRECISION, "half or bfloat16"))


@op("_log_softmax(Tensor self, int dim, bool half_to_float) -> Tensor", meta=_kernel_meta,
    out=True, grad={"self": "_log_softmax_backward_data(grad, result, dim, self_scalar_type)"})
def _log_softmax(self, dim, half_to_float, *, out):
    """The log_softmax kernel: `log_softmax` without its dtype conversion.

    Example::

        >>> torch._log_softmax(torch.tensor([0., 0.]), 0, False)
        tensor([-0.6931, -0.6931])
    """
    _run_softmax("log_softmax", _log_softmax_body, self, dim, out)


register_meta(_log_softmax, _kernel_meta_key((dtypes.float16,), "torch.half"))


# ----------------------------------------------------------------------------------
# The backward operators
# ----------------------------------------------------------------------------------
def _size_mismatch(name: str, grad_output, output) -> RuntimeError:
    return RuntimeError(f"Expected tensor for argument #1 'grad' to have same size as tensor "
                        f"for argument #2 'output'; but {list(grad_output._size)} does not "
                        f"equal {list(output._size)} (while checking arguments for {name})")


def _backward_meta(name: str):
    """The meta rule of `name`'s backward operator (``softmax_backward``...)."""
    def meta(grad_output, output, dim, input_dtype, out=None):
        mismatch = grad_output._size != output._size
        if mismatch and name == "softmax_backward":
            raise _size_mismatch(name, grad_output, output)
        dtype = grad_output._dtype
        if output._dtype is not dtype:
            raise RuntimeError(f"expected scalar type {scalar_type_name(dtype)} but found "
                               f"{scalar_type_name(output._dtype)}")
        wrap_dim(dim, grad_output.dim())
        if mismatch:     # torch's log_softmax_backward reads past `output` here: refused
            raise _size_mismatch(name, grad_output, output)
        if dtype is dtypes.float32 and input_dtype is dtypes.float16:    # CUDA's half_to_float
            raise RuntimeError("expected scalar type Float but found Half")
        _check_exact_out(out, dtype)
        return TensorMeta(grad_output._size, dtype)
    meta.__name__ = meta.__qualname__ = f"_{name}_meta"
    return meta


def _backward_meta_key(grad_output, output, dim, input_dtype, out=None):
    """torch's meta registration checks only the dim and takes input_dtype."""
    wrap_dim(dim, grad_output.dim())
    return TensorMeta(grad_output._size, input_dtype)


def _run_backward(name: str, body, grad_output, output, dim, out) -> None:
    dim, last = _along(dim, grad_output)
    if grad_output.size:
        refuse(grad_output, _kernel_name(name, last), _NOT_FLOATING)
    along_rows(body, (grad_output, output), dim, out)


@op("_softmax_backward_data(Tensor grad_output, Tensor output, int dim, ScalarType input_dtype) "
    "-> Tensor", meta=_backward_meta("softmax_backward"), out=True, bind_out=False,
    out_names=("grad_input",),
    grad={"grad_output": "_softmax_backward_data(grad, output, dim, input_dtype)",
          "output": "grad_output * grad - (output * grad_output).sum(dim, True) * grad "
                    "- grad_output * (output * grad).sum(dim, True)"})
def _softmax_backward_data(grad_output, output, dim, input_dtype, *, out):
    """The gradient of softmax's input from its output's gradient and its output:
    ``output * (grad_output - sum(grad_output * output, dim))``, in one pass per row.

    Example::

        >>> y = torch.softmax(torch.tensor([0., 1.]), 0)
        >>> torch._softmax_backward_data(torch.tensor([1., 0.]), y, 0, torch.float32)
        tensor([ 0.1966, -0.1966])
    """
    _run_backward("softmax_backward", _softmax_backward_rows, grad_output, output, dim, out)


register_meta(_softmax_backward_data, _backward_meta_key)


@op("_log_softmax_backward_data(Tensor grad_output, Tensor output, int dim, "
    "ScalarType input_dtype) -> Tensor", meta=_backward_meta("log_softmax_backward"), out=True,
    grad={"grad_output": "grad.to(output.dtype) - (grad.to(output.dtype) * output.exp())"
                         ".sum(dim, True)",
          "output": "(-grad_output.sum(dim, True) * output.exp() * grad.to(output.dtype))"
                    ".to(output.dtype)"})
def _log_softmax_backward_data(grad_output, output, dim, input_dtype, *, out):
    """The gradient of log_softmax's input from its output's gradient and its output:
    ``grad_output - exp(output) * sum(grad_output, dim)``.

    Example::

        >>> y = torch.log_softmax(torch.tensor([0., 0.]), 0)
        >>> torch._log_softmax_backward_data(torch.tensor([1., 0.]), y, 0, torch.float32)
        tensor([ 0.5000, -0.5000])
    """
    _run_backward("log_softmax_backward", _log_softmax_backward_rows, grad_output, output, dim,
                  out)


register_meta(_log_softmax_backward_data, _backward_meta_key)


# ----------------------------------------------------------------------------------
# The public operators
# ----------------------------------------------------------------------------------
def _converted(self, dtype):
    """`self` in `dtype` when one is asked for (the conversion is recorded by autograd)."""
    return self if dtype is None else to_dtype.call(self, dtype, False, False, None)


def _call(kernel, self, dim, dtype, out):
    converted = _converted(self, dtype)
    if out is None:
        return kernel.call(converted, dim, False)
    return kernel.declaration.overloads[SchemaKind.out].call(converted, dim, False, out)


@composite("softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor", method=True,
           out=True)
def softmax(self, dim, dtype=None, out=None):
    """Softmax along `dim`: ``exp(x_i) / sum_j exp(x_j)``, each slice along `dim` summing
    to 1. Computed with the slice's maximum subtracted first, so large inputs do not
    overflow.

    Args:
        input (Tensor): floating point values.
        dim (int): the dim the probabilities sum along.
        dtype (:class:`torch.dtype`, optional): convert `input` to this dtype first
            (to compute a float16 input in float32, say).

    Example::

        >>> torch.softmax(torch.tensor([[1., 2.], [3., 3.]]), dim=1)
        tensor([[0.2689, 0.7311],
                [0.5000, 0.5000]])
    """
    return _call(_softmax, self, dim, dtype, out)


@composite("log_softmax.int(Tensor self, int dim, ScalarType? dtype=None) -> Tensor",
           method=True, out=True)
def log_softmax(self, dim, dtype=None, out=None):
    """The logarithm of `softmax` along `dim`, computed directly (``x - logsumexp(x)``)
    so that it stays accurate where softmax underflows to 0.

    Args:
        input (Tensor): floating point values.
        dim (int): the dim the softmax normalizes along.
        dtype (:class:`torch.dtype`, optional): convert `input` to this dtype first.

    Example::

        >>> torch.log_softmax(torch.tensor([0., 100.]), dim=0)
        tensor([-100.,    0.])
    """
    return _call(_log_softmax, self, dim, dtype, out)
