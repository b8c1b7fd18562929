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
from ....c10.promotion import can_cast, promote_types
from ...meta.reduction import reduced_shape, reduction_dims
from ...meta.shape import broadcast_shapes
from ...registry import TensorMeta, op
from ...schema import SchemaKind
from .sum import accumulation, axes, given_dtype, write


# ----------------------------------------------------------------------------------
# The meta rule and the kernel shared by every vector norm
# ----------------------------------------------------------------------------------
def _check_norm_dtypes(name: str, self, dtype) -> None:
    """The input must be inexact; a `dtype=` must be inexact, of the input's kind, and
    at least as wide (torch's vector_norm checks, in its order)."""
    if not (self._dtype.is_floating_point or self._dtype.is_complex):
        if name == "norm":
            raise RuntimeError(f"norm(): input dtype should be either floating point or "
                               f"complex. Got {scalar_type_name(self._dtype)} instead.")
        raise RuntimeError(f"linalg.vector_norm: Expected a floating point or complex tensor "
                           f"as input. Got {scalar_type_name(self._dtype)}")
    if dtype is None:
        return
    prefix = "linalg.vector_norm:"
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
    if out is None:
        return linalg_vector_norm.call(input, ord, dims, keepdim, dtype)
    written = linalg_vector_norm.declaration.overloads[SchemaKind.out]
    return written.call(input, ord, dims, keepdim, dtype, out)


def _matrix_norm(input, ord, dims, keepdim, dtype, out):
    """The nuclear norm over two dims (computed by NumPy's SVD, on CPU tensors)."""
    from ....c10.tensor_impl import wrap_array
    if ord not in ("fro", "nuc"):
        raise RuntimeError(f"linalg.matrix_norm: Order {ord} not supported.")
    if len(dims) != 2:
        raise RuntimeError(f"linalg.matrix_norm: dim must be a 2-tuple. Got "
                           f"{' '.join(str(d) for d in dims)}")
    _check_norm_dtypes("linalg.matrix_norm", input, dtype)
    rows, columns = (d % max(input.dim(), 1) for d in dims)
    values = input._np.astype(dtype._np) if dtype is not None else input._np
    moved = np.moveaxis(values, (rows, columns), (-2, -1))
    total = np.linalg.svd(moved, compute_uv=False).sum(-1)
    if keepdim:
        total = np.expand_dims(total, tuple(sorted((rows, columns))))
    result = wrap_array(np.array(total, order="C").astype(
        (input.dtype if dtype is None else dtype).to_real()._np), (
            input.dtype if dtype is None else dtype).to_real())
    if out is not None:
        return out.resize_(result.shape).copy_(result)
    _refuse_backward(input, result)
    return result


def _refuse_backward(input, result) -> None:
    """The nuclear norm has no derivative here (it would need SVD's): a result of an
    input that requires grad still requires grad, as torch's does, and backward through
    it raises torch's "not implemented" error instead of silently dropping the term."""
    from ....autograd.grad_mode import is_grad_enabled
    from ....autograd.recording import record_not_implemented
    if input.requires_grad and is_grad_enabled():
        record_not_implemented("linalg_matrix_norm", [input], result)


norm_scalar, norm_dim, norm_dim_dtype, norm_dtype = _declare_norms()
