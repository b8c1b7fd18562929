"""Products written in other operators: matmul's rank rules, inner, outer/ger,
tensordot, linalg.multi_dot / chain_matmul, and nn.functional's linear and bilinear.

All are composites (ATen's CompositeImplicitAutograd): they check their arguments,
reshape and permute with views, and reach BLAS through `mm`, `bmm`, `mv` and `dot`
(`blas.py`), so autograd differentiates them through those. The `out=` forms hand
`out` to the operator that writes the result (``mm.out``, ``bmm.out``...), as torch's
``_matmul_impl`` does; where the result is computed first (`tensordot`), it is copied.

The Python functions at the end are torch.functional's front ends (`torch.einsum`,
`torch.tensordot`, `torch.chain_matmul`), which accept what the schemas cannot:
variadic operands, ``dims`` as an int or a pair of lists.
"""
from __future__ import annotations

import math
import warnings

from ....c10.dtype import type_meta_name, scalar_type_name
from ....c10.layout import contiguous_format
from ....c10.tensor_impl import TensorBase, share_storage
from ...dispatcher import ops
from ...meta.shape import broadcast_shapes, wrap_dims
from ...registry import TensorMeta, prepare_out, composite
from ...schema import SchemaKind
from .addmm import addmm
from .blas import bmm, dot, mm, mv
from ..creation.copy import clone, contiguous, copy_
from ..shape.shape import _caller_stacklevel, reshape
from ..shape.view import expand, permute, squeeze_dim, t, transpose, unsafe_view, unsqueeze

_aten = ops.aten


def resize_out(out, shape: tuple) -> None:
    """Resize an out= tensor to the result's shape, warning as torch's resize_output does."""
    prepare_out(_aten.matmul.out, out, TensorMeta(tuple(shape), out._dtype))


def _into(op, args: tuple, out):
    """The operator `op` on `args`, or its out= overload writing `out` when one is given."""
    if out is None:
        return op.call(*args)
    return op.declaration.overloads[SchemaKind.out].call(*args, out)


# ----------------------------------------------------------------------------------
# matmul
# ----------------------------------------------------------------------------------
def _should_fold(tensor1, tensor2, has_out: bool) -> bool:
    """Whether the larger operand can be folded into a matrix (one mm instead of bmm)
    without copying it (torch's heuristic, kept because it decides the result's
    strides and the error messages)."""
    dim1, dim2 = len(tensor1._size), len(tensor2._size)
    if not (max(dim1, dim2) >= 3 and min(dim1, dim2) <= 2):
        return False
    larger_first = dim1 >= dim2
    big = tensor1 if larger_first else tensor2.mT
    small = tensor2 if larger_first else tensor1
    if small.requires_grad and not has_out:      # folding saves a large gradient buffer
        return True
    if tensor1.dim() == 2:
        return False
    if big.numel() == 0:
        return True
    sizes, strides = big._size, big._stride
    return all(strides[i] == strides[i + 1] * sizes[i + 1] for i in range(big.dim() - 2))


def _matmul_folded(tensor1, tensor2, out):
    """N-D @ 1-D/2-D (or the mirror image): fold the batch dims into the matrix rows."""
    transposed = tensor2.dim() > tensor1.dim()
    big = tensor2.mT if transposed else tensor1
    small = (t.call(tensor1) if tensor1.dim() == 2 else tensor1) if transposed else tensor2
    output_shape = big._size[:-1]
    rows = math.prod(output_shape)
    small_is_matrix = small.dim() == 2
    if small_is_matrix:
        output_shape += (small._size[1],)
    folded = reshape.call(big, (rows, big._size[-1]))
    if out is None:
        if not small_is_matrix:
            return unsafe_view.call(mv.call(folded, small), output_shape)
        output = unsafe_view.call(mm.call(folded, small), output_shape)
        return contiguous.call(output.mT, contiguous_format) if transposed else output
    resize_out(out, output_shape)
    target = reshape.call(out, (rows, small._size[-1]) if small_is_matrix else (rows,))
    _into(mm if small_is_matrix else mv, (folded, small), target)
    if not share_storage(target, out):
        copy_.call(out, target, False)
    return out


