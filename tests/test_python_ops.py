"""Python's operators on tensors (glasstorch/_python_ops.py).

Torch-free tests check the wiring: every operator calls the aten operator its table
names (``a - b`` is `sub`, ``2 - a`` is `rsub`, ``2 / a`` is ``a.reciprocal() * 2``,
``a += b`` is `add_`), returns NotImplemented for what is not an operand, keeps
`__hash__`, and resolves overloads declared after installation. The differential tests
run a grid of operands (tensors of several dtypes and 0-dim, Python and NumPy numbers)
through every operator, reflected and in place, in glasstorch and in torch 2.13.
"""
import operator
import sys
import warnings

import numpy as np
import pytest

import glasstorch as gt
from glasstorch import _python_ops

BINARY = {"+": operator.add, "-": operator.sub, "*": operator.mul, "/": operator.truediv,
          "//": operator.floordiv, "%": operator.mod, "**": operator.pow, "&": operator.and_,
          "|": operator.or_, "^": operator.xor, "<<": operator.lshift, ">>": operator.rshift,
          "==": operator.eq, "!=": operator.ne, "<": operator.lt, "<=": operator.le,
          ">": operator.gt, ">=": operator.ge}
INPLACE = {"+": operator.iadd, "-": operator.isub, "*": operator.imul, "/": operator.itruediv,
           "//": operator.ifloordiv, "%": operator.imod, "**": operator.ipow, "&": operator.iand,
           "|": operator.ior, "^": operator.ixor, "<<": operator.ilshift, ">>": operator.irshift}
