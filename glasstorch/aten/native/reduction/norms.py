"""Vector norms: linalg_vector_norm, the aten `norm` overloads, dist, and the Python
function `torch.norm` (and `Tensor.norm`) that routes to them.

``||x||_p = (sum |x|^p)^(1/p)`` over the reduced elements, with the limits torch
takes: p = inf is max |x|, p = -inf is min |x|, p = 0 counts the non-zero elements
(NaN counts), and a negative p gives 0 as soon as one element is 0. The result is
real (a complex input gives its real dtype); float16 / bfloat16 accumulate in
float32. As in torch, `torch.norm` is not an operator but a Python function: 'fro'
(over at most two dims) and numbers go to the vector norm, 'nuc' to the nuclear
norm of a matrix (the sum of its singular values).
"""
from __future__ import annotations

import math

import numpy as np

from ....c10.dtype import scalar_type_name, type_meta_name
from ....c10.promotion import promote_types
from ...derivatives import derivative_helper, sum_to
from ...dispatcher import ops
from ...meta.reduction import reduced_shape, reduction_dims
from ...meta.shape import broadcast_shapes, wrap_dim
from ...registry import TensorMeta, op
from ...schema import SchemaKind
from .sum import (accumulation, axes, given_dtype, reduced_dims, restore_reduced_dims,
                  write)


# ----------------------------------------------------------------------------------
# The meta rule and the kernel shared by every vector norm
# ----------------------------------------------------------------------------------
def _check_norm_dtypes(name: str, self, dtype) -> None:
    """The input must be inexact; a `dtype=` must be inexact, of the input's kind, and
    at least as wide (torch's vector_norm and matrix_norm checks, in its order)."""
    where = "linalg.vector_norm" if name == "norm" else name   # norm's dtype= goes there
    if not (self._dtype.is_floating_point or self._dtype.is_complex):
        if name == "norm":
            raise RuntimeError(f"norm(): input dtype should be either floating point or "
                               f"complex. Got {scalar_type_name(self._dtype)} instead.")
        raise RuntimeError(f"{where}: Expected a floating point or complex tensor as input. "
                           f"Got {scalar_type_name(self._dtype)}")
    if dtype is None:
        return
    prefix = f"{where}:"
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"{prefix} dtype should be floating point or complex, but got "
                           f"{scalar_type_name(dtype)}")
    if self._dtype.is_complex != dtype.is_complex:
        kind = "complex" if self._dtype.is_complex else "real"
        raise RuntimeError(f"{prefix} dtype should be {kind} for {kind} inputs, but got "
                           f"{scalar_type_name(dtype)}")
    if promote_types(self._dtype, dtype) is not dtype:
        raise RuntimeError(f"{prefix} the dtype of the input ({scalar_type_name(self._dtype)}) "
                           f"should be convertible without narrowing to the specified dtype "
                           f"({scalar_type_name(dtype)})")


def _check_identity(self, ord, dim) -> tuple:
    """inf / -inf norms (max and min) have no identity: refuse to reduce nothing."""
    dims = reduction_dims(dim, len(self._size))
    if self.numel() or not (isinstance(ord, (int, float)) and math.isinf(ord)):
        return dims
    which = "inf" if ord > 0 else "-inf"
    whole = dim is None or (not isinstance(dim, int) and len(dim) == 0)
    if whole:
        raise RuntimeError(f"linalg.vector_norm cannot compute the {which} norm on an empty "
                           f"tensor because the operation does not have an identity")
    for d in dims:
        if self._size[d] == 0:
            raise RuntimeError(f"linalg.vector_norm cannot compute the {which} norm on the "
                               f"dimension {d}because this dimension is empty and the "
                               f"operation does not have an identity")
    return dims


def _filled_from_out(self, dtype, out) -> bool:
    """Whether `dtype` is (most likely) out='s, filled in by the registry rather than
    given: a dtype that could not have been asked for. A wider float that equals
    out='s is taken as given, so ``dtype=torch.float32, out=...`` of a float16
    input works (torch would refuse that out= without `dtype`)."""
    if out is None or dtype is not out._dtype:
        return False
    inexact = dtype.is_floating_point or dtype.is_complex
    return not inexact or dtype.is_complex != self._dtype.is_complex or \
        dtype is self._dtype.to_real()