def _matmul_batched(tensor1, tensor2, out):
    """Broadcast the batch dims, flatten them into one and call bmm."""
    dim1, dim2 = tensor1.dim(), tensor2.dim()
    n = tensor1._size[-2] if dim1 > 1 else 1
    m1 = tensor1._size[-1]
    m2 = tensor2._size[-2] if dim2 > 1 else tensor2._size[0]
    p = tensor2._size[-1] if dim2 > 1 else 1
    batch1, batch2 = tensor1._size[:max(dim1 - 2, 0)], tensor2._size[:max(dim2 - 2, 0)]
    if dim1 == 3 and dim2 == 3 and batch1[0] != batch2[0]:
        # a broadcast batch of one that needs a gradient goes through the fold instead
        if batch1[0] == 1 and tensor1.requires_grad:
            return _into(matmul, (squeeze_dim.call(tensor1, 0), tensor2), out)
        if batch2[0] == 1 and tensor2.requires_grad:
            return _into(matmul, (tensor1, squeeze_dim.call(tensor2, 0)), out)
    batch = broadcast_shapes(batch1, batch2)
    count = math.prod(batch)
    left = _reshaped(_expanded(tensor1, batch, (n, m1)), (count, n, m1))
    vector_rhs = dim2 == 1
    if vector_rhs:
        right = unsqueeze.call(_reshaped(_expanded(tensor2, batch, (m2,)), (count, m2)), 2)
    else:
        right = _reshaped(_expanded(tensor2, batch, (m2, p)), (count, m2, p))
    output_shape = batch + ((n,) if dim1 > 1 else ()) + ((p,) if dim2 > 1 else ())
    if out is None:
        product = bmm.call(left, right)
        if vector_rhs:
            return unsafe_view.call(squeeze_dim.call(product, -1), output_shape)
        # a 3-D batch is already the result: bmm's fresh tensor, no view to drop
        return product if product._size == output_shape else unsafe_view.call(product,
                                                                               output_shape)
    resize_out(out, output_shape)
    target = reshape.call(out, (count, n, p))
    _aten.bmm.out.call(left, right, target)
    if vector_rhs:
        target = squeeze_dim.call(target, -1)
    if not share_storage(target, out):
        copy_.call(out, reshape.call(target, out._size), False)
    return out


def _reshaped(tensor, shape: tuple):
    """`tensor` reshaped (itself when it already has the shape: a 3-D batch)."""
    return tensor if tensor._size == shape else reshape.call(tensor, shape)


def _expanded(tensor, batch: tuple, matrix: tuple):
    """`tensor` broadcast to ``batch + matrix`` (itself when it already has that shape)."""
    shape = batch + matrix
    return tensor if tensor._size == shape else expand.call(tensor, shape, False)


@composite("matmul(Tensor self, Tensor other) -> Tensor", method=True, out=True)
def matmul(self, other, out=None):
    """The matrix product of two tensors, by their ranks (the ``@`` operator).

    1-D @ 1-D is the dot product; 2-D @ 2-D the matrix product; a 1-D first operand
    is a row (prepended 1 dim, removed after), a 1-D second operand a column; with
    more dims the leading ones are batch dims and broadcast.

    Args:
        input (Tensor): the first operand (at least 1-D).
        other (Tensor): the second operand (at least 1-D), of the same dtype.

    Example::

        >>> torch.matmul(torch.ones(10, 3, 4), torch.ones(4, 5)).shape
        torch.Size([10, 3, 5])
        >>> (torch.ones(3) @ torch.ones(3, 2)).shape
        torch.Size([2])
    """
    dim1, dim2 = len(self._size), len(other._size)
    if dim1 == 0 or dim2 == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are "
                           f"{dim1}D and {dim2}D")
    if dim1 == 1 and dim2 == 1:
        return _into(dot, (self, other), out)
    if dim1 == 2 and dim2 == 1:
        return _into(mv, (self, other), out)
    if dim1 == 1 and dim2 == 2:      # a row times the matrix, then without the row dim
        product = _into(mm, (unsqueeze.call(self, 0), other), out)
        if out is not None:          # torch squeezes the out= tensor itself
            return _aten.squeeze_.dim.call(product, 0)
        return unsafe_view.call(product, product._size[1:])
    if dim1 == 2 and dim2 == 2:
        return _into(mm, (self, other), out)
    if _should_fold(self, other, out is not None):
        return _matmul_folded(self, other, out)
    return _matmul_batched(self, other, out)


@composite("linalg_matmul(Tensor self, Tensor other) -> Tensor", out=True,
           python_module="linalg")