# The function each operator stands for (reflected forms swap the operands).
FUNCTIONS = {"+": "add", "-": "sub", "*": "mul", "/": "div", "//": "floor_divide",
             "%": "remainder", "**": "pow", "&": "bitwise_and", "|": "bitwise_or",
             "^": "bitwise_xor", "<<": "bitwise_left_shift", ">>": "bitwise_right_shift",
             "==": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
UNARY = {"-x": operator.neg, "+x": operator.pos, "abs(x)": abs, "~x": operator.invert}

DTYPES = ("bool", "uint8", "int8", "int64", "float16", "float32", "float64", "complex64")
VALUES = {"bool": [True, False, True], "uint8": [3, 200, 7], "int8": [-3, 100, 7],
          "int64": [5, -7, 3], "float16": [1.5, -2.0, 2048.0],
          "float32": [2.5, float("nan"), -0.0], "float64": [0.1, 3.0, float("inf")],
          "complex64": [1 + 2j, -1j, 3]}
NUMBERS = (True, 3, -2, 2.5, 1j, np.float64(2), np.int64(3), np.bool_(True), np.float32(0.5))


def operands(lib) -> dict:
    """Tensors of every dtype, 1-dim and 0-dim, keyed by name (``int64``, ``int640``)."""
    found = {}
    for name in DTYPES:
        dtype = getattr(lib, name)
        found[name] = lib.tensor(VALUES[name], dtype=dtype)
        found[name + "0"] = lib.tensor(VALUES[name][0], dtype=dtype)
    return found


def outcome(call):
    """What a call gives: (dtype, shape, values) for a tensor, 'Type: message' for an
    error, repr for anything else."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = call()
        except Exception as error:          # noqa: BLE001 - the error is the outcome
            return f"{type(error).__name__}: {error}"
    if hasattr(result, "dtype") and hasattr(result, "stride"):
        lib = gt if isinstance(result, gt.Tensor) else sys.modules["torch"]
        name = str(result.dtype).removeprefix("torch.")
        if name != "bool":                  # compared widened (NumPy has no complex32)
            result = result.to(lib.complex128 if result.dtype.is_complex else lib.float64)
        return name, tuple(result.shape), result.numpy()
    return repr(result)


def assert_same(mine, theirs, label: str) -> None:
    if isinstance(mine, tuple) and isinstance(theirs, tuple):
        assert mine[:2] == theirs[:2], f"{label}: {mine[:2]} != {theirs[:2]}"
        tolerance = 1e-3 if mine[0] in ("float16", "bfloat16", "complex32") else 1e-6
        assert np.allclose(mine[2], theirs[2], rtol=tolerance, atol=1e-6, equal_nan=True), \
            f"{label}: {mine[2]} != {theirs[2]}"
    else:
        assert mine == theirs, f"{label}: {mine!r} != {theirs!r}"


# ----------------------------------------------------------------------------------
# Wiring (torch-free)
# ----------------------------------------------------------------------------------
def _pairs():
    tensors = operands(gt)
    keys = ("bool", "int64", "float320", "float64", "complex64", "uint8")
    for left in keys:
        for right in keys:
            yield tensors[left], tensors[right], f"{left},{right}"
        for number in NUMBERS:
            yield tensors[left], number, f"{left},{number!r}"


@pytest.mark.parametrize("symbol", BINARY)
def test_operator_is_its_function(symbol):
    """``a op b`` gives what ``torch.<function>(a, b)`` gives, ``b op a`` what the
    function gives with the operands swapped (division: reciprocal times; commutative
    operators: the tensor first, as torch's C methods compute them, which differs where
    complex infinities meet)."""
    function = getattr(gt, FUNCTIONS[symbol])
    for a, b, label in _pairs():
        assert_same(outcome(lambda: BINARY[symbol](a, b)), outcome(lambda: function(a, b)),
                    f"{label} {symbol}")
        if isinstance(b, gt.Tensor):
            continue
        if symbol == "/":
            expected = outcome(lambda: gt.mul(a.reciprocal(), b))
        elif symbol in ("+", "*", "&", "|", "^"):
            expected = outcome(lambda: function(a, b))
        elif symbol in ("<", "<=", ">", ">=", "==", "!="):   # Python reflects comparisons
            reflected = {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(symbol, symbol)
            expected = outcome(lambda: getattr(gt, FUNCTIONS[reflected])(a, b))
        else:
            expected = outcome(lambda: function(b, a))
        assert_same(outcome(lambda: BINARY[symbol](b, a)), expected, f"{label} r{symbol}")


@pytest.mark.parametrize("symbol", INPLACE)
def test_inplace_operator_is_the_inplace_method(symbol):
    """``a op= b`` writes `a` as ``a.<function>_(b)`` does, and `a` stays the same object."""
    method = FUNCTIONS[symbol] + "_"
    for a, b, label in _pairs():
        mine, theirs = a.clone(), a.clone()
        result = outcome(lambda: INPLACE[symbol](mine, b))
        assert_same(result, outcome(lambda: getattr(theirs, method)(b)), f"{label} {symbol}=")
        assert_same(outcome(lambda: mine), outcome(lambda: theirs), f"{label} {symbol}= self")


def test_inplace_keeps_the_object_and_refuses_narrowing():
    t = gt.tensor([1, 2, 3])
    alias = t
    t += 2
    assert t is alias and t.tolist() == [3, 4, 5]
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired "
                                           "output type Long$"):
        t += 1.5
    assert t.tolist() == [3, 4, 5]
    with pytest.raises(RuntimeError, match=r"^output with shape \[3\] doesn't match the "
                                           r"broadcast shape \[2, 3\]$"):
        t.add_(gt.ones(2, 3, dtype=gt.int64))
    assert t.tolist() == [3, 4, 5]


def test_written_tensor_is_checked_before_the_kernel_dtype():
    """torch's TensorIterator checks the written tensor (cast, shape) before the kernel
    refuses a dtype; with a writable target the kernel's refusal stands."""
    t = gt.tensor([1, 2, 3])
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired "
                                           "output type Long$"):
        t ^= gt.ones(3)
    with pytest.raises(RuntimeError, match="^result type Float can't be cast to the desired "
                                           "output type Long$"):
        gt.bitwise_and(t, 1.5, out=gt.zeros(5, dtype=gt.int64))
    with pytest.raises(RuntimeError, match=r"^output with shape \[\] doesn't match the broadcast "
                                           r"shape \[3\]$"):
        gt.tensor(1.0).bitwise_and_(gt.ones(3))
    with pytest.raises(NotImplementedError, match="^\"bitwise_and_cpu\" not implemented for "
                                                  "'Float'$"):
        gt.ones(3).bitwise_and_(1)
    assert t.tolist() == [1, 2, 3]