def vector_norm_meta(self, ord=2, dim=None, keepdim=False, dtype=None, out=None,
                     name="linalg.vector_norm"):
    """The result of a vector norm: real, of `dtype` (or the input's) precision."""
    if _filled_from_out(self, dtype, out):
        dtype = None
    _check_norm_dtypes(name, self, dtype)
    dims = _check_identity(self, 2 if ord is None else ord, dim)
    result = (self._dtype if dtype is None else dtype).to_real()
    if out is not None and out._dtype is not result:
        raise RuntimeError(f"Expected out tensor to have dtype {type_meta_name(result)}, but "
                           f"got {type_meta_name(out._dtype)} instead")
    return TensorMeta(reduced_shape(self._size, dims, keepdim), result)


def vector_norm_into(out: np.ndarray, x: np.ndarray, ord, dim, keepdim: bool, dtype) -> None:
    """Write the `ord`-norm of `x` over `dim` into `out` (see the module docstring)."""
    ord = 2.0 if ord is None else float(ord.real if isinstance(ord, complex) else ord)
    if dtype is not None and x.dtype != dtype._np:
        x = x.astype(dtype._np)
    wide = accumulation(x.dtype)
    magnitude = np.abs(x if wide == x.dtype else x.astype(wide))
    axis = axes(x, dim)
    if ord == math.inf:
        value = np.maximum.reduce(magnitude, axis=axis, keepdims=keepdim)
    elif ord == -math.inf:
        value = np.minimum.reduce(magnitude, axis=axis, keepdims=keepdim)
    elif ord == 0:
        value = np.add.reduce(magnitude != 0, axis=axis, keepdims=keepdim,
                              dtype=magnitude.dtype)
    elif ord == 1:
        value = np.add.reduce(magnitude, axis=axis, keepdims=keepdim)
    elif ord == 2:
        squares = np.multiply(magnitude, magnitude, out=magnitude) if magnitude.ndim else \
            magnitude * magnitude
        value = np.sqrt(np.add.reduce(squares, axis=axis, keepdims=keepdim))
    else:
        powered = np.add.reduce(magnitude ** ord, axis=axis, keepdims=keepdim)
        value = powered ** (1.0 / ord)
    write(out, value)


# ----------------------------------------------------------------------------------
# linalg_vector_norm and the aten norm overloads
# ----------------------------------------------------------------------------------
@derivative_helper
def norm_backward(grad, self, p, result, dim=None, keepdim: bool = False):
    """The gradient of ||x||_p, per order: 0 has none; 1 is sgn(x); 2 is x / ||x||;
    inf / -inf share it among the extreme elements; others |x|^(p-1) sgn(x) / ||x||^(p-1)."""
    p = 2.0 if p is None else float(p)
    sizes = tuple(self.shape)
    grad = restore_reduced_dims(grad, dim, sizes, keepdim)
    norm = restore_reduced_dims(result, dim, sizes, keepdim)
    if p == 0:
        return None                        # torch leaves the gradient undefined
    if p == 1:
        return self.sgn() * grad
    # a zero norm divides by one instead, so that no derivative of this formula (a
    # tangent is one) meets 0/0 where the masked_fill drops the term
    zero = norm == 0
    safe_norm = norm.masked_fill(zero, 1)
    if p == 2:
        return self * (grad / safe_norm).masked_fill(zero, 0)
    if math.isinf(p):
        # the extreme elements share it; a NaN norm came from the NaN elements
        mask = (self.abs() == norm) | (self.isnan() & norm.isnan())
        count = mask.sum(reduced_dims(dim, len(sizes)), keepdim=True)
        return self.sgn() * mask * (grad / count)
    if p < 1:                              # |x|^(p-1) is infinite at x = 0: its term is 0
        magnitude = self.abs().pow(p - 1).masked_fill(self == 0, 0)
        return self.sgn() * magnitude * grad * norm.pow(1 - p)
    scale = self.abs().pow(p - 1) * grad / safe_norm.pow(p - 1)
    return (self.sgn() * scale).masked_fill(zero, 0)


