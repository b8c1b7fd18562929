"""OpInfo entries for the products written in other operators (`aten/native/linalg/matmul.py`,
`einsum.py`): matmul, inner, outer/ger, tensordot, linalg.multi_dot, chain_matmul,
nn.functional.linear and bilinear, einsum.

matmul's samples walk its rank rules (1-D with 1-D, 2-D, N-D; N-D with N-D broadcast
batches; folding into one mm when the strides allow, bmm otherwise) in contiguous,
transposed and strided layouts; einsum's cover ellipses, implicit outputs, repeated
labels (diagonals) and contractions of three operands.
"""
import numpy as np

import glasstorch as gt

from ..core import ErrorInput, OpInfo, SampleInput, make_tensor
from .db_blas import PRODUCT_DTYPES, compute, operand

ALL_PRODUCTS = PRODUCT_DTYPES


def _matmul_ref(a, b):
    with np.errstate(over="ignore"):
        return np.asarray(np.matmul(compute(a), compute(b))).astype(a.dtype)


MATMUL_SHAPES = (((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)),
                 ((2, 3, 4), (4,)), ((4,), (2, 4, 5)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)),
                 ((2, 3, 4), (2, 4, 5)), ((2, 1, 3, 4), (5, 4, 2)), ((1, 3, 4), (2, 4, 5)),
                 ((0, 3, 4), (4, 2)), ((2, 3, 0), (0, 2)), ((3, 0), (2, 0, 4)))


def sample_matmul(dtype):
    for i, (shape_a, shape_b) in enumerate(MATMUL_SHAPES):
        layout_a = ("contiguous", "transposed", "strided")[i % 3]
        if layout_a == "transposed" and (len(shape_a) < 2 or 0 in shape_a):
            layout_a = "contiguous"
        if layout_a == "strided" and 0 in shape_a:
            layout_a = "contiguous"
        yield SampleInput(operand(shape_a, dtype, layout_a), operand(shape_b, dtype, seed=1))
    # a batch that cannot be folded without a copy: bmm path
    yield SampleInput(operand((3, 2, 4), dtype).transpose(0, 1), operand((4, 5), dtype, seed=1))


def errors_matmul():
    f = make_tensor((2, 3), gt.float32)
    yield ErrorInput(SampleInput(make_tensor((), gt.float32), make_tensor((4,), gt.float32)),
                     RuntimeError, r"^both arguments to matmul need to be at least 1D, but they "
                                   r"are 0D and 1D$")
    yield ErrorInput(SampleInput(f, make_tensor((4, 5), gt.float32)), RuntimeError,
                     r"^mat1 and mat2 shapes cannot be multiplied \(2x3 and 4x5\)$",
                     known_bug_on_meta="torch's meta mm words this check differently")
    yield ErrorInput(SampleInput(make_tensor((3, 2, 3), gt.float32),
                                 make_tensor((2, 3, 5), gt.float32)), RuntimeError,
                     r"^The size of tensor a \(3\) must match the size of tensor b \(2\) at "
                     r"non-singleton dimension 0$")


def sample_inner(dtype):
    yield SampleInput(operand((2, 3), dtype), operand((4, 3), dtype, seed=1))
    yield SampleInput(operand((3,), dtype), operand((2, 2, 3), dtype, "transposed", seed=1))
    yield SampleInput(operand((2, 3), dtype), operand((), dtype, seed=1))
    yield SampleInput(operand((0, 3), dtype), operand((3,), dtype, seed=1))


def _inner_ref(a, b):
    if a.ndim == 0 or b.ndim == 0:
        return np.asarray(np.multiply(a, b)).astype(a.dtype)
    with np.errstate(over="ignore"):
        return np.asarray(np.inner(compute(a), compute(b))).astype(a.dtype)


def errors_inner():
    yield ErrorInput(SampleInput(make_tensor((2, 3), gt.float32), make_tensor((4, 2), gt.float32)),
                     RuntimeError, r"^inner\(\) the last dimension must match on both input "
                                   r"tensors but got shapes \[2, 3\] and \[4, 2\]$")


def sample_outer(dtype):
    yield SampleInput(operand((3,), dtype), operand((4,), dtype, "strided", seed=1))
    yield SampleInput(operand((0,), dtype), operand((2,), dtype, seed=1))
    yield SampleInput(operand((1,), dtype), operand((1,), dtype).expand(3))


def _outer_ref(a, b):
    return np.multiply.outer(a, b).astype(np.result_type(a, b))


