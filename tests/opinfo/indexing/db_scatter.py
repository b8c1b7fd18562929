"""OpInfo entries for addressing along one dim (`aten/native/indexing/scatter.py`,
`index_along.py`): gather, scatter (src, value, reduce=), scatter_add, scatter_reduce,
index_select, index_add, index_copy, index_fill, index_reduce.

References loop over the index in Python (row-major order, as torch's CPU kernels
do), so they share nothing with the kernels but NumPy's arithmetic.
"""
import itertools

import numpy as np

import glasstorch as gt

from ..core import (FLOATING, INTEGRAL, ErrorInput, OpInfo, SampleInput, make_tensor,
                   numpy_dtype)
from .db_indexing import cast_like, long, writable



_REDUCED = (np.dtype(np.float16), numpy_dtype(gt.bfloat16))
META_WORDING = ("indexing owner: torch's meta function words this error otherwise, or does "
                "not check it")


def _meta_differs(errors, positions: set):
    """`errors` with the error inputs at `positions` marked as worded otherwise on meta."""
    def marked():
        for i, error in enumerate(errors()):
            if i in positions:
                error.known_bug_on_meta = META_WORDING
            yield error
    return marked


def _grid(shape):
    return itertools.product(*(range(n) for n in shape))


def _at_least_1d(*arrays):
    return [np.array(a).reshape(1) if np.ndim(a) == 0 else np.array(a, order="C")
            for a in arrays]


def _combine(reduce: str, old, new):
    if reduce in ("add", "sum", "mean"):
        return old + new
    if reduce in ("multiply", "prod"):
        return old * new
    if reduce == "amax":
        return new if (new != new or new > old) else old
    return new if (new != new or new < old) else old


# ----- gather / scatter --------------------------------------------------------------
def ref_gather(a, dim, index, sparse_grad=False):
    shape = np.shape(index)
    source, index = _at_least_1d(a, index)
    d = dim % source.ndim
    result = np.empty(index.shape, a.dtype)
    for position in _grid(index.shape):
        at = list(position)
        at[d] = index[position]
        result[position] = source[tuple(at)]
    return result.reshape(shape)


def _scatter_ref(a, dim, index, values, reduce=None, include_self=True, opmath=True):
    """torch's scatter loop; reductions of float16 / bfloat16 run in float32 (`opmath`)."""
    if reduce is not None and opmath and a.dtype in _REDUCED:
        wide = _scatter_ref(a.astype(np.float32), dim, index,
                            np.asarray(values).astype(np.float32), reduce, include_self)
        return wide.astype(a.dtype)
    result, index = _at_least_1d(a, index)
    d = dim % result.ndim
    values = np.broadcast_to(values, index.shape) if np.ndim(values) == 0 else \
        _at_least_1d(values)[0]
    first = {}
    counts = {}
    for position in _grid(index.shape):
        at = list(position)
        at[d] = index[position]
        at = tuple(at)
        value = values[position]
        if reduce is None:
            result[at] = value
            continue
        if not include_self and at not in first:
            first[at] = True
            result[at] = value
        else:
            result[at] = _combine(reduce, result[at], value)
        counts[at] = counts.get(at, 1 if include_self else 0) + 1
    if reduce == "mean":
        for at, count in counts.items():
            if result.dtype.kind in "iu":
                result[at] = np.floor_divide(result[at], count)
            else:
                result[at] = result[at] / count
    return result.reshape(np.shape(a))


def ref_scatter(a, dim, index, src):
    return _scatter_ref(a, dim, index, src)


def ref_scatter_value(a, dim, index, value):
    return _scatter_ref(a, dim, index, cast_like(value, a))


def ref_scatter_reduce_legacy(a, dim, index, src, reduce):
    return _scatter_ref(a, dim, index, src, reduce)


def ref_scatter_value_reduce(a, dim, index, value, reduce):
    return _scatter_ref(a, dim, index, cast_like(value, a), reduce)