@pytest.mark.parametrize("other", [None, "a", [1, 2, 3], (1,), object(), {}])
def test_non_operands(other):
    """Operators return NotImplemented for non-operands: Python then raises its own
    TypeError, and == / != fall back to identity."""
    t = gt.tensor([1, 2, 3])
    if other is None:
        with pytest.raises(TypeError, match=r"^unsupported operand type\(s\) for \+: 'Tensor' "
                                            r"and 'NoneType'$"):
            t + other
        with pytest.raises(TypeError, match=r"^'<' not supported between instances of "
                                            r"'Tensor' and 'NoneType'$"):
            t < other
    assert (t == other) is False and (other == t) is False
    assert (t != other) is True
    for symbol, function in BINARY.items():
        if symbol in ("==", "!="):
            continue
        with pytest.raises(TypeError):      # Python's own message: `<` and `+` differ
            function(t, other)
        if isinstance(other, str) and symbol == "%":
            continue                        # "a" % t is string formatting, as with torch
        with pytest.raises(TypeError):      # Python's message (sequences try repeat, ...)
            function(other, t)
    for symbol, function in INPLACE.items():
        u = t.clone()
        with pytest.raises(TypeError):
            function(u, other)
        assert u.tolist() == [1, 2, 3]


def test_hash_is_identity():
    t, u = gt.tensor([1.0]), gt.tensor([1.0])
    assert hash(t) == id(t) and hash(t) != hash(u)
    assert {t: 1, u: 2}[t] == 1


def test_unary_operators():
    t = gt.tensor([1, -2, 3])
    assert (-t).tolist() == [-1, 2, -3] and (+t).tolist() == [1, -2, 3]
    assert abs(t).tolist() == [1, 2, 3] and (~t).tolist() == [-2, 1, -4]
    assert (~gt.tensor([True, False])).tolist() == [False, True]
    for dtype in (gt.float32, gt.float16, gt.complex64):
        for device in ("cpu", "meta"):
            with pytest.raises(TypeError, match=r"^~ \(operator.invert\) is only implemented "
                                                r"on integer and Boolean-type tensors$"):
                ~gt.zeros(2, dtype=dtype, device=device)