def errors_outer():
    yield ErrorInput(SampleInput(make_tensor((2, 3), gt.float32), make_tensor((2,), gt.float32)),
                     RuntimeError, r"^outer: Expected 1-D argument self, but got 2-D$")


def sample_tensordot(dtype):
    a = operand((2, 3, 4), dtype)
    yield SampleInput(a, operand((3, 4, 5), dtype, seed=1), [1, 2], [0, 1])
    yield SampleInput(a, operand((4, 3), dtype, "transposed", seed=1), [1, 2], [1, 0])
    yield SampleInput(a, operand((5,), dtype, seed=1), [], [])
    yield SampleInput(a, operand((1, 2), dtype, seed=1), [-1, 0], [0, 1])


def _tensordot_ref(a, b, dims_a, dims_b):
    for d, e in zip(dims_a, dims_b):         # a size-1 dim contributes its partner's sum
        if b.shape[e] == 1:
            a = compute(a).sum(axis=d, keepdims=True).astype(a.dtype)
        elif a.shape[d] == 1:
            b = compute(b).sum(axis=e, keepdims=True).astype(b.dtype)
    with np.errstate(over="ignore"):
        return np.tensordot(compute(a), compute(b), (dims_a, dims_b)).astype(a.dtype)


def errors_tensordot():
    a = make_tensor((2, 3, 4), gt.float32)
    yield ErrorInput(SampleInput(a, make_tensor((3, 5, 5), gt.float32), [1, 2], [0, 1]),
                     RuntimeError, r"^contracted dimensions need to match, but first has size 4 "
                                   r"in dim 2 and second has size 5 in dim 1$")
    yield ErrorInput(SampleInput(a, make_tensor((3, 4), gt.float64), [1, 2], [0, 1]),
                     RuntimeError, r"^both inputs should have same dtype$")
    yield ErrorInput(SampleInput(a, make_tensor((3, 4), gt.float32), [1, 2], [0]),
                     RuntimeError, r"^both dimension lists should have same length$")


def sample_multi_dot(dtype):
    yield SampleInput([operand((2, 3), dtype), operand((3, 4), dtype, "transposed", seed=1)])
    yield SampleInput([operand((3,), dtype), operand((3, 4), dtype, seed=1),
                       operand((4,), dtype, seed=2)])
    # the cheapest order of this chain is left to right, as the reference multiplies
    yield SampleInput([operand((2, 3), dtype), operand((3, 4), dtype, seed=1),
                       operand((4, 5), dtype, seed=2), operand((5, 6), dtype, seed=3)])
    yield SampleInput([operand((2, 5), dtype), operand((5, 1), dtype, seed=1),
                       operand((1, 4), dtype, seed=2)])


def _multi_dot_ref(tensors):
    """Left to right, each partial product rounded to the dtype as torch's mm rounds it
    (the samples' chains cost the same either way, or are ordered left to right)."""
    result = tensors[0]
    for t in tensors[1:]:
        with np.errstate(over="ignore"):
            result = np.asarray(np.dot(compute(result), compute(t))).astype(t.dtype)
    return result


def errors_multi_dot():
    f = make_tensor((2, 2), gt.float32)
    yield ErrorInput(SampleInput([f]), RuntimeError,
                     r"^multi_dot\(\): expected at least 2 tensors but got 1$")
    yield ErrorInput(SampleInput([make_tensor((2, 2, 2), gt.float32), f]), RuntimeError,
                     r"^multi_dot\(\): the first tensor must be 1D or 2D but got 3D$")
    yield ErrorInput(SampleInput([f, make_tensor((2, 2), gt.float64)]), RuntimeError,
                     r"^multi_dot\(\): all tensors must have be the same dtype but tensor 0 is "
                     r"float and tensor 1 double$")
    yield ErrorInput(SampleInput([make_tensor((2, 3), gt.float32), f]), RuntimeError,
                     r"^multi_dot\(\): tensors 0 and 1 with shapes \[2, 3\] and \[2, 2\] cannot "
                     r"be multiplied$")


def sample_chain_matmul(dtype):
    # (a single matrix is cloned, or copied into out= with a cast: in test_matmul.py)
    yield SampleInput([operand((2, 3), dtype), operand((3, 4), dtype, seed=1),
                       operand((4, 5), dtype, seed=2)])