def linalg_matmul(self, other, out=None):
    """`torch.matmul` under its torch.linalg name."""
    return _into(matmul, (self, other), out)


# ----------------------------------------------------------------------------------
# inner, outer, tensordot
# ----------------------------------------------------------------------------------
@composite("inner(Tensor self, Tensor other) -> Tensor", method=True, out=True)
def inner(self, other, out=None):
    """Sum of products over the last dim of both tensors (a product if either is 0-dim).

    Args:
        input (Tensor): the first operand.
        other (Tensor): the second operand; its last dim matches `input`'s.

    Returns:
        Tensor: of shape ``input.shape[:-1] + other.shape[:-1]``.

    Example::

        >>> torch.inner(torch.ones(2, 3), torch.ones(4, 3)).shape
        torch.Size([2, 4])
    """
    if self.dim() == 0 or other.dim() == 0:
        return _into(_aten.mul.Tensor, (self, other), out)
    if self._size[-1] != other._size[-1]:
        raise RuntimeError(f"inner() the last dimension must match on both input tensors but "
                           f"got shapes {list(self._size)} and {list(other._size)}")
    return _into(tensordot, (self, other, (-1,), (-1,)), out)


def _check_1d(tensor, name: str, function: str) -> None:
    if tensor.dim() != 1:
        raise RuntimeError(f"{function}: Expected 1-D argument {name}, but got "
                           f"{tensor.dim()}-D")


@composite("outer(Tensor self, Tensor vec2) -> Tensor", method=True, out=True)
def outer(self, vec2, out=None):
    """The outer product of two vectors: ``out[i, j] = input[i] * vec2[j]``.

    The operands are promoted to a common dtype, as by multiplication.

    Example::

        >>> torch.outer(torch.tensor([1., 2.]), torch.tensor([1., 10., 100.]))
        tensor([[  1.,  10., 100.],
                [  2.,  20., 200.]])
    """
    _check_1d(self, "self", "outer")
    _check_1d(vec2, "vec2", "outer")
    return _into(_aten.mul.Tensor, (reshape.call(self, (self._size[0], 1)), vec2), out)


@composite("ger(Tensor self, Tensor vec2) -> Tensor", method=True, out=True)
def ger(self, vec2, out=None):
    """The old name of `torch.outer` (its out= form warns that it is deprecated)."""
    if out is not None:
        warnings.warn("torch.ger is deprecated and will be removed in a future PyTorch "
                      "release. Use torch.outer instead.", UserWarning,
                      stacklevel=_caller_stacklevel())
    return _into(outer, (self, vec2), out)


def _sum_keepdim(tensor, dim: int):
    """The sum over `dim`, kept, in the tensor's own dtype (integers stay narrow)."""
    return _aten.sum.dim_IntList.call(tensor, [dim], True, tensor._dtype)


@composite("tensordot(Tensor self, Tensor other, int[] dims_self, int[] dims_other) -> Tensor",
           out=True, function=False)
def tensordot(self, other, dims_self, dims_other, out=None):
    """Contract `dims_self` of `input` with `dims_other` of `other` (pairwise), by one
    matrix product. See `torch.tensordot` for the friendlier ``dims=`` form."""
    if len(dims_self) != len(dims_other):
        raise RuntimeError("both dimension lists should have same length")
    if self._dtype is not other._dtype:
        raise RuntimeError("both inputs should have same dtype")
    left, right, contracted = self, other, 1
    for d1, d2 in zip(dims_self, dims_other):
        s1, s2 = self.size(d1), other.size(d2)
        if s2 == 1:                 # a broadcast dim contributes its sum
            left = _sum_keepdim(left, d1)
        elif s1 == 1:
            right = _sum_keepdim(right, d2)
        elif s1 != s2:
            raise RuntimeError(f"contracted dimensions need to match, but first has size {s1} "
                               f"in dim {d1} and second has size {s2} in dim {d2}")
        else:
            contracted *= s1
    kept1 = [d for d in range(self.dim()) if d not in wrap_dims(dims_self, self.dim())]
    kept2 = [d for d in range(other.dim()) if d not in wrap_dims(dims_other, other.dim())]
    sizes1, sizes2 = [left._size[d] for d in kept1], [right._size[d] for d in kept2]
    left = reshape.call(permute.call(left, kept1 + list(dims_self)),
                        (math.prod(sizes1), contracted))
    right = reshape.call(permute.call(right, list(dims_other) + kept2),
                         (contracted, math.prod(sizes2)))
    result = reshape.call(mm.call(left, right), sizes1 + sizes2)
    if out is None:
        return result
    if result._dtype is not out._dtype:
        raise RuntimeError(f"tensordot: Expected the output tensor to have dtype "
                           f"{scalar_type_name(result._dtype)}, but got an output tensor with "
                           f"dtype {scalar_type_name(out._dtype)}")
    resize_out(out, result._size)
    return copy_.call(out, result, False)