def ref_scatter_add(a, dim, index, src):
    return _scatter_ref(a, dim, index, src, "sum")


def ref_scatter_reduce(a, dim, index, src, reduce, include_self=True):
    return _scatter_ref(a, dim, index, src, reduce, include_self)


def _index_for(shape: tuple, dim: int, seed: int, smaller: bool = True):
    """An index tensor for `dim` of a tensor of `shape`: no larger in the other dims,
    values in range (with duplicates)."""
    d = dim % max(len(shape), 1)
    sizes = tuple(max(n - 1, 1) if smaller and i != d else n for i, n in enumerate(shape))
    upper = shape[d] if shape else 1
    values = np.random.default_rng(seed).integers(0, upper, sizes)
    return gt.from_numpy(values.astype(np.int64))


def sample_gather(dtype):
    for x in writable(dtype, ((), (5,), (3, 4), (2, 3, 4))):
        for dim in ((0,) if x.dim() < 2 else (0, -1)):
            yield SampleInput(x, dim, _index_for(tuple(x.shape), dim, seed=1))
        if x.dim() == 2:
            yield SampleInput(x, 1, _index_for((3, 4), 1, seed=2).t().contiguous().t(),
                              sparse_grad=False)
    yield SampleInput(make_tensor((3, 4), dtype), 0, long([[2, 0]], gt.int32))
    yield SampleInput(make_tensor((3, 4), dtype), 0, long([], gt.int64).reshape(0, 4))


def _scatter_samples(dtype, with_src: bool):
    for x in writable(dtype, ((), (5,), (3, 4), (2, 3, 4))):
        for dim in ((0,) if x.dim() < 2 else (0, -1)):
            index = _index_for(tuple(x.shape), dim, seed=3)
            src = make_tensor(tuple(x.shape), dtype, seed=4) if with_src else None
            yield x, dim, index, src
    x = make_tensor((3, 4), dtype)
    yield x, 1, long([[3, 0, 3]], gt.int32), make_tensor((2, 4), dtype, seed=5) \
        if with_src else None


def sample_scatter(dtype):
    for x, dim, index, src in _scatter_samples(dtype, True):
        yield SampleInput(x, dim, index, src)


def _value_for(dtype):
    return {gt.bool: True}.get(dtype, 2 if not (dtype.is_floating_point or dtype.is_complex)
                               else 2.5)


def sample_scatter_value(dtype):
    for x, dim, index, _ in _scatter_samples(dtype, False):
        yield SampleInput(x, dim, index, _value_for(dtype))


def sample_scatter_reduce_legacy(dtype):
    for x, dim, index, src in _scatter_samples(dtype, True):
        for reduce in ("add", "multiply"):
            yield SampleInput(x, dim, index, src, reduce=reduce)


def sample_scatter_value_reduce(dtype):
    for x, dim, index, _ in _scatter_samples(dtype, False):
        for reduce in ("add", "multiply"):
            yield SampleInput(x, dim, index, _value_for(dtype), reduce=reduce)


def sample_scatter_add(dtype):
    for x, dim, index, src in _scatter_samples(dtype, True):
        yield SampleInput(x, dim, index, src)


def _reductions(dtype):
    found = ["sum", "prod"]
    if dtype is not gt.bool:
        found.append("mean")
    if not dtype.is_complex:
        found += ["amax", "amin"]
    return found


def sample_scatter_reduce(dtype):
    for x, dim, index, src in _scatter_samples(dtype, True):
        for reduce in _reductions(dtype):
            yield SampleInput(x, dim, index, src, reduce, include_self=dim == 0)


