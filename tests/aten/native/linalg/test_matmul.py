"""The matmul family's Python front ends and namespaces, beyond what the OpInfo entries
can express: torch.einsum's variadic / list / sublist forms, torch.tensordot's ``dims``,
torch.chain_matmul's varargs, the ``@`` operator with non-tensors, torch.linalg and
torch.nn.functional as modules. Compared with real torch when it is importable.
"""
import warnings

import numpy as np
import pytest

import glasstorch as gt
from tests.opinfo.convert import assert_values, to_numpy, to_torch

try:
    import torch
except ImportError:         # the differential half of each test is skipped
    torch = None


def _tensor(shape, seed=0, dtype=np.float64):
    rng = np.random.default_rng(seed)
    return gt.from_numpy(rng.uniform(-2, 2, shape).astype(dtype))


def _outcome(module, call):
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = call(module)
    except Exception as error:          # noqa: BLE001 - the error is the outcome
        return f"{type(error).__name__}: {error}", []
    return result, [str(w.message) for w in caught]


def _same(call, *tensors):
    """`call(module, *tensors)` on glasstorch, and on torch when available: same outcome."""
    mine, my_warnings = _outcome(gt, lambda m: call(m, *tensors))
    if torch is None:
        return mine
    theirs, their_warnings = _outcome(torch, lambda m: call(m, *to_torch(tensors, torch)))
    if not isinstance(theirs, torch.Tensor) or not isinstance(mine, gt.Tensor):
        assert mine == theirs
    else:
        assert str(mine.dtype) == str(theirs.dtype) and mine.stride() == theirs.stride()
        assert_values(mine, to_numpy(theirs), str(mine.dtype).removeprefix("torch."))
    assert [w.split(" (Triggered")[0] for w in their_warnings] == my_warnings
    return mine


A, B, C = _tensor((2, 3)), _tensor((3, 4), 1), _tensor((4, 5), 2)


@pytest.mark.parametrize("call", [
    lambda m, a, b: m.einsum("ij,jk->ik", a, b),
    lambda m, a, b: m.einsum("ij,jk", [a, b]),
    lambda m, a, b: m.einsum(a, [0, 1], b, [1, 2], [0, 2]),
    lambda m, a, b: m.einsum(a, [Ellipsis, 1], b, [1, Ellipsis]),
    lambda m, a, b: m.einsum("ij,jk->ik", a),
    lambda m, a, b: m.einsum("ij"),
    lambda m, a, b: m.einsum("i.j,jk", a, b),
    lambda m, a, b: m.einsum("ij,jk->ii", a, b),
    lambda m, a, b: m.einsum(a, [0, 60]),
], ids=["varargs", "list", "sublist", "sublist-ellipsis", "too-few", "no-operand",
        "stray-dot", "repeated-output", "sublist-range"])
def test_einsum_forms(call):
    _same(call, A, B)


@pytest.mark.parametrize("dims", [1, 0, ([1, 0], [0, 1]), [[1], [0]], -1, 3, "x"],
                         ids=["int", "zero", "tuple", "lists", "negative", "too-big", "str"])
def test_tensordot_dims(dims):
    _same(lambda m, a, b: m.tensordot(a, b, dims), _tensor((3, 3)), _tensor((3, 3), 1))


def test_tensordot_default_and_out():
    _same(lambda m, a, b: m.tensordot(a, b), _tensor((2, 3, 4)), _tensor((3, 4, 5), 1))
    _same(lambda m, a, b: m.tensordot(a, b, out=m.empty(2, 5, dtype=m.float32)),
          _tensor((2, 3, 4)), _tensor((3, 4, 5), 1))
    _same(lambda m, a, b: m.tensordot(a, b, m.tensor(1)), _tensor((2, 3)), _tensor((3, 4)))


def test_chain_matmul_varargs():
    _same(lambda m, a, b, c: m.chain_matmul(a, b, c), A, B, C)
    _same(lambda m, a: m.chain_matmul(a), A)
    _same(lambda m, a: m.chain_matmul(a, out=m.empty(2, 3, dtype=m.float32)), A)


def test_multi_dot_and_namespaces():
    _same(lambda m, a, b, c: m.linalg.multi_dot((a, b, c)), A, B, C)
    _same(lambda m, a: m.linalg.multi_dot(a), A)
    assert "multi_dot" in dir(gt.linalg)
    assert "linear" in dir(gt.nn.functional) and "bilinear" in dir(gt.nn.functional)
    with pytest.raises(AttributeError, match="has no attribute 'no_such_function'"):
        gt.linalg.no_such_function
    assert not hasattr(gt, "linalg_multi_dot") and not hasattr(gt, "linear")


def test_linear_ranks():
    w = _tensor((2, 3), 1)
    _same(lambda m, x, w: m.nn.functional.linear(x, w, m.ones(2, dtype=m.float64))._base
          is not None, _tensor((3,)), w)
    _same(lambda m, x, w: m.nn.functional.linear(x, w), _tensor(()), w)
    _same(lambda m, x, w: m.nn.functional.linear(x, w, out=m.empty(0, dtype=m.float64)),
          _tensor((4, 3)), w)


@pytest.mark.parametrize("call", [
    lambda m, a: a @ 2, lambda m, a: 2 @ a, lambda m, a: a @ [1.0, 2.0, 3.0],
    lambda m, a: a @ None, lambda m, a: m.ones(3, dtype=m.float64) @ a,
    lambda m, a: a.__rmatmul__(m.ones(2, dtype=m.float64)),
], ids=["number", "reflected-number", "list", "none", "vector-matrix", "rmatmul"])
def test_matmul_operator(call):
    _same(call, A.t())


def test_matmul_in_place_operator_rebinds():
    a = gt.ones(2, 2)
    original = a
    a @= gt.ones(2, 2)
    assert a is not original and original.tolist() == [[1.0, 1.0], [1.0, 1.0]]


def test_ger_out_warns():
    _same(lambda m, a, b: m.ger(a, b, out=m.empty(2, 3, dtype=m.float64)),
          _tensor((2,)), _tensor((3,), 1))


def test_half_products_round_once():
    a, b = _tensor((64, 64), dtype=np.float16), _tensor((64, 64), 1, dtype=np.float16)
    _same(lambda m, a, b: m.mm(a, b), a, b)
    _same(lambda m, a, b: m.addmm(a, a, b, beta=0.5, alpha=2), a, b)


def test_addmm_ignores_self_when_beta_is_zero():
    nan = gt.full((2, 4), float("nan"), dtype=gt.float64)
    _same(lambda m, s, a, b: m.addmm(s, a, b, beta=0), nan, _tensor((2, 3)), _tensor((3, 4)))
    _same(lambda m, s, a, b: m.addmm(s, a, b, beta=0, alpha=0), nan, _tensor((2, 3)),
          _tensor((3, 4)))
