"""Fast paths (Note [Fast paths] in aten/fast_paths.py): each one registered, shown by
`dispatch_trace()`, decided by the arguments alone, and held bit for bit to the general
kernels (``dispatch_trace(fast_paths=False)``).

tests/opinfo/test_generic.py::test_fast_paths runs every OpInfo sample of every operator
with a fast path both ways; the tests here aim at each fast path's own conditions.
"""
import functools
import re

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.aten.native import load_all
from glasstorch.aten.registry import DECLARATIONS
from glasstorch.aten.schema import SchemaKind
from glasstorch.c10.strides import _STRIDES_CACHE
from glasstorch.utils._python_dispatch import TorchDispatchMode


def general(function, *args):
    """`function(*args)` on the general kernels only."""
    with gt.dispatch_trace(fast_paths=False):
        return function(*args)


def fast_paths_taken(function, *args) -> list:
    """The fast paths the call ran, by their case, and its result."""
    with gt.dispatch_trace() as route:
        result = function(*args)
    return re.findall(r"\(fast path: ([^)]*)\)", str(route)), result


def assert_identical(a, b) -> None:
    """The same dtype, geometry and bits."""
    assert (a.dtype, a.shape, a.stride(), a.storage_offset()) == \
        (b.dtype, b.shape, b.stride(), b.storage_offset())
    assert np.ascontiguousarray(a._np).tobytes() == np.ascontiguousarray(b._np).tobytes()


def test_every_fast_path_has_its_test_here():
    """A new kind of fast path comes with a test of its own below."""
    load_all()
    cases = {re.search(r"\(fast path: ([^)]*)\)", fast.label).group(1)
             for declaration in DECLARATIONS.values()
             for overload in declaration.overloads.values()
             for fast in overload.fast_paths.values()}
    assert cases == set(HELD), f"fast paths without a test here: {cases - set(HELD)}"


# ----- elementwise: row-major operands (aten/pointwise.py) ---------------------------
def _operands():
    rng = np.random.default_rng(0)
    values = rng.standard_normal((4, 5)).astype(np.float32)
    values[0, :3] = [np.nan, -0.0, np.inf]
    for dtype in (gt.float32, gt.float64, gt.int64, gt.complex64):
        x = gt.tensor(values).to(dtype)
        y = gt.tensor(values[::-1].copy()).to(dtype)
        yield x, y
        yield x, 3                                   # a number keeping the dtype
        yield x, gt.tensor(2).to(dtype).expand(4, 5)   # a broadcast scalar
        yield x[0, 0], y[1, 1]                       # 0-dim
    big = gt.tensor(rng.standard_normal(300_000).astype(np.float32))
    yield big, big.flip(0).contiguous()               # split over the thread pool


@pytest.mark.parametrize("name", ["add", "sub", "mul", "div", "maximum", "eq", "pow"])
def test_elementwise_fast_path_matches_the_general_kernel(name):
    function = getattr(gt, name)
    for x, y in _operands():
        if name in ("maximum", "sub") and x.is_complex() or \
                name == "maximum" and isinstance(y, int) or name == "div" and x.dtype is gt.int64:
            continue                  # not served: complex max, int division to float
        taken, result = fast_paths_taken(function, x, y)
        assert taken == ["row-major operands of one dtype"], (name, x.dtype, y)
        assert_identical(result, general(function, x, y))


def test_elementwise_fast_path_declines_what_it_does_not_serve():
    x = gt.ones(3, 4)
    for y in (gt.ones(3, 4, dtype=gt.float64),          # another dtype
              gt.ones(4, 3).t(),                         # another layout
              gt.ones(4),                                # broadcast
              2.5j):                                     # a number changing the dtype
        taken, result = fast_paths_taken(gt.add, x, y)
        assert taken == []
        assert_identical(result, general(gt.add, x, y))
    half = gt.ones(3, dtype=gt.float16)                  # computed in float32: general
    assert fast_paths_taken(gt.exp, half)[0] == []


def test_fast_path_is_decided_by_the_arguments_alone():
    """A row-major tensor of a shape no tensor had before (made by a view, which asks
    no strides cache) takes the fast path, with or without the process's strides cache."""
    x = gt.arange(7 * 11 * 13, dtype=gt.float32).view(7, 11, 13)
    _STRIDES_CACHE.clear()
    taken, result = fast_paths_taken(gt.mul, x, x)
    assert taken == ["row-major operands of one dtype"]
    assert_identical(result, general(gt.mul, x, x))