def errors_gather():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, gt.tensor([[0.0, 1.0]])), RuntimeError,
                     r"^gather\(\): Expected dtype int32/int64 for index$")
    yield ErrorInput(SampleInput(x, 0, long([[0, 5]])), RuntimeError,
                     r"^index 5 is out of bounds for dimension 0 with size 3$")
    yield ErrorInput(SampleInput(x, 0, long([[-1, 0]])), RuntimeError,
                     r"^index -1 is out of bounds for dimension 0 with size 3$")
    yield ErrorInput(SampleInput(x, 0, long([0, 2])), RuntimeError,
                     r"^Index tensor must have the same number of dimensions as input tensor$")
    yield ErrorInput(SampleInput(x, 1, gt.zeros(4, 2, dtype=gt.int64)), RuntimeError,
                     r"^Size does not match at dimension 0 expected index \[4, 2\] to be no "
                     r"larger than self \[3, 4\] apart from dimension 1$")
    yield ErrorInput(SampleInput(x, 2, long([[0]])), IndexError,
                     r"^Dimension out of range \(expected to be in range of \[-2, 1\], but got "
                     r"2\)$")


def errors_scatter():
    x, src = make_tensor((3, 4), gt.float32), gt.ones(3, 4)
    yield ErrorInput(SampleInput(x, 0, gt.tensor([[0.0, 1.0]]), src), RuntimeError,
                     r"^scatter\(\): Expected dtype int32/int64 for index$")
    yield ErrorInput(SampleInput(x, 0, long([[0, 5]]), src), RuntimeError,
                     r"^index 5 is out of bounds for dimension 0 with size 3$")
    yield ErrorInput(SampleInput(x, 0, long([[0, 1]]), src.double()), RuntimeError,
                     r"^scatter\(\): Expected self\.dtype to be equal to src\.dtype$")
    yield ErrorInput(SampleInput(x, 0, gt.zeros(4, 2, dtype=gt.int64), src), RuntimeError,
                     r"^Expected index \[4, 2\] to be no larger than self \[3, 4\] apart from "
                     r"dimension 0 and to be no larger size than src \[3, 4\]$")
    yield ErrorInput(SampleInput(x, 0, gt.zeros(3, 4, dtype=gt.int64), gt.ones(2, 2)),
                     RuntimeError, r"^Expected index \[3, 4\] to be no larger than self \[3, 4\] "
                                   r"apart from dimension 0 and to be no larger size than src "
                                   r"\[2, 2\]$")


def errors_scatter_value():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 1, gt.zeros(4, 2, dtype=gt.int64), 1.0), RuntimeError,
                     r"^Expected index \[4, 2\] to be no larger than self \[3, 4\] apart from "
                     r"dimension 1$")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.int8), 0, long([0]), 300), RuntimeError,
                     r"^value cannot be converted to type int8_t without overflow$")


def errors_scatter_reduce_legacy():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, long([[0, 1]]), gt.ones(1, 2), reduce="sum"),
                     RuntimeError, r"^reduce argument must be either add or multiply\.$")


def errors_scatter_reduce():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, long([[0, 1]]), gt.ones(1, 2), "foo"), RuntimeError,
                     r"^reduce argument must be either sum, prod, mean, amax or amin, got foo$")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.bool), 0, long([0]),
                                 make_tensor((1,), gt.bool), "mean"), NotImplementedError,
                     r"^\"scatter_gather_tensor_cpu_reduce_mean\" not implemented for 'Bool'$")
    yield ErrorInput(SampleInput(make_tensor((3,), gt.complex64), 0, long([0]),
                                 make_tensor((1,), gt.complex64), "amax"), NotImplementedError,
                     r"^\"scatter_gather_tensor_cpu_reduce_amax\" not implemented for "
                     r"'ComplexFloat'$")


def errors_scatter_add():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, long([[0, 1]]), gt.ones(1, 2).double()), RuntimeError,
                     r"^scatter\(\): Expected self\.dtype to be equal to src\.dtype$")


# ----- index_select / index_add / index_copy / index_fill / index_reduce -------------
def _slices(a, dim, index):
    """(position along dim in the result, slice object) pairs for an index vector."""
    d = dim % max(a.ndim, 1)
    return d, [int(i) for i in np.ravel(index)]