_NORM_GRAD = {"self": "norm_backward(grad, self, p, result, dim, keepdim)"}
_WHOLE_NORM_GRAD = {"self": "norm_backward(grad, self, p, result)"}


@op("linalg_vector_norm(Tensor self, Scalar ord=2, int[1]? dim=None, bool keepdim=False, *, "
    "ScalarType? dtype=None) -> Tensor", meta=vector_norm_meta, out=True, python_module="linalg",
    grad={"self": "norm_backward(grad, self, ord, result, dim, keepdim)"})
def linalg_vector_norm(self, ord, dim, keepdim, dtype, *, out):
    """The vector `ord`-norm of `x` over `dim` (every dim when None); `torch.norm`
    routes here too.

    Args:
        x (Tensor): the values (floating point or complex).
        ord (Number): the order (inf, -inf and 0 included).
        dim (int or tuple of ints, optional): the dims to reduce.
        keepdim (bool): keep the reduced dims, with size 1.
        dtype (torch.dtype, optional): compute (and answer) in this wider dtype.

    Example::

        >>> torch.linalg.vector_norm(torch.tensor([3., 4.]))
        tensor(5.)
    """
    vector_norm_into(out, self, ord, dim, keepdim, dtype)


def _norm_meta(self, p=2, dim=None, keepdim=False, dtype=None, out=None):
    if dtype is not None and dtype.is_complex and given_dtype(dtype, out) is not None:
        # torch's norm makes its result in `dtype` and hands it to vector_norm as out=
        raise RuntimeError(f"Expected out tensor to have dtype "
                           f"{type_meta_name(dtype.to_real())}, but got "
                           f"{type_meta_name(dtype)} instead")
    # the dtype overloads go to vector_norm before checking anything themselves
    name = "norm" if dtype is None else "linalg.vector_norm"
    return vector_norm_meta(self, p, dim, keepdim, dtype, out, name=name)


def _whole_norm_meta(self, p=2, out=None):
    return _norm_meta(self, p, out=out)


def _dim_norm_meta(self, p, dim, keepdim=False, out=None):
    return _norm_meta(self, p, dim, keepdim, out=out)


def _dtype_norm_meta(self, p, dtype, out=None):
    return _norm_meta(self, p, None, False, dtype, out)


def _declare_norms():
    """The four aten `norm` overloads; Python reaches them through `torch.norm`."""
    def with_dim(self, p, dim, keepdim, *, out):
        vector_norm_into(out, self, p, dim, keepdim, None)

    def with_dim_dtype(self, p, dim, keepdim, dtype, *, out):
        vector_norm_into(out, self, p, dim, keepdim, dtype)

    def whole(self, p, *, out):
        vector_norm_into(out, self, p, None, False, None)

    def whole_dtype(self, p, dtype, *, out):
        vector_norm_into(out, self, p, None, False, dtype)
    for kernel in (with_dim, with_dim_dtype, whole, whole_dtype):
        kernel.__doc__ = norm_function.__doc__
    common = {"function": False, "out": True, "grad": _NORM_GRAD}
    return (
        op("norm.Scalar(Tensor self, Scalar p=2) -> Tensor", meta=_whole_norm_meta,
           function=False, out=True, grad=_WHOLE_NORM_GRAD)(whole),
        op("norm.ScalarOpt_dim(Tensor self, Scalar? p, int[1] dim, bool keepdim=False) -> "
           "Tensor", meta=_dim_norm_meta, out_overload="out", **common)(with_dim),
        op("norm.ScalarOpt_dim_dtype(Tensor self, Scalar? p, int[1] dim, bool keepdim, *, "
           "ScalarType dtype) -> Tensor", meta=_norm_meta, out_overload="dtype_out",
           **common)(with_dim_dtype),
        op("norm.ScalarOpt_dtype(Tensor self, Scalar? p, *, ScalarType dtype) -> Tensor",
           meta=_dtype_norm_meta, function=False, out=True, grad=_WHOLE_NORM_GRAD)(
               whole_dtype),
    )


