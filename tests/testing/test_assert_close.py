"""torch.testing.assert_close against torch: which inputs pass, and for those that fail the
exception type and the message, word for word (type names normalised: glasstorch's
Tensor class prints as torch's)."""
import numpy as np
import pytest

import glasstorch as gt


def _outcome(lib, case):
    try:
        case(lib)
    except Exception as e:          # noqa: BLE001 (the test compares any error)
        text = str(e).replace("glasstorch._tensor.Tensor", "torch.Tensor")
        return type(e).__name__, text.replace("glasstorch", "torch")
    return None


def close(actual, expected, **kwargs):
    return lambda t: t.testing.assert_close(actual(t), expected(t), **kwargs)


def tensor(values, dtype="float32"):
    return lambda t: t.tensor(values, dtype=getattr(t, dtype))


NAN, INF = float("nan"), float("inf")
CASES = {
    "float32 close": close(tensor([1.0, 2.0]), tensor([1.0, 2.0 + 1e-6])),
    "float32 mismatch": close(tensor([1.0, 2.0, 3.0]), tensor([1.0, 2.5, 3.0])),
    "float64 mismatch": close(tensor([1.0, 2.0], "float64"), tensor([1.0, 2.000001], "float64")),
    "float16 within table": close(tensor([1.0, 2.0], "float16"), tensor([1.0, 2.001], "float16")),
    "float16 mismatch": close(tensor([1.0, 2.0], "float16"), tensor([1.0, 2.1], "float16")),
    "bfloat16 within table": close(tensor([100.0], "bfloat16"), tensor([101.0], "bfloat16")),
    "bfloat16 mismatch": close(tensor([1.0, 2.0], "bfloat16"), tensor([1.0, 3.0], "bfloat16")),
    "complex64 mismatch": close(tensor([1 + 1j, 2j], "complex64"), tensor([1 + 1j, 3j], "complex64")),
    "int64 mismatch": close(tensor([1, 2, 3], "int64"), tensor([1, 5, -3], "int64")),
    "uint8 mismatch wraps nowhere": close(tensor([0, 250], "uint8"), tensor([255, 250], "uint8")),
    "bool mismatch": close(tensor([True, False], "bool"), tensor([True, True], "bool")),
    "2-d index": close(lambda t: t.zeros(2, 3), lambda t: t.zeros(2, 3).index_fill(1, t.tensor([2]), 1.0)),
    "dtype mismatch": close(tensor([1.0]), tensor([1.0], "float64")),
    "dtype promoted": close(tensor([1, 2], "int32"), tensor([1.0, 2.0], "float64"), check_dtype=False),
    "dtype promoted mismatch": close(tensor([1, 2], "int32"), tensor([1.0, 2.5], "float64"), check_dtype=False),
    "wide unsigned promoted": close(tensor([1, 2], "uint16"), tensor([1, 3], "int32"), check_dtype=False),
    "shape mismatch": close(lambda t: t.zeros(2, 3), lambda t: t.zeros(3, 2)),
    "stride mismatch": close(lambda t: t.zeros(2, 3), lambda t: t.zeros(3, 2).t(), check_stride=True),
    "stride ignored": close(lambda t: t.zeros(2, 3), lambda t: t.zeros(3, 2).t()),
    "nan mismatch": close(tensor([NAN, 1.0]), tensor([NAN, 1.0])),
    "nan equal": close(tensor([NAN, 1.0]), tensor([NAN, 1.0]), equal_nan=True),
    "nan against number": close(tensor([NAN, 1.0]), tensor([2.0, 1.0])),
    "inf equal": close(tensor([INF, -INF]), tensor([INF, -INF])),
    "inf mismatch": close(tensor([INF, 1.0]), tensor([-INF, 1.0])),
    "zero expected": close(tensor([1.0, 0.5]), tensor([0.0, 0.5])),
    "given tolerances pass": close(tensor([1.0]), tensor([1.05]), rtol=0.1, atol=0.0),
    "given tolerances fail": close(tensor([1.0, 2.0]), tensor([1.2, 2.0]), rtol=0.1, atol=0.01),
    "exact comparison": close(tensor([1.0, 2.0]), tensor([1.0, 2.0001]), rtol=0, atol=0),
    "only rtol": close(tensor([1.0]), tensor([1.0]), rtol=0.1),
    "only atol": close(tensor([1.0]), tensor([1.0]), atol=0.1),
    "0-dim mismatch": close(lambda t: t.tensor(1.5), lambda t: t.tensor(2.0)),
    "0-dim int mismatch": close(lambda t: t.tensor(3), lambda t: t.tensor(0)),
    "msg string": close(tensor([1.0]), tensor([2.0]), msg="custom message"),
    "msg callable": close(tensor([1.0]), tensor([2.0]), msg=lambda m: f"Header\n\n{m}\n\nFooter"),
    "tensor against number": lambda t: t.testing.assert_close(t.tensor(1.0), 1.0),
    "tensor against array": lambda t: t.testing.assert_close(t.tensor([1.0]), np.array([1.0])),
    "arrays": lambda t: t.testing.assert_close(np.array([1.0, 2.0]), np.array([1.0, 3.0])),
    "floats close": lambda t: t.testing.assert_close(1.0, 1.0 + 1e-9),
    "floats mismatch": lambda t: t.testing.assert_close(1.0, 1.1),
    "ints mismatch": lambda t: t.testing.assert_close(2, 3),
    "complex mismatch": lambda t: t.testing.assert_close(1 + 2j, 1 + 3j),
    "number to zero": lambda t: t.testing.assert_close(0.5, 0.0),
    "number types": lambda t: t.testing.assert_close(1, 1.0),
    "number types unchecked": lambda t: t.testing.assert_close(1, 1.0, check_dtype=False),
    "numpy numbers": lambda t: t.testing.assert_close(np.float32(1.0), np.float32(1.5)),
    "nan numbers": lambda t: t.testing.assert_close(NAN, NAN),
    "nan numbers equal": lambda t: t.testing.assert_close(NAN, NAN, equal_nan=True),
    "bools": lambda t: t.testing.assert_close(True, False),
    "numpy bools": lambda t: t.testing.assert_close(np.bool_(True), True),
    "none": lambda t: t.testing.assert_close(None, None),
    "none mismatch": lambda t: t.testing.assert_close(None, 1),
    "strings": lambda t: t.testing.assert_close("a", "a"),
    "list of tensors": lambda t: t.testing.assert_close([t.ones(2), t.zeros(2)], [t.ones(2), t.ones(2)]),
    "tuple against list": lambda t: t.testing.assert_close((1.0, 2.0), [1.0, 2.0]),
    "sequence lengths": lambda t: t.testing.assert_close([1, 2], [1, 2, 3]),
    "nested lengths": lambda t: t.testing.assert_close([[1], [1, 2]], [[1], [1]]),
    "mapping keys": lambda t: t.testing.assert_close({"a": 1, "b": 2}, {"a": 1, "c": 2}),
    "mapping values": lambda t: t.testing.assert_close({"b": t.ones(2), "a": 1}, {"a": 1, "b": t.zeros(2)}),
    "nested path": lambda t: t.testing.assert_close({"w": [1.0, {"x": 2}]}, {"w": [1.0, {"x": 3}]}),
    "type error before value error": lambda t: t.testing.assert_close([t.ones(1), "a"], [t.zeros(1), 1]),
    "path with msg callable": lambda t: t.testing.assert_close([1, 2], [1, 3], msg=lambda m: "<" + m + ">"),
    "path with msg string": lambda t: t.testing.assert_close([1, 2], [1, 3], msg="plain"),
    "subclass refused": lambda t: t.testing.assert_close(t.nn.Parameter(t.ones(1)), t.ones(1), allow_subclasses=False),
    "subclass allowed": lambda t: t.testing.assert_close(t.nn.Parameter(t.ones(1)), t.ones(1)),
    "float8 bitwise": lambda t: t.testing.assert_close(
        t.tensor([1.0, 2.0]).to(t.float8_e4m3fn), t.tensor([1.0, 3.0]).to(t.float8_e4m3fn), rtol=0, atol=0),
    "float8 tolerances": lambda t: t.testing.assert_close(
        t.tensor([1.0]).to(t.float8_e4m3fn), t.tensor([1.0]).to(t.float8_e4m3fn)),
    "meta values skipped": lambda t: t.testing.assert_close(t.empty(2, device="meta"),
                                                            t.ones(2, device="meta")),
    "device mismatch": lambda t: t.testing.assert_close(t.ones(2), t.ones(2, device="meta")),
    "device unchecked": lambda t: t.testing.assert_close(t.ones(2), t.ones(2, device="meta"),
                                                         check_device=False),
    "many mismatches": close(lambda t: t.arange(12.0).reshape(3, 4), lambda t: t.arange(12.0).reshape(3, 4) * 1.5),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_outcome_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert _outcome(gt, CASES[name]) == _outcome(torch, CASES[name])


def test_every_case_that_should_fail_fails():
    # guard against a case list that passes vacuously: most cases must raise
    failing = sum(_outcome(gt, case) is not None for case in CASES.values())
    assert failing > len(CASES) * 2 // 3


def test_default_tolerance_table_matches_torch():
    torch = pytest.importorskip("torch")
    from torch.testing._comparison import default_tolerances as theirs
    from glasstorch.testing._tolerances import default_tolerances as ours
    names = ["float16", "bfloat16", "float32", "float64", "complex32", "complex64",
             "complex128", "int64", "uint8", "bool"]
    for a in names:
        for b in names:
            assert ours(getattr(gt, a), getattr(gt, b)) == theirs(getattr(torch, a), getattr(torch, b))
    assert _outcome(gt, lambda t: ours(3)) == ("TypeError", "Expected a torch.Tensor or a "
                                               "torch.dtype, but got <class 'int'> instead.")


def test_assert_allclose_deprecated_with_looser_defaults():
    torch = pytest.importorskip("torch")
    cases = [
        lambda t: t.testing.assert_allclose(t.tensor([1.0]), t.tensor([1.00005])),
        lambda t: t.testing.assert_allclose(t.tensor([1.0]), t.tensor([1.001])),
        lambda t: t.testing.assert_allclose([1.0, float("nan")], [1.0, float("nan")]),
        lambda t: t.testing.assert_allclose(t.tensor([1, 2]), [1.0, 3.0]),
    ]
    for case in cases:
        with pytest.warns(FutureWarning):
            ours = _outcome(gt, case)
        with pytest.warns(FutureWarning):
            assert ours == _outcome(torch, case)