def ref_index_select(a, dim, index):
    if a.ndim == 0:
        return np.array(a)
    d, positions = _slices(a, dim, index)
    return np.stack([np.take(a, p, axis=d) for p in positions], axis=d) if positions else \
        np.empty(a.shape[:d] + (0,) + a.shape[d + 1:], a.dtype)


def _index_write(a, dim, index, source, combine):
    result, source = _at_least_1d(a, source)
    d, positions = _slices(result, dim, index)
    for k, p in enumerate(positions):
        where = (slice(None),) * d + (p,)
        result[where] = combine(result[where], np.take(source, k, axis=d), p)
    return result.reshape(np.shape(a))


def ref_index_add(a, dim, index, source, alpha=1):
    scale = cast_like(alpha, a)
    return _index_write(a, dim, index, source, lambda old, new, p: old + new * scale)


def ref_index_copy(a, dim, index, source):
    return _index_write(a, dim, index, source, lambda old, new, p: new)


def ref_index_fill(a, dim, index, value):
    fill = np.asarray(value).astype(a.dtype) if isinstance(value, np.ndarray) else \
        cast_like(value, a)
    result = _at_least_1d(a)[0]
    d = dim % result.ndim
    for p in np.ravel(index):
        result[(slice(None),) * d + (int(p),)] = fill
    return result.reshape(np.shape(a))


def ref_index_reduce(a, dim, index, source, reduce, include_self=True):
    result, source = _at_least_1d(a, source)
    d = dim % result.ndim
    spread_shape = [1] * source.ndim
    spread_shape[d] = np.size(index)
    spread = np.broadcast_to(np.reshape(index, spread_shape), source.shape)
    return _scatter_ref(result, d, spread, source, reduce, include_self,
                        opmath=False).reshape(np.shape(a))


def _vector_samples(dtype):
    for x in writable(dtype, ((), (5,), (3, 4), (2, 3, 4))):
        for dim in ((0,) if x.dim() < 2 else (0, -1)):
            n = x.shape[dim] if x.dim() else 1
            index = long([n - 1, 0, n - 1] if n > 1 else [0, 0])
            shape = list(x.shape) or [1]
            shape[dim] = index.numel()
            source = make_tensor(tuple(shape) if x.dim() else (2,), dtype, seed=6)
            yield x, dim, index, source


def sample_index_select(dtype):
    for x, dim, index, _ in _vector_samples(dtype):
        if x.dim():
            yield SampleInput(x, dim, index)
    x = make_tensor((3, 4), dtype, "transposed")
    yield SampleInput(x, 1, long([3, 0], gt.int32))
    yield SampleInput(x, 0, long(1))
    yield SampleInput(make_tensor((), dtype), 0, long([0]))


def sample_index_add(dtype):
    for x, dim, index, source in _vector_samples(dtype):
        if x.dim():
            yield SampleInput(x, dim, index, source)
            if dtype is not gt.bool:
                yield SampleInput(x, dim, index.to(gt.int32), source, alpha=2)


def sample_index_copy(dtype):
    for x, dim, index, source in _vector_samples(dtype):
        if x.dim():
            yield SampleInput(x, dim, index[:1], source.narrow(dim, 0, 1))


def sample_index_fill(dtype):
    for x, dim, index, _ in _vector_samples(dtype):
        yield SampleInput(x, dim, -index if x.dim() else index, _value_for(dtype))


def sample_index_fill_tensor(dtype):
    for x, dim, index, _ in _vector_samples(dtype):
        yield SampleInput(x, dim, index, make_tensor((), dtype, seed=7))


def sample_index_reduce(dtype):
    for x, dim, index, source in _vector_samples(dtype):
        if x.dim():
            for reduce in ("prod", "mean", "amax", "amin"):
                yield SampleInput(x, dim, index, source, reduce, include_self=dim == 0)
    for reduce in ("prod", "amax"):          # 0-dim: the backward spreads no index
        yield SampleInput(make_tensor((), dtype), 0, long([0]), make_tensor((), dtype, seed=6),
                          reduce, include_self=reduce == "prod")