# ----------------------------------------------------------------------------------
# dist
# ----------------------------------------------------------------------------------
def _dist_meta(self, other, p=2, out=None):
    broadcast_shapes(self._size, other._size)          # only checked: one number results
    dtype = promote_types(self._dtype, other._dtype)
    if not (dtype.is_floating_point or dtype.is_complex):
        raise RuntimeError(f"norm(): input dtype should be either floating point or complex. "
                           f"Got {scalar_type_name(dtype)} instead.")
    if out is not None and out._dtype is not dtype.to_real():
        raise RuntimeError(f"Expected out tensor to have dtype "
                           f"{type_meta_name(dtype.to_real())}, but got "
                           f"{type_meta_name(out._dtype)} instead")
    return TensorMeta((), dtype.to_real())


@derivative_helper
def dist_backward(grad, self, other, p, result, sizes):
    """dist = norm(self - other): norm's gradient summed back to one input's `sizes`
    (pass ``-grad`` for `other`); undefined for p = 0, as torch's."""
    found = norm_backward(grad, self - other, p, result)
    return None if found is None else sum_to(found, sizes)


@op("dist(Tensor self, Tensor other, Scalar p=2) -> Tensor", meta=_dist_meta, method=True,
    out=True, bind_out=False,                # torch's Python `dist` takes no out=
    grad={"self": "dist_backward(grad, self, other, p, result, self_sym_sizes)",
          "other": "dist_backward(-grad, self, other, p, result, other_sym_sizes)"})
def dist(self, other, p, *, out):
    """The `p`-norm of ``input - other`` (broadcast), over every element.

    Args:
        input (Tensor): the first tensor.
        other (Tensor): the second tensor.
        p (Number): the order of the norm (inf, -inf and 0 included).

    Example::

        >>> torch.dist(torch.tensor([1., 2.]), torch.tensor([4., 6.]))
        tensor(5.)
    """
    common = np.result_type(self, other)
    difference = np.subtract(self, other, dtype=common)
    vector_norm_into(out, difference, p, None, False, None)



# ----------------------------------------------------------------------------------
# torch.norm: the Python function
# ----------------------------------------------------------------------------------
def norm_function(input, p="fro", dim=None, keepdim=False, out=None, dtype=None):
    """The norm of `input`: a vector norm over `dim`, or a matrix norm ('nuc').

    Args:
        input (Tensor): the values (floating point or complex).
        p (Number or str): the order: a number (inf, -inf and 0 included), 'fro' (the
            2-norm of the elements) or 'nuc' (the sum of a matrix's singular values).
        dim (int or tuple of ints, optional): the dims to reduce (all when None); two
            dims for 'nuc'.
        keepdim (bool): keep the reduced dims, with size 1.
        out (Tensor, optional): the result's tensor.
        dtype (torch.dtype, optional): compute (and answer) in this dtype.

    Example::

        >>> torch.norm(torch.tensor([[3., 0.], [0., 4.]]))
        tensor(5.)
        >>> torch.norm(torch.tensor([[3., 0.], [0., 4.]]), p=1, dim=1)
        tensor([3., 4.])
    """
    dims = [dim] if isinstance(dim, int) else dim
    if isinstance(p, str):
        if p == "fro" and (dims is None or len(dims) <= 2):
            return _vector_norm(input, 2, dims, keepdim, dtype, out)
        return _matrix_norm(input, p, list(range(input.dim())) if dims is None else dims,
                            keepdim, dtype, out)
    return _vector_norm(input, 2.0 if p is None else p, dims, keepdim, dtype, out)


norm_function.__name__ = norm_function.__qualname__ = "norm"


def tensor_norm(self, p="fro", dim=None, keepdim=False, dtype=None):
    """`torch.norm` of this tensor (see `torch.norm`)."""
    return norm_function(self, p, dim, keepdim, dtype=dtype)


tensor_norm.__name__ = "norm"
tensor_norm.__qualname__ = "Tensor.norm"


def _vector_norm(input, ord, dims, keepdim, dtype, out):
    return _call(linalg_vector_norm, (input, ord, dims, keepdim, dtype), out)


def _matrix_norm(input, ord, dims, keepdim, dtype, out):
    return _call(linalg_matrix_norm, (input, ord, dims, keepdim, dtype), out)