def errors_chain_matmul():
    yield ErrorInput(SampleInput([]), RuntimeError,
                     r"^chain_matmul\(\): Expected one or more matrices$")
    yield ErrorInput(SampleInput([make_tensor((2,), gt.float32), make_tensor((2, 2), gt.float32)]),
                     RuntimeError, r"^Tensor dimension is 1, expected 2 instead.$")


def sample_linear(dtype):
    weight = operand((2, 3), dtype, seed=1)
    bias = operand((2,), dtype, seed=2)
    yield SampleInput(operand((4, 3), dtype), weight, bias)
    yield SampleInput(operand((4, 3), dtype, "transposed"), weight)
    yield SampleInput(operand((2, 4, 3), dtype), weight, bias)
    yield SampleInput(operand((4, 2, 3), dtype).transpose(0, 1), weight, bias)
    yield SampleInput(operand((3,), dtype), weight, bias)
    yield SampleInput(operand((4, 3), dtype), operand((3,), dtype, seed=1))


def _linear_ref(x, w, b=None):
    with np.errstate(over="ignore"):
        result = np.matmul(compute(x), compute(w).T)
        if b is not None:
            result = result + compute(b)
    return np.asarray(result).astype(x.dtype)


def errors_linear():
    yield ErrorInput(SampleInput(make_tensor((4, 3), gt.float32), make_tensor((2, 4), gt.float32)),
                     RuntimeError, r"^mat1 and mat2 shapes cannot be multiplied \(4x3 and 4x2\)$",
                     known_bug_on_meta="torch's meta mm words this check differently")


def sample_bilinear(dtype):
    weight = operand((5, 3, 2), dtype, seed=2)
    yield SampleInput(operand((4, 3), dtype), operand((4, 2), dtype, seed=1), weight,
                      operand((5,), dtype, seed=3))
    yield SampleInput(operand((2, 4, 3), dtype), operand((2, 4, 2), dtype, "transposed", seed=1),
                      weight)


def _bilinear_ref(x1, x2, w, b=None):
    """x1 with the weight first (rounded to the dtype, as torch's first product is), then
    with x2."""
    with np.errstate(over="ignore"):
        first = np.einsum("...i,oij->...oj", compute(x1), compute(w)).astype(x1.dtype)
        result = np.einsum("...oj,...j->...o", compute(first), compute(x2)).astype(x1.dtype)
        if b is not None:
            result = (compute(result) + compute(b)).astype(x1.dtype)
    return result


def errors_bilinear():
    w = make_tensor((5, 3, 3), gt.float32)
    yield ErrorInput(SampleInput(make_tensor((4, 3), gt.float32),
                                 make_tensor((4, 2, 3), gt.float32), w), RuntimeError,
                     r"^bilinear\(\): input dimensions do not match: got 2 and 3$")
    yield ErrorInput(SampleInput(make_tensor((4, 3), gt.float32),
                                 make_tensor((4, 2, 3), gt.float64), w), RuntimeError,
                     r"^All tensors must have the same dtype, got input1: float, input2: double, "
                     r"weight: float$")


EINSUM_CASES = (("ij,jk->ik", ((2, 3), (3, 4))), ("ij,jk", ((2, 3), (3, 4))),
                ("bij,bjk->bik", ((2, 2, 3), (2, 3, 4))), ("...ij,...jk", ((5, 2, 3), (3, 4))),
                ("i,j->ij", ((2,), (3,))), ("ii->i", ((3, 3),)), ("ij->ji", ((2, 3),)),
                ("ij,ij->", ((2, 3), (2, 3))),
                ("ij,->ij", ((2, 3), ())),
                ("Aa,aB->AB", ((2, 3), (3, 2))), ("i i , i", ((2, 2), (2,))))


def sample_einsum(dtype):
    for i, (equation, shapes) in enumerate(EINSUM_CASES):
        layout = ("contiguous", "transposed")[i % 2]
        tensors = [operand(shape, dtype, layout if len(shape) >= 2 else "contiguous", seed=j)
                   for j, shape in enumerate(shapes)]
        yield SampleInput(equation, tensors)
    if dtype not in (gt.float16, gt.bfloat16):    # (the reference rounds no partial product)
        tensors = [operand(shape, dtype, seed=j) for j, shape in enumerate(((2, 3), (3, 4), (4, 5)))]
        yield SampleInput("ij,jk,kl->il", tensors)
    if dtype.is_floating_point:     # (torch sums integer dims alone into int64 first)
        yield SampleInput("b...,b...->b", [operand((2, 3, 1), dtype), operand((2, 1, 4), dtype)])