# ----------------------------------------------------------------------------------
# Chains of products
# ----------------------------------------------------------------------------------
def _chain_order(matrices) -> list:
    """split[i][j]: where the cheapest product of matrices i..j splits (dynamic
    programming over the chain, cost of (p x q) @ (q x r) = p * q * r)."""
    count = len(matrices)
    sizes = [m._size[0] for m in matrices] + [matrices[-1]._size[1]]
    cost = [[0] * count for _ in range(count)]
    split = [[0] * count for _ in range(count)]
    for length in range(1, count):
        for i in range(count - length):
            j = i + length
            cost[i][j] = None
            for k in range(i, j):
                candidate = cost[i][k] + cost[k + 1][j] + sizes[i] * sizes[k + 1] * sizes[j + 1]
                if cost[i][j] is None or candidate < cost[i][j]:
                    cost[i][j], split[i][j] = candidate, k
    return split


def _chain_product(matrices, split, i: int, j: int, out=None):
    if i == j:
        return matrices[i]
    left = _chain_product(matrices, split, i, split[i][j])
    right = _chain_product(matrices, split, split[i][j] + 1, j)
    return _into(mm, (left, right), out)


def _multi_dot_operands(tensors) -> tuple:
    """The operands as matrices (a 1-D first/last one as a row/column) and the shape
    of the result; torch's checks."""
    count = len(tensors)
    if count < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {count}")
    first, last = tensors[0], tensors[-1]
    for tensor, which in ((first, "first"), (last, "last")):
        if tensor.dim() not in (1, 2):
            raise RuntimeError(f"multi_dot(): the {which} tensor must be 1D or 2D but got "
                               f"{tensor.dim()}D")
    for i in range(1, count - 1):
        if tensors[i].dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got "
                               f"{tensors[i].dim()}D")
    matrices = list(tensors)
    matrices[0] = unsqueeze.call(first, 0) if first.dim() == 1 else first
    matrices[-1] = unsqueeze.call(last, -1) if last.dim() == 1 else last
    shape = (first._size[0],) * (first.dim() == 2) + (last._size[-1],) * (last.dim() == 2)
    for i in range(1, count):
        if matrices[i]._dtype is not matrices[0]._dtype:
            raise RuntimeError(f"multi_dot(): all tensors must have be the same dtype but "
                               f"tensor 0 is {type_meta_name(matrices[0]._dtype)} and tensor "
                               f"{i} {type_meta_name(matrices[i]._dtype)}")
        if matrices[i - 1]._size[-1] != matrices[i]._size[0]:
            raise RuntimeError(f"multi_dot(): tensors {i - 1} and {i} with shapes "
                               f"{list(tensors[i - 1]._size)} and {list(tensors[i]._size)} "
                               f"cannot be multiplied")
    return matrices, shape


@composite("linalg_multi_dot(Tensor[] tensors) -> Tensor", out=True, python_module="linalg")
def linalg_multi_dot(tensors, out=None):
    """The product of a chain of matrices, in the order that costs the fewest
    multiplications. The first tensor may be 1-D (a row), the last 1-D (a column).

    Args:
        tensors (sequence of Tensors): two or more tensors of the same dtype.

    Example::

        >>> torch.linalg.multi_dot([torch.ones(2, 3), torch.ones(3, 4), torch.ones(4)])
        tensor([12., 12.])
    """
    matrices, shape = _multi_dot_operands(tensors)
    target = None
    if out is not None:
        if out._dtype is not matrices[0]._dtype:
            raise RuntimeError(f"multi_dot(): expected out tensor to have dtype "
                               f"{type_meta_name(matrices[0]._dtype)} but got "
                               f"{type_meta_name(out._dtype)}")
        resize_out(out, shape)
        target = _aten.view.default.call(out, (matrices[0]._size[0], matrices[-1]._size[1]))
    if len(matrices) == 3:       # torch compares the two orders directly (ties: (AB)C)
        a, b = matrices[0]._size
        c, d = matrices[2]._size
        first_two = (a * c) * (b + d) <= (b * d) * (a + c)
        split = [[0, 0, 1 if first_two else 0], [0, 0, 1], [0, 0, 0]]
    else:
        split = _chain_order(matrices)
    result = _chain_product(matrices, split, 0, len(matrices) - 1, target)
    return out if out is not None else _aten.view.default.call(result, shape)