def _declared_ufuncs() -> list:
    """The functional overloads whose kernel declares the ufunc it is (Note [The
    elementwise fast path] in aten/pointwise_fast.py)."""
    load_all()
    return sorted(name for name, declaration in DECLARATIONS.items()
                  if getattr(declaration.form, "ufunc", None) is not None)


def _ufunc_operands(dtype, binary: bool):
    """Operands of `dtype` the ufunc route serves: two row-major tensors (with NaN,
    -0.0, inf, zeros and wrapping integers), a number, a broadcast scalar, and an
    expanded scalar beside a number (its result must still be row-major)."""
    rng = np.random.default_rng(1)
    values = (rng.standard_normal((3, 4)) * 40).astype(np.float64)
    values[0, :4] = [np.nan, -0.0, np.inf, 0.0]
    x = gt.tensor(values).to(dtype)
    y = gt.tensor(values[::-1].copy()).to(dtype)
    scalar = gt.tensor(3).to(dtype).expand(3, 4)
    if not binary:
        return [(x,), (scalar,)]
    return [(x, y), (x, 3), (x, scalar), (scalar, x), (scalar, 2)]


@pytest.mark.parametrize("name", _declared_ufuncs())
def test_declared_ufunc_is_the_kernel_bit_for_bit(name):
    """Where the fast path calls an operator's declared ufunc instead of its kernel, the
    result is the general kernel's in dtype, strides and bits, for every dtype it serves."""
    declaration = DECLARATIONS[name]
    overload = declaration.overloads[SchemaKind.functional]
    binary = len(declaration.form.operands) == 2
    served = 0
    for dtype in (gt.bool, gt.uint8, gt.int8, gt.int32, gt.int64, gt.float32, gt.float64):
        for args in _ufunc_operands(dtype, binary):
            try:
                expected = general(overload, *args)
            except (RuntimeError, TypeError):
                continue                           # refused: no fast path to compare
            taken, result = fast_paths_taken(overload, *args)
            served += bool(taken)
            assert_identical(result, expected)
            assert result._np.flags.c_contiguous        # the row-major strides it claims
    assert served, f"{name}: the ufunc route was never taken"


# ----- elementwise in place, fused with the version bump -----------------------------
@pytest.mark.parametrize("method", ["add_", "mul_", "div_", "sub_", "sqrt_", "exp_"])
def test_inplace_fast_path_matches_the_general_kernel(method):
    for x, y in _operands():
        if x.dtype is gt.int64 and method in ("div_", "exp_", "sqrt_") or x.dim() == 0:
            continue
        args = () if method in ("sqrt_", "exp_") else (y,)
        a, b = x.clone(), x.clone()
        taken, result = fast_paths_taken(getattr(gt.Tensor, method), a, *args)
        general(getattr(gt.Tensor, method), b, *args)
        assert result is a and a._version == b._version == 1
        assert taken == ["row-major self written in place, version bumped"], (method, y)
        assert_identical(a, b)


def test_inplace_fast_path_applies_to_what_is_left_of_the_key_set():
    """The fused fast path applies when nothing but ADInplaceOrView and the backend is
    in the key set: below autograd, which recorded the call, and not under a dispatch
    mode, which must see it."""
    leaf = gt.ones(3, requires_grad=True)
    w = leaf.clone()
    taken, _ = fast_paths_taken(gt.Tensor.mul_, w, gt.full((3,), 2.0))
    assert taken == ["row-major self written in place, version bumped"] and w._version == 1
    w.sum().backward()
    assert leaf.grad.tolist() == [2.0, 2.0, 2.0]

    class Seen(TorchDispatchMode):
        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            seen.append(func.name)
            return func(*args, **(kwargs or {}))
    x, y, seen = gt.ones(3), gt.ones(3), []
    with Seen():
        taken, _ = fast_paths_taken(gt.Tensor.add_, x, y)
    assert seen == ["add_.Tensor"]                                       # the mode saw it,
    assert taken == ["row-major self written in place, version bumped"]  # then it ran fast
    assert x.tolist() == [2.0, 2.0, 2.0]