def errors_index_select():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, gt.tensor([0.0])), RuntimeError,
                     r"^index_select\(\): Expected dtype int32 or int64 for index$")
    yield ErrorInput(SampleInput(x, 0, long([0, 5])), IndexError,
                     r"^index out of range in self$")
    yield ErrorInput(SampleInput(x, 0, long([[0]])), IndexError,
                     r"^index_select\(\): Index is supposed to be a vector$")


def errors_index_add():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, long([0, 5]), gt.ones(2, 4)), RuntimeError,
                     r"^index 5 is out of bounds for dimension 0 with size 3$")
    yield ErrorInput(SampleInput(x, 0, long([0, 5]), gt.ones(2, 4), alpha=2), IndexError,
                     r"^index out of range in self$")
    yield ErrorInput(SampleInput(x, 0, gt.tensor([0.0]), gt.ones(1, 4)), RuntimeError,
                     r"^index_add_\(\): Expected dtype int32/int64 for index but got: Float$")
    yield ErrorInput(SampleInput(x, 0, long([0, 1]), gt.ones(3, 4)), RuntimeError,
                     r"^index_add_\(\): Number of indices \(2\) should be equal to "
                     r"source\.size\(dim\): \(3\), for dim: 0$")
    yield ErrorInput(SampleInput(x, 0, long([0, 1]), gt.ones(2, 4).double()), RuntimeError,
                     r"^index_add_\(\): self \(Float\) and source \(Double\) must have the same "
                     r"scalar type$")
    yield ErrorInput(SampleInput(x, 0, long([0, 1]), gt.ones(2, 5)), RuntimeError,
                     r"^source tensor shape must match self tensor shape, excluding the "
                     r"specified dimension\. Got self\.shape = \[3, 4\] source\.shape = "
                     r"\[2, 5\]$")


def errors_index_copy():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, long([0, 5]), gt.ones(2, 4)), IndexError,
                     r"^index_copy_\(\): index 5 is out of bounds for dimension 0 with size 3$")
    yield ErrorInput(SampleInput(x, 0, long([0, 1], gt.int32), gt.ones(2, 4)), RuntimeError,
                     r"^index_copy_\(\): Expected a long tensor for index, but got Int$")
    yield ErrorInput(SampleInput(x, 0, long([0, 1]), gt.ones(3, 4)), IndexError,
                     r"^index_copy_\(\): Number of indices \(2\) should be equal to "
                     r"source\.size\(dim\) \(3\)$")
    yield ErrorInput(SampleInput(x, 0, long([0, 1]), gt.ones(2, 5)), RuntimeError,
                     r"^index_copy_\(\): Source/destination tensor must have same slice shapes\. "
                     r"Destination slice shape: 4 at dimension 0 and source slice shape: 5 at "
                     r"dimension 0\.$")


def errors_index_fill():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, long([0, 5]), 1.0), IndexError,
                     r"^index 5 is out of bounds for dimension 0 with size 3$")
    yield ErrorInput(SampleInput(x, 0, long([0], gt.int32), 1.0), IndexError,
                     r"^index_fill_\(\): Expected dtype int64 for index\.$")
    yield ErrorInput(SampleInput(x, 0, long([[0]]), 1.0), RuntimeError,
                     r"^Index has to be a vector/scalar$")


def errors_index_fill_tensor():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, long([0]), gt.ones(2)), RuntimeError,
                     r"^index_fill_ only supports a 0-dimensional value tensor, but got tensor "
                     r"with 1 dimension\(s\)\.$")


def errors_index_reduce():
    x = make_tensor((3, 4), gt.float32)
    yield ErrorInput(SampleInput(x, 0, long([0, 1]), gt.ones(2, 4), "sum"), RuntimeError,
                     r"^index_reduce\(\): Expected reduce to be one of prod, mean, amax or amin "
                     r"but got sum\.$")
    yield ErrorInput(SampleInput(x, 0, long([0, 5]), gt.ones(2, 4), "prod"), IndexError,
                     r"^index out of range in self$")