def _einsum_ref(equation, tensors):
    """np.einsum; an ellipsis the output leaves out is summed (NumPy refuses that)."""
    equation = equation.replace(" ", "")
    lhs, _, rhs = equation.partition("->")
    dropped = "..." in lhs and "->" in equation and "..." not in rhs
    with np.errstate(over="ignore"):
        result = np.einsum(lhs + "->..." + rhs if dropped else equation,
                           *[compute(t) for t in tensors])
        if dropped:
            result = result.reshape((-1,) + result.shape[result.ndim - len(rhs):]).sum(0)
    return np.asarray(result).astype(tensors[0].dtype)


def errors_einsum():
    f = make_tensor((2, 3), gt.float32)
    yield ErrorInput(SampleInput("ij,jk->ik", [f, make_tensor((4, 4), gt.float32)]),
                     RuntimeError, r"^einsum\(\): subscript j has size 4 for operand 1 which "
                                   r"does not broadcast with previously seen size 3$")
    yield ErrorInput(SampleInput("ij,jk", [f]), RuntimeError,
                     r"^einsum\(\): fewer operands were provided than specified in the "
                     r"equation$")
    yield ErrorInput(SampleInput("ijk", [f]), RuntimeError,
                     r"^einsum\(\): the number of subscripts in the equation \(3\) does not match "
                     r"the number of dimensions \(2\) for operand 0 and no ellipsis was given$")
    yield ErrorInput(SampleInput("ij->k", [f]), RuntimeError,
                     r"^einsum\(\): output subscript k does not appear in the equation for any "
                     r"input operand$")
    yield ErrorInput(SampleInput("i1", [make_tensor((2,), gt.float32)]), RuntimeError,
                     r"^einsum\(\): invalid subscript given at index 1 in the equation string, "
                     r"subscripts must be in \[a-zA-Z\]$")


OPS = [
    OpInfo("matmul", variants=("matmul", "Tensor.matmul", "Tensor.__matmul__"),
           ref=_matmul_ref, sample_inputs=sample_matmul, error_inputs=errors_matmul,
           dtypes=ALL_PRODUCTS, out="matmul"),
    OpInfo("linalg_matmul", variants=("linalg.matmul",), ref=_matmul_ref,
           sample_inputs=sample_matmul, error_inputs=errors_matmul, dtypes=ALL_PRODUCTS,
           out="linalg.matmul"),
    OpInfo("inner", variants=("inner", "Tensor.inner"), ref=_inner_ref,
           sample_inputs=sample_inner, error_inputs=errors_inner, dtypes=ALL_PRODUCTS,
           out="inner"),
    OpInfo("outer", variants=("outer", "Tensor.outer", "ger"), ref=_outer_ref,
           sample_inputs=sample_outer, error_inputs=errors_outer, out="outer"),
    OpInfo("ger", variants=("ger", "Tensor.ger"), ref=_outer_ref, sample_inputs=sample_outer,
           out="ger"),
    OpInfo("tensordot", variants=("ops.aten.tensordot.default",), ref=_tensordot_ref,
           sample_inputs=sample_tensordot, error_inputs=errors_tensordot, dtypes=ALL_PRODUCTS,
           out="ops.aten.tensordot.out"),
    OpInfo("linalg_multi_dot", variants=("linalg.multi_dot",), ref=_multi_dot_ref,
           sample_inputs=sample_multi_dot, error_inputs=errors_multi_dot, dtypes=ALL_PRODUCTS,
           out="linalg.multi_dot"),
    OpInfo("chain_matmul", variants=("ops.aten.chain_matmul.default",), ref=_multi_dot_ref,
           sample_inputs=sample_chain_matmul, error_inputs=errors_chain_matmul,
           dtypes=ALL_PRODUCTS, out="ops.aten.chain_matmul.out"),
    OpInfo("linear", variants=("nn.functional.linear",), ref=_linear_ref,
           sample_inputs=sample_linear, error_inputs=errors_linear, dtypes=ALL_PRODUCTS,
           out="nn.functional.linear"),
    OpInfo("bilinear", variants=("bilinear", "nn.functional.bilinear"), ref=_bilinear_ref,
           sample_inputs=sample_bilinear, error_inputs=errors_bilinear, dtypes=ALL_PRODUCTS),
    OpInfo("einsum", variants=("einsum",), ref=_einsum_ref, sample_inputs=sample_einsum,
           error_inputs=errors_einsum, dtypes=ALL_PRODUCTS),
]