# ----- views: the view and its bookkeeping in one step -------------------------------
@pytest.mark.parametrize("call", [
    lambda x: x.t(), lambda x: x.view(-1), lambda x: x[1], lambda x: x.unbind(0),
    lambda x: x.detach(), lambda x: x.expand(2, 3, 4)])
def test_view_fast_path_matches_the_general_kernels(call):
    x = gt.arange(12.0).reshape(3, 4)
    taken, fast = fast_paths_taken(call, x)
    assert taken and set(taken) == {"the view and its bookkeeping in one step"}
    for grad_mode in (True, False):                      # no_grad is noted on the view
        with gt.set_grad_enabled(grad_mode):
            fast, slow = call(x), general(call, x)
        for a, b in zip(fast if isinstance(fast, tuple) else [fast],
                        slow if isinstance(slow, tuple) else [slow]):
            assert_identical(a, b)
            assert a._base is b._base and a._version_counter() is b._version_counter()
            assert a._creation_meta == b._creation_meta


# ----- sum and clone: the structured operators' declared fast paths ------------------
_SUMMED = [
    lambda: gt.arange(24.0).reshape(2, 3, 4), lambda: gt.tensor(2.5),
    lambda: gt.zeros(0, 3), lambda: gt.tensor([1 + 2j, 3 - 1j], dtype=gt.complex64),
    lambda: gt.full((4,), 3e38), lambda: gt.ones(3).expand(2, 3),
    lambda: gt.arange(24.0, dtype=gt.float64).reshape(4, 6).t()]


@pytest.mark.parametrize("make", _SUMMED)
def test_sum_fast_path_matches_the_general_kernel(make):
    x = make()
    taken, result = fast_paths_taken(gt.sum, x)
    assert taken == ["a float tensor summed whole in its own dtype"]
    assert_identical(result, general(gt.sum, x))


@pytest.mark.parametrize("make", _SUMMED)
@pytest.mark.parametrize("dim,keepdim", [([0], False), ([-1], True), ([], False), (None, True),
                                         ([1, 0], False)])
@pytest.mark.parametrize("name", ["sum", "mean"])
def test_sum_dim_fast_path_matches_the_general_kernel(make, dim, keepdim, name):
    x = make()
    dim = dim if dim is None or x.dim() >= len(dim) else [0]
    function = getattr(gt, name)
    taken, result = fast_paths_taken(lambda t: function(t, dim, keepdim), x)
    ordered = x.dtype in (gt.float32, gt.float64)
    case = "summed" if name == "sum" else "averaged"
    assert taken == ([f"a float32 / float64 tensor {case} over dims in its own dtype"]
                     if ordered else [])
    assert_identical(result, general(lambda t: function(t, dim, keepdim), x))
    assert fast_paths_taken(lambda t: function(t, 0, dtype=gt.float64), x)[0] == []  # dtype=


def test_sum_dim_fast_path_declines_a_bad_dim_for_the_general_refusal():
    x = gt.ones(2, 3)
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.sum(2)
    with pytest.raises(RuntimeError, match="appears multiple times"):
        x.sum((0, 0))
    with pytest.raises(IndexError, match="Dimension out of range"):
        x.mean(-3)


@pytest.mark.parametrize("make", _SUMMED)
def test_mean_fast_path_matches_the_general_kernel(make):
    x = make()
    taken, result = fast_paths_taken(gt.mean, x)
    assert taken == ["a float tensor averaged whole in its own dtype"]
    assert_identical(result, general(gt.mean, x))
    assert fast_paths_taken(lambda t: t.mean(dtype=gt.float64), x)[0] == []  # dtype=: declined


@pytest.mark.parametrize("make", [
    lambda: gt.arange(24.0).reshape(2, 3, 4), lambda: gt.tensor(True),
    lambda: gt.zeros(0, 3, dtype=gt.int8), lambda: gt.ones(3, dtype=gt.bfloat16)])
def test_clone_fast_path_matches_the_general_kernel(make):
    x = make()
    taken, result = fast_paths_taken(gt.clone, x)
    assert taken == ["a copy laid out row-major"]
    assert_identical(result, general(gt.clone, x))
    transposed = gt.arange(12.0).reshape(4, 3).t()       # preserved layout: declined
    assert fast_paths_taken(gt.clone, transposed)[0] == []
    for y in (transposed, gt.arange(24.0).reshape(2, 3, 4)[:, ::2], gt.tensor(2).expand(3)):
        copied = lambda t: t.contiguous()                   # contiguous_format: any layout
        taken, result = fast_paths_taken(copied, y)
        assert taken == ["a copy laid out row-major"]
        assert_identical(result, general(copied, y))