def test_numpy_scalars_on_the_left():
    """NumPy defers to the tensor (Tensor.__array_priority__); the dtypes are torch's,
    which reads numpy.bool_ and numpy floats as Python floats."""
    i, b = gt.tensor([1, 2, 3]), gt.tensor([True, False])
    assert (np.float64(2) * i).dtype is gt.float32
    assert (np.int64(3) + i).dtype is gt.int64
    assert (np.float32(2) - i).tolist() == [1.0, 0.0, -1.0]
    assert (np.int64(2) ** i).tolist() == [2, 4, 8]
    assert (np.int64(5) // i).tolist() == [5, 2, 1]
    assert (np.float64(2) < i).tolist() == [False, False, True]
    assert (np.bool_(True) == b).tolist() == [True, False]
    assert (np.bool_(True) + i).dtype is gt.float32
    with pytest.raises(NotImplementedError, match="\"bitwise_and_cpu\" not implemented for "
                                                  "'Float'"):
        np.bool_(True) & b


def test_ndarrays_become_tensors():
    """``tensor op ndarray`` runs NumPy's ufunc on the tensor's array and wraps the result
    (bool as uint8, as torch's __array_wrap__ does)."""
    t = gt.tensor([1, 2, 3])
    result = t + np.array([1, 2, 3])
    assert isinstance(result, gt.Tensor) and result.tolist() == [2, 4, 6]
    assert isinstance(np.sin(gt.tensor([0.0])), gt.Tensor)
    with pytest.raises(TypeError, match="'<' not supported between instances of 'Tensor' "
                                        "and 'numpy.ndarray'"):
        t < np.array([2, 2, 2])             # as in torch: NumPy does not reflect it


def test_contains():
    t = gt.tensor([[1, 2], [3, 4]])
    assert 2 in t and 5 not in t and 4.0 in t and np.int64(3) in t
    assert gt.tensor([1, 2]) in t and gt.tensor([2, 1]) not in t
    for other in ("a", None, [1]):
        with pytest.raises(RuntimeError, match=r"^Tensor.__contains__ only supports Tensor or "
                                               r"scalar, but you passed in a <class '\w+'>.$"):
            other in t


def test_resolution_on_first_use():
    """An operator whose overload is not declared yet is looked up when first used."""
    class Fake:
        pass
    built = []

    def build():
        if not built:
            built.append(True)
            raise AttributeError("not yet")
        return lambda self, other: ("called", other)
    stub = _python_ops._resolved_on_first_use(Fake, "__add__", build)
    Fake.__add__ = stub
    with pytest.raises(NotImplementedError, match="__add__: its aten operator is not declared"):
        Fake() + 1
    assert Fake() + 2 == ("called", 2)
    assert Fake.__add__ is not stub and Fake.__add__.__name__ == "__add__"


def test_every_python_operator_is_installed():
    for dunder in list(_python_ops.BINARY) + list(_python_ops.UNARY):
        assert callable(getattr(gt.Tensor, dunder)), dunder
    assert gt.Tensor.__hash__ is not None


def test_comparisons_read_float16_operands_in_float16():
    """torch compares (and logical_ands) in the common dtype, without float32 opmath:
    the number rounds first (2049 -> 2048, 0.1 -> 0.0999755859375)."""
    h = gt.tensor([2048.0, 0.1], dtype=gt.float16)
    assert (h == 2049).tolist() == [True, False] and (h == 0.1).tolist() == [False, True]
    assert (h < gt.tensor(2049.0)).tolist() == [False, True]
    assert gt.logical_and(h, gt.tensor(1e-8)).tolist() == [False, False]
    assert (gt.tensor([256.0], dtype=gt.bfloat16) >= 257).tolist() == [True]


def test_bool_results_print_as_torch():
    assert repr(gt.tensor([1, 2, 3]) > 1) == "tensor([False,  True,  True])"
    assert repr(gt.tensor(1.0) == 1) == "tensor(True)"
    assert repr(gt.tensor([]) == 1) == "tensor([], dtype=torch.bool)"


# ----------------------------------------------------------------------------------
# Against torch
# ----------------------------------------------------------------------------------
# Deviations outside the operator table, tolerated here by their outcome and reported
# to their owner; any other difference fails.
KNOWN = {
}


def _known(mine, theirs) -> str | None:
    return next((owner for owner, applies in KNOWN.items() if applies(mine, theirs)), None)


# The operators whose aten operators live here (comparison.py, bitwise.py); the others'
# values are their families' tests (the wiring of all is tested above).
OWN = ("&", "|", "^", "<<", ">>", "==", "!=", "<", "<=", ">", ">=")


@pytest.mark.parametrize("symbol", OWN)
def test_operators_match_torch(symbol):
    torch = pytest.importorskip("torch")
    function = BINARY[symbol]
    mine, theirs = operands(gt), operands(torch)
    for left in mine:
        for right in list(mine) + list(NUMBERS):
            tensor_right = isinstance(right, str)
            b = mine[right] if tensor_right else right
            y = theirs[right] if tensor_right else right
            _compare(f"{left} {symbol} {right!r}", lambda: function(mine[left], b),
                     lambda: function(theirs[left], y))
            if not tensor_right:
                _compare(f"{right!r} {symbol} {left}", lambda: function(b, mine[left]),
                         lambda: function(y, theirs[left]))


@pytest.mark.parametrize("symbol", [s for s in OWN if s in INPLACE])
def test_inplace_operators_match_torch(symbol):
    torch = pytest.importorskip("torch")
    function = INPLACE[symbol]
    mine, theirs = operands(gt), operands(torch)
    for left in mine:
        for right in list(mine) + list(NUMBERS):
            a, x = mine[left].clone(), theirs[left].clone()
            b = mine[right] if isinstance(right, str) else right
            y = theirs[right] if isinstance(right, str) else right
            _compare(f"{left} {symbol}= {right!r}", lambda: (function(a, b), a)[1],
                     lambda: (function(x, y), x)[1])


@pytest.mark.parametrize("expression", [
    "2 - x", "2.5 - x", "2 / x", "2 // x", "2 % x", "2 ** x", "1.5 ** x", "2 + x", "2 * x",
    "x ** 2", "x ** -1", "x ** 0.5", "x // 2", "x % -2", "x / 2", "-x", "+x", "abs(x)",
    "np.float64(2) * x", "np.int64(3) - x", "np.float32(3) / x", "np.int64(2) ** x",
    "np.bool_(True) + x", "True - x"])
@pytest.mark.parametrize("dtype", ["int64", "float32", "bool"])
def test_arithmetic_forms_match_torch(expression, dtype):
    """The forms the table builds for the arithmetic families (reflected, NumPy numbers
    on the left, unary): torch's dtype, values or error."""
    torch = pytest.importorskip("torch")
    values = {"int64": [1, -2, 3], "float32": [0.5, -2.0, 4.0], "bool": [True, False, True]}
    mine = gt.tensor(values[dtype], dtype=getattr(gt, dtype))
    theirs = torch.tensor(values[dtype], dtype=getattr(torch, dtype))
    _compare(f"{expression} ({dtype})", lambda: eval(expression, {"np": np, "x": mine}),
             lambda: eval(expression, {"np": np, "x": theirs}))


def test_unary_operators_match_torch():
    torch = pytest.importorskip("torch")
    mine, theirs = operands(gt), operands(torch)
    for name, function in UNARY.items():
        for key in mine:
            _compare(f"{key} {name}", lambda: function(mine[key]), lambda: function(theirs[key]))


def _compare(label: str, mine_call, theirs_call) -> None:
    mine, theirs = outcome(mine_call), outcome(theirs_call)
    try:
        assert_same(mine, theirs, label)
    except AssertionError:
        if _known(mine, theirs) is None:
            raise


def test_reflected_operators_called_with_a_foreign_self():
    # torch's own op_db error inputs: C-level reflected methods refuse a non-tensor self,
    # Python-level ones answer NotImplemented or fail on self.reciprocal().
    t = gt.ones(2)
    with pytest.raises(TypeError, match="descriptor '__radd__'"):
        gt.Tensor.__radd__(2, t)
    assert gt.Tensor.__rsub__(2, t) is NotImplemented
    with pytest.raises(AttributeError, match="'int' object has no attribute 'reciprocal'"):
        gt.Tensor.__rdiv__(2, t)
    assert (2 + t).tolist() == [3.0, 3.0] and (2 / t).tolist() == [2.0, 2.0]


@pytest.mark.parametrize("expression", ["2 * y", "2 + y", "2 - y", "2.5 - y", "y - 2",
                                        "(2 + 1j) - y", "2 / y", "2 ** y"])
def test_reflected_operators_record_torchs_nodes_and_edges(expression):
    """`2 * y` is y.mul(2), `2 - y` is rsub.Scalar(y, 2) and `2 ** y` pow.Scalar(2, y) in
    torch: the node's edges come in that order (a number has no edge, or a None one)."""
    torch = pytest.importorskip("torch")

    def graph(module):
        y = module.ones(3, dtype=module.float64, requires_grad=True)
        node = eval(expression, {"y": y})
        return type(node.grad_fn).__name__, [
            None if f is None else type(f).__name__ for f, _ in node.grad_fn.next_functions]
    assert graph(gt) == graph(torch)


def test_reflected_commutative_operators_compute_tensor_first_as_torch():
    """`1j + t` is t.add(1j) in torch: where complex infinities meet, operand order shows."""
    torch = pytest.importorskip("torch")
    values = [0.1, float("inf"), -float("inf")]
    for expression in ("1j + t", "(1 + 1j) * t"):
        mine = eval(expression, {"t": gt.tensor(values, dtype=gt.float64)})
        theirs = eval(expression, {"t": torch.tensor(values, dtype=torch.float64)})
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