_CHAIN_WARNED: set = set()


@composite("chain_matmul(Tensor[] matrices) -> Tensor", out=True, function=False)
def chain_matmul(matrices, out=None):
    """The product of a chain of matrices (deprecated: see `torch.linalg.multi_dot`)."""
    if (out is None) not in _CHAIN_WARNED:        # once per overload, as torch warns
        _CHAIN_WARNED.add(out is None)
        warnings.warn("torch.chain_matmul is deprecated and will be removed in a future "
                      "PyTorch release. Use torch.linalg.multi_dot instead, which accepts a "
                      "list of two or more tensors rather than multiple parameters.",
                      UserWarning, stacklevel=_caller_stacklevel())
    for matrix in matrices:
        if matrix.dim() != 2:
            raise RuntimeError(f"Tensor dimension is {matrix.dim()}, expected 2 instead.")
    if not matrices:
        raise RuntimeError("chain_matmul(): Expected one or more matrices")
    if len(matrices) > 1:
        return _into(linalg_multi_dot, (matrices,), out)
    if out is None:
        return clone.call(matrices[0], None)
    resize_out(out, matrices[0]._size)
    return copy_.call(out, matrices[0], False)


# ----------------------------------------------------------------------------------
# nn.functional.linear and bilinear
# ----------------------------------------------------------------------------------
@composite("linear(Tensor input, Tensor weight, Tensor? bias=None) -> Tensor", out=True,
           python_module="nn")
def linear(input, weight, bias=None, out=None):
    """``input @ weight.T + bias``: a fully connected layer.

    Args:
        input (Tensor): ``(*, in_features)``.
        weight (Tensor): ``(out_features, in_features)`` (or ``(in_features,)``).
        bias (Tensor, optional): ``(out_features,)`` or broadcastable to the result.

    Example::

        >>> torch.nn.functional.linear(torch.ones(5, 3), torch.ones(2, 3), torch.ones(2))
        tensor([[4., 4.],
                [4., 4.],
                [4., 4.],
                [4., 4.],
                [4., 4.]])
    """
    if input.dim() == 0 or weight.dim() == 0:
        raise RuntimeError(f"both arguments to linear need to be at least 1D, but they are "
                           f"{input.dim()}D and {weight.dim()}D")
    weight_t = t.call(weight)
    if input.dim() == 2 and bias is not None:       # fused, as BLAS's gemm
        return _into(addmm, (bias, input, weight_t, 1, 1), out)
    if (out is None and bias is not None and input.is_contiguous()
            and (input.dim() == 3 or bias.dim() == 1)):
        return _flatten_linear(input, weight_t, bias)
    output = _into(matmul, (input, weight_t), out)
    if bias is not None:
        _aten.add_.Tensor.call(output, bias, 1)
    return output


def _flatten_linear(input, weight_t, bias):
    """A contiguous input of any rank, its leading dims folded into the rows of one addmm;
    the result a view of the product."""
    leading = input._size[:-1]
    rows = reshape.call(input, (math.prod(leading), input._size[-1]))
    product = addmm.call(bias, rows, weight_t, 1, 1)
    return _aten.view.default.call(product, leading + (product._size[1],))


@composite("bilinear(Tensor input1, Tensor input2, Tensor weight, Tensor? bias=None) -> Tensor")
def bilinear(input1, input2, weight, bias=None):
    """``out[..., o] = sum_ij input1[..., i] * weight[o, i, j] * input2[..., j] + bias[o]``.

    Args:
        input1 (Tensor): ``(*, in1_features)``.
        input2 (Tensor): ``(*, in2_features)``, with the same leading dims.
        weight (Tensor): ``(out_features, in1_features, in2_features)``.
        bias (Tensor, optional): ``(out_features,)``.

    Example::

        >>> torch.bilinear(torch.ones(4, 2), torch.ones(4, 3), torch.ones(5, 2, 3)).shape
        torch.Size([4, 5])
    """
    _check_bilinear(input1, input2, weight, bias)
    out_features, in1, in2 = weight._size
    rows = reshape.call(input1, (-1, in1))
    columns = reshape.call(input2, (-1, in2))
    # x1 @ W (as in1 x (out * in2)), then each row's (out x in2) block @ its x2
    mixed = reshape.call(transpose.call(weight, 0, 1), (1, in1, out_features * in2))
    first = bmm.call(unsqueeze.call(rows, 0), mixed)
    blocks = reshape.call(first, (rows._size[0], out_features, in2))
    result = reshape.call(bmm.call(blocks, unsqueeze.call(columns, 2)),
                          input1._size[:-1] + (out_features,))
    return result if bias is None else _aten.add.Tensor.call(result, bias, 1)