def _call(functional, args: tuple, out):
    """A norm operator's functional overload, or its out= overload when `out` is given."""
    if out is None:
        return functional.call(*args)
    return functional.declaration.overloads[SchemaKind.out].call(*args, out)


# ----------------------------------------------------------------------------------
# linalg_matrix_norm: torch.norm's 'nuc'
# ----------------------------------------------------------------------------------
def _matrix_norm_meta(self, ord="fro", dim=(-2, -1), keepdim=False, dtype=None, out=None):
    """torch's checks, in its order: the order, a matrix, its dtype (no float16 / bfloat16
    for 'nuc'), two distinct dims, `dtype=`, out='s dtype."""
    where = "linalg.matrix_norm:"
    if ord not in ("fro", "nuc"):
        raise RuntimeError(f"{where} Order {ord} not supported.")
    if self.dim() < 2:
        raise RuntimeError(f"{where} The input tensor A must have at least 2 dimensions.")
    _check_norm_dtypes("linalg.matrix_norm", self, None)
    if ord == "nuc" and self._dtype.itemsize == 2:
        raise RuntimeError(f"{where} Low precision dtypes not supported. Got "
                           f"{scalar_type_name(self._dtype)}")
    if len(dim) != 2:
        raise RuntimeError(f"{where} dim must be a 2-tuple. Got {' '.join(map(str, dim))}")
    rows, columns = (wrap_dim(d, self.dim()) for d in dim)
    if rows == columns:
        raise RuntimeError(f"{where} dims must be different. Got ({rows}, {columns})")
    if _filled_from_out(self, dtype, out):
        dtype = None
    _check_norm_dtypes("linalg.matrix_norm", self, dtype)
    result = (self._dtype if dtype is None else dtype).to_real()
    if out is not None and out._dtype is not result:
        raise RuntimeError(f"linalg.matrix_norm expected out tensor dtype "
                           f"{scalar_type_name(result)} but got: {scalar_type_name(out._dtype)}")
    return TensorMeta(reduced_shape(self._size, (rows, columns), keepdim), result)


@derivative_helper
def matrix_norm_backward(grad, self, result, ord: str, dim, keepdim: bool):
    """'fro': the 2-norm's gradient over both dims; 'nuc': ``d sum(S) = Re tr(U^H dA V)``,
    so ``gA = g U V^H`` (the SVD's, through `_linalg_svd`)."""
    if ord == "fro":
        return norm_backward(grad, self, 2, result, dim, keepdim)
    rows, columns = reduction_dims(dim, self.dim())
    moved = self.movedim((rows, columns), (-2, -1))
    U, _, Vh = ops.aten._linalg_svd.default(moved, False, True)
    scale = restore_reduced_dims(grad, dim, tuple(self.shape), keepdim)
    return U.matmul(Vh).movedim((-2, -1), (rows, columns)) * scale


@op("linalg_matrix_norm.str_ord(Tensor self, str ord='fro', int[] dim=[-2,-1], "
    "bool keepdim=False, *, ScalarType? dtype=None) -> Tensor", meta=_matrix_norm_meta,
    python_module="linalg", out=True, out_overload="str_ord_out",
    grad={"self": "matrix_norm_backward(grad, self, result, ord, dim, keepdim)"})
def linalg_matrix_norm(self, ord, dim, keepdim, dtype, *, out):
    """The matrix norm of `self` over the two dims `dim`: 'fro' (the 2-norm of the
    elements) or 'nuc' (the sum of the singular values, by NumPy's SVD). torch.norm
    reaches it for 'nuc'."""
    if ord == "fro":
        vector_norm_into(out, self, 2, dim, keepdim, dtype)
        return
    rows, columns = reduction_dims(dim, self.ndim)
    values = self if dtype is None else self.astype(dtype._np)
    moved = np.moveaxis(values, (rows, columns), (-2, -1))
    total = np.linalg.svd(moved, compute_uv=False).sum(-1)
    write(out, np.expand_dims(total, tuple(sorted((rows, columns)))) if keepdim else total)


norm_scalar, norm_dim, norm_dim_dtype, norm_dtype = _declare_norms()