OPS = [
    OpInfo("gather", variants=("gather", "Tensor.gather"), ref=ref_gather,
           sample_inputs=sample_gather, error_inputs=_meta_differs(errors_gather, {0, 4}), out="gather"),
    OpInfo("scatter.src", variants=("scatter", "Tensor.scatter"), ref=ref_scatter,
           sample_inputs=sample_scatter, error_inputs=_meta_differs(errors_scatter, {3, 4}), inplace="Tensor.scatter_",
           out="scatter"),
    OpInfo("scatter.value", variants=("scatter", "Tensor.scatter"), ref=ref_scatter_value,
           sample_inputs=sample_scatter_value,
           error_inputs=_meta_differs(errors_scatter_value, {0}),
           inplace="Tensor.scatter_", out="scatter"),
    OpInfo("scatter.reduce", variants=("scatter", "Tensor.scatter"),
           ref=ref_scatter_reduce_legacy, sample_inputs=sample_scatter_reduce_legacy,
           error_inputs=errors_scatter_reduce_legacy, inplace="Tensor.scatter_", out="scatter"),
    OpInfo("scatter.value_reduce", variants=("scatter", "Tensor.scatter"),
           ref=ref_scatter_value_reduce, sample_inputs=sample_scatter_value_reduce,
           inplace="Tensor.scatter_", out="scatter"),
    OpInfo("scatter_add", variants=("scatter_add", "Tensor.scatter_add"), ref=ref_scatter_add,
           sample_inputs=sample_scatter_add, error_inputs=errors_scatter_add,
           inplace="Tensor.scatter_add_", out="scatter_add"),
    OpInfo("scatter_reduce.two", variants=("scatter_reduce", "Tensor.scatter_reduce"),
           ref=ref_scatter_reduce, sample_inputs=sample_scatter_reduce,
           error_inputs=_meta_differs(errors_scatter_reduce, {0}), inplace="Tensor.scatter_reduce_",
           out="scatter_reduce"),
    OpInfo("index_select", variants=("index_select", "Tensor.index_select"),
           ref=ref_index_select, sample_inputs=sample_index_select,
           error_inputs=_meta_differs(errors_index_select, {0, 2}), out="index_select"),
    OpInfo("index_add", variants=("index_add", "Tensor.index_add"), ref=ref_index_add,
           sample_inputs=sample_index_add,
           error_inputs=_meta_differs(errors_index_add, {2, 3, 4, 5}),
           inplace="Tensor.index_add_", out="index_add"),
    OpInfo("index_copy", variants=("index_copy", "Tensor.index_copy"), ref=ref_index_copy,
           sample_inputs=sample_index_copy,
           error_inputs=_meta_differs(errors_index_copy, {1, 2, 3}),
           inplace="Tensor.index_copy_", out="index_copy"),
    OpInfo("index_fill.int_Scalar", variants=("index_fill", "Tensor.index_fill"),
           ref=ref_index_fill, sample_inputs=sample_index_fill, error_inputs=_meta_differs(errors_index_fill, {1, 2}),
           inplace="Tensor.index_fill_", out="ops.aten.index_fill.int_Scalar_out"),
    OpInfo("index_fill.int_Tensor", variants=("index_fill", "Tensor.index_fill"),
           ref=ref_index_fill, sample_inputs=sample_index_fill_tensor,
           error_inputs=_meta_differs(errors_index_fill_tensor, {0}), inplace="Tensor.index_fill_",
           out="ops.aten.index_fill.int_Tensor_out"),
    OpInfo("index_reduce", variants=("index_reduce", "Tensor.index_reduce"),
           ref=ref_index_reduce, sample_inputs=sample_index_reduce,
           error_inputs=_meta_differs(errors_index_reduce, {0}), inplace="Tensor.index_reduce_", out="index_reduce",
           dtypes=INTEGRAL + FLOATING),
]