# ----- sized factories with default options (native/creation/factory.py) -------------
@pytest.mark.parametrize("name", ["zeros", "ones", "empty"])
def test_factory_fast_paths_match_the_general_kernels(name):
    """Same dtype, geometry and values (empty: under deterministic filling), and every
    option the fast path does not serve left to the general path and its refusals."""
    factory = getattr(gt, name)
    gt.use_deterministic_algorithms(True)           # empty's memory filled, comparable
    try:
        for size, dtype in [((3, 4), None), ((0, 2), gt.int64), ((), gt.bool),
                            ((2, 1, 3), gt.complex64), ((5,), gt.bfloat16)]:
            make = functools.partial(factory, size, dtype=dtype)
            taken, result = fast_paths_taken(make)
            assert len(taken) == 1 and taken[0].startswith("default options"), (name, size)
            assert_identical(result, general(make))
        taken, result = fast_paths_taken(functools.partial(factory, (2,), dtype=gt.complex32))
        assert taken == [] and result.dtype is gt.complex32
    finally:
        gt.use_deterministic_algorithms(False)
    with pytest.raises(RuntimeError, match="negative dimension|must be non-negative"):
        factory(2, -1)
    with pytest.raises(RuntimeError, match="pin_memory=True requires"):
        factory(2, pin_memory=True)
    assert factory(2, 3, device="meta").device.type == "meta"


# ----- mm of small matrices (native/linalg/blas.py) ------------------------------------
def test_mm_fast_path_matches_the_general_kernel():
    """The same bits and row-major result for small products of every BLAS dtype, in
    any layout of the operands; what it does not serve (integers, mixed dtypes, empty
    products, products for the pool) goes to the general kernel."""
    rng = np.random.default_rng(3)
    for dtype in (gt.float32, gt.float64, gt.complex64, gt.complex128):
        a = gt.tensor(rng.standard_normal((5, 7))).to(dtype)
        b = gt.tensor(rng.standard_normal((9, 7))).to(dtype)
        for x, y in [(a, b.t()), (a[::2], b.t()), (a.t().contiguous().t(), b.t().contiguous())]:
            taken, result = fast_paths_taken(gt.mm, x, y)
            assert taken == ["two small matrices of one BLAS dtype"]
            assert_identical(result, general(gt.mm, x, y))
    def attempt(x, y):
        try:
            gt.mm(x, y)
        except RuntimeError:        # mixed dtypes: the general kernel's refusal
            pass
    for x, y in [(gt.ones(2, 3, dtype=gt.int64), gt.ones(3, 2, dtype=gt.int64)),
                 (gt.ones(2, 3), gt.ones(3, 2, dtype=gt.float64)), (gt.ones(2, 0), gt.ones(0, 2)),
                 (gt.ones(2048, 2048), gt.ones(2048, 4))]:
        taken, _ = fast_paths_taken(attempt, x, y)
        assert taken == []
    with pytest.raises(RuntimeError, match="cannot be multiplied"):
        gt.mm(gt.ones(2, 3), gt.ones(2, 3))


# ----- one int64 index after whole dims (native/indexing/advanced.py) ----------------
def test_index_fast_path_matches_the_general_kernel():
    """``x[i]`` and ``x[:, i]``: the same dtype, geometry and bits as the general kernel
    for indices of any shape (negative ones too); what it does not serve (other index
    dtypes, layouts, more indices) and out-of-range indices go to the general path."""
    x = gt.arange(60.0).reshape(3, 4, 5)
    picks = [gt.tensor([0, 2, -1]), gt.tensor([[1], [0]]), gt.tensor([], dtype=gt.int64),
             gt.tensor(1)]
    for indices in ([picks[0]], [None, picks[1]], [None, None, picks[0]], [picks[2]],
                    [None, picks[3]]):
        for source in (x, x.to(gt.int32), x.to(gt.bool)):
            index = gt.ops.aten.index.Tensor
            taken, result = fast_paths_taken(index, source, indices)
            assert taken == ["slices of a row-major tensor picked by one int64 index"]
            assert_identical(result, general(index, source, indices))
    for source, indices in [(x, [gt.tensor([0, 1], dtype=gt.int32)]), (x.transpose(0, 1), [picks[0]]),
                            (x, [picks[0], picks[0]]), (x, [gt.tensor([True, False, True])])]:
        taken, _ = fast_paths_taken(gt.ops.aten.index.Tensor, source, indices)
        assert taken == []
    with pytest.raises(IndexError, match="index 3 is out of bounds for dimension 0 with size 3"):
        x[gt.tensor([3])]