def _check_bilinear(input1, input2, weight, bias) -> None:
    operands = [("input1", input1), ("input2", input2), ("weight", weight)]
    operands += [("bias", bias)] if bias is not None else []
    if any(tensor._dtype is not input1._dtype for _, tensor in operands):
        listed = ", ".join(f"{name}: {type_meta_name(tensor._dtype)}" for name, tensor in operands)
        raise RuntimeError(f"All tensors must have the same dtype, got {listed}")
    if input1.dim() != input2.dim():
        raise RuntimeError(f"bilinear(): input dimensions do not match: got {input1.dim()} "
                           f"and {input2.dim()}")
    for i in range(input1.dim() - 1):
        if input1._size[i] != input2._size[i]:
            raise RuntimeError(f"bilinear(): input batch dimensions do not match at dim {i}: "
                               f"got {input1._size[i]} and {input2._size[i]}")
    for name, tensor, dim in (("input1", input1, 1), ("input2", input2, 2)):
        if tensor._size[-1] != weight._size[dim]:
            raise RuntimeError(f"bilinear(): {name} size does not match weight size: got "
                               f"{tensor._size[-1]} but expected {weight._size[dim]}")
    if bias is not None and bias._size[0] != weight._size[0]:
        raise RuntimeError(f"bilinear(): bias size does not match weight size: got "
                           f"{bias._size[0]} but expected {weight._size[0]}")


# ----------------------------------------------------------------------------------
# torch.functional's front ends
# ----------------------------------------------------------------------------------
def tensordot_function(a, b, dims=2, out=None):
    """Contracts dims of `a` with dims of `b`: a generalized matrix product.

    Args:
        a (Tensor): the left operand.
        b (Tensor): the right operand.
        dims (int or tuple of two lists of ints): an int ``d`` contracts the last ``d``
            dims of `a` with the first ``d`` of `b`; two lists name the dims to contract
            pairwise. Default: 2.
        out (Tensor, optional): the output tensor.

    Example::

        >>> torch.tensordot(torch.ones(3, 4, 5), torch.ones(4, 5, 6)).shape
        torch.Size([3, 6])
        >>> torch.tensordot(torch.ones(3, 4), torch.ones(4, 3), ([0], [1])).shape
        torch.Size([4, 4])
    """
    if isinstance(dims, TensorBase):
        dims = dims.tolist() if dims.numel() > 1 else int(dims.item())
    if isinstance(dims, (tuple, list)):
        dims_a, dims_b = dims
    elif isinstance(dims, int) and not isinstance(dims, bool):
        if dims < 0:
            raise RuntimeError(f"tensordot expects dims >= 0, but got dims={dims}")
        if dims > min(a.dim(), b.dim()):
            raise RuntimeError(f"tensordot expects dims < ndim_a or ndim_b, but got dims={dims}")
        dims_a, dims_b = list(range(-dims, 0)), list(range(dims))
    else:
        raise RuntimeError(f"tensordot expects dims to be int or tuple[list[int], list[int]] or "
                           f"list[list[int]] containing two lists, but got dims={dims}")
    if out is None:
        return tensordot(a, b, dims_a, dims_b)
    return _aten.tensordot.out(a, b, dims_a, dims_b, out=out)


def chain_matmul_function(*matrices, out=None):
    """The product of the matrices, in the cheapest order (deprecated: use
    `torch.linalg.multi_dot`, which takes a list).

    Example::

        >>> torch.chain_matmul(torch.ones(2, 3), torch.ones(3, 4), torch.ones(4, 5)).shape
        torch.Size([2, 5])
    """
    if out is None:
        return chain_matmul(list(matrices))
    return _aten.chain_matmul.out(list(matrices), out=out)