HELD = {
    "slices of a row-major tensor picked by one int64 index":
        test_index_fast_path_matches_the_general_kernel,
    "two small matrices of one BLAS dtype": test_mm_fast_path_matches_the_general_kernel,
    "default options: NumPy's zeros": test_factory_fast_paths_match_the_general_kernels,
    "default options: filled with 1": test_factory_fast_paths_match_the_general_kernels,
    "default options: NumPy's empty": test_factory_fast_paths_match_the_general_kernels,
    "row-major operands of one dtype": test_elementwise_fast_path_matches_the_general_kernel,
    "row-major self written in place, version bumped":
        test_inplace_fast_path_matches_the_general_kernel,
    "the view and its bookkeeping in one step": test_view_fast_path_matches_the_general_kernels,
    "a float tensor summed whole in its own dtype": test_sum_fast_path_matches_the_general_kernel,
    "a float32 / float64 tensor summed over dims in its own dtype":
        test_sum_dim_fast_path_matches_the_general_kernel,
    "a float32 / float64 tensor averaged over dims in its own dtype":
        test_sum_dim_fast_path_matches_the_general_kernel,
    "a float tensor averaged whole in its own dtype":
        test_mean_fast_path_matches_the_general_kernel,
    "a copy laid out row-major": test_clone_fast_path_matches_the_general_kernel,
}


@pytest.mark.parametrize("dtype", [gt.float32, gt.float64, gt.bfloat16, gt.float16, gt.int8])
def test_relu_keeps_negative_zeros_and_nans_at_every_length(dtype):
    """relu through NumPy's ``maximum(0, x)`` where it is exact (Note in clamp.py's
    `_relu_by_maximum`): -0.0 and NaNs of either sign kept, negatives +0, over the
    lengths of NumPy's vector bodies and tails, fast and general path alike."""
    pattern = np.array([-0.0, np.nan, -np.nan, -1.5, 2.0, -np.inf, 0.0], np.float64)
    for n in (1, 3, 7, 16, 33, 70):
        values = gt.tensor(np.resize(pattern, n)).to(dtype)
        with np.errstate(invalid="ignore"):
            reference = np.where(np.less(values._np, 0), values._np.dtype.type(0), values._np)
        for function in (gt.relu, lambda x: x.clone().relu_()):
            result = function(values)
            assert result._np.tobytes() == reference.tobytes(), (dtype, n)
            assert general(function, values)._np.tobytes() == reference.tobytes()


def test_a_dtype_refusal_leaves_its_dtypes_to_the_general_path():
    """A `DtypeRefusal` is no call on the fast path: its dtypes reach the general path,
    which raises torch's error."""
    with pytest.raises(RuntimeError, match="Boolean inputs not supported for relu"):
        gt.relu(gt.tensor([True, False]))
    with pytest.raises(NotImplementedError, match="clamp is not supported for complex"):
        gt.tensor([1j]).relu()
    for dtype, name in [(gt.uint16, "UInt16"), (gt.float8_e5m2, "Float8_e5m2")]:
        with pytest.raises(NotImplementedError,     # torch's relu is clamp_min's kernel
                           match=f"\"clamp_min_scalar_cpu\" not implemented for '{name}'"):
            gt.ones(2).to(dtype).relu()
    with pytest.raises(NotImplementedError, match="\"atan2_cpu\" not implemented for 'ComplexFloat'"):
        gt.atan2(gt.tensor([1j]), gt.tensor([2j]))
    taken, _ = fast_paths_taken(gt.atan2, gt.ones(3), gt.ones(3))
    assert taken == ["row-major operands of one dtype"]


def test_mm_fast_path_is_silent_on_overflow():
    """NumPy's matmul warns on overflow; torch's mm does not, nor does the fast path."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert gt.mm(gt.full((2, 2), 1e30), gt.full((2, 2), 1e30)).isinf().all()
