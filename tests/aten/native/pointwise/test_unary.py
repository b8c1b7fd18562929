"""Unary elementwise operators: what the OpInfo records cannot say on their own.

Which spellings and variants exist, torch's out= dtype rules for unary ops, refusals
of in-place calls, errors that only CPU kernels raise (never meta), inputs returned
as themselves, `round(decimals=)` values, and large in-place kernels split over
threads. Expected outcomes were recorded from torch 2.13; no torch needed, except to
check the derivative formulas against torch's autograd (skipped without torch).
"""
import numpy as np
import pytest

import glasstorch as gt

# name -> (has an in-place method, accepts out=); every name is torch.<name> and Tensor.<name>
VARIANTS = {
    "abs": (True, True), "absolute": (True, True), "neg": (True, True),
    "negative": (True, True), "positive": (False, False), "sign": (True, True),
    "sgn": (True, True), "signbit": (False, True), "exp": (True, True),
    "exp2": (True, True), "expm1": (True, True), "log": (True, True), "log2": (True, True),
    "log10": (True, True), "log1p": (True, True), "sqrt": (True, True),
    "rsqrt": (True, True), "square": (True, True), "reciprocal": (True, True),
    "sin": (True, True), "cos": (True, True), "tan": (True, True), "asin": (True, True),
    "arcsin": (True, True), "acos": (True, True), "arccos": (True, True),
    "atan": (True, True), "arctan": (True, True), "sinh": (True, True),
    "cosh": (True, True), "tanh": (True, True), "asinh": (True, True),
    "arcsinh": (True, True), "acosh": (True, True), "arccosh": (True, True),
    "atanh": (True, True), "arctanh": (True, True), "sinc": (True, True),
    "deg2rad": (True, True), "rad2deg": (True, True), "floor": (True, True),
    "ceil": (True, True), "round": (True, True), "trunc": (True, True),
    "fix": (True, True), "frac": (True, True), "isnan": (False, False),
    "isinf": (False, False), "isposinf": (False, True), "isneginf": (False, True),
    "isfinite": (False, False), "isreal": (False, False), "angle": (False, True),
    "conj": (False, False), "conj_physical": (True, True), "resolve_conj": (False, False),
    "resolve_neg": (False, False),
}
PREDICATES = ("signbit", "isnan", "isinf", "isposinf", "isneginf", "isfinite", "isreal")


@pytest.mark.parametrize("name", VARIANTS)
def test_variants_exist_as_in_torch(name):
    inplace, takes_out = VARIANTS[name]
    assert callable(getattr(gt, name)) and callable(getattr(gt.Tensor, name))
    assert hasattr(gt.Tensor, name + "_") == inplace
    x = gt.tensor([0.25, 0.5])
    out = gt.empty(2, dtype=gt.bool if name in PREDICATES else gt.float32)
    if takes_out:
        assert getattr(gt, name)(x, out=out) is out
    else:
        with pytest.raises(TypeError):
            getattr(gt, name)(x, out=out)


# (op, input dtype, out dtype, torch's message or None when accepted)
OUT_RULES = [
    ("floor", gt.int64, gt.float32, "Found dtype Float but expected Long"),
    ("neg", gt.float32, gt.float64, "Found dtype Double but expected Float"),
    ("sgn", gt.complex64, gt.complex128, "Found dtype ComplexDouble but expected ComplexFloat"),
    ("conj_physical", gt.int64, gt.int64, None),
    ("abs", gt.int64, gt.int32, "Found dtype Int but expected Long"),
    ("abs", gt.complex64, gt.float64, None),
    ("abs", gt.complex64, gt.complex64, None),
    ("abs", gt.complex64, gt.complex128, "Found dtype ComplexDouble but expected ComplexFloat"),
    ("abs", gt.complex64, gt.int64, "result type Float can't be cast to the desired output "
                                    "type Long"),
    ("exp", gt.int64, gt.float16, None),
    ("exp", gt.int64, gt.int64, "result type Float can't be cast to the desired output type Long"),
    ("angle", gt.complex64, gt.complex128, None),
    ("square", gt.bool, gt.uint8, None),
    ("isposinf", gt.float32, gt.uint8, "isposinf does not support non-boolean outputs."),
    ("signbit", gt.int64, gt.float32, "signbit does not support non-boolean outputs."),
]


@pytest.mark.parametrize("name, dtype, out_dtype, message", OUT_RULES)
def test_out_dtype_rules(name, dtype, out_dtype, message):
    """Unary ops want out= of exactly the result dtype where binary ops would cast."""
    x = gt.ones(3, dtype=dtype)
    out = gt.zeros(3, dtype=out_dtype)
    if message is None:
        assert getattr(gt, name)(x, out=out) is out
        return
    with pytest.raises(RuntimeError, match=f"^{message}$"):
        getattr(gt, name)(x, out=out)
    assert not out.numpy().any()


def test_inplace_refusals_change_nothing():
    c = gt.tensor([1 + 1j, -2j])
    with pytest.raises(RuntimeError, match="^In-place abs is not supported for complex tensors"):
        c.abs_()
    expanded = gt.tensor([[1.0, -2.0]]).expand(3, 2)
    with pytest.raises(RuntimeError, match="^unsupported operation: more than one element of "
                                           "the written-to tensor refers to a single memory"):
        expanded.neg_()
    with pytest.raises(RuntimeError, match="^unsupported operation"):
        gt.sin(gt.ones(3, 2), out=expanded)
    assert expanded.tolist() == [[1.0, -2.0]] * 3 and expanded._version == 0
    assert c.tolist() == [1 + 1j, -2j]
    on_meta = gt.empty(1, 2, device="meta").expand(3, 2)
    assert on_meta.neg_() is on_meta                    # torch skips the check on meta
    assert gt.empty((0, 2)).expand(4, 0, 2).neg_().shape == (4, 0, 2)      # nothing shared


def test_conj_physical_in_place_on_reals_only_counts_a_write():
    expanded = gt.tensor([[1.0, -2.0]]).expand(3, 2)
    assert expanded.conj_physical_() is expanded and expanded._version == 1
    c = gt.tensor([1 + 2j])
    assert c.conj_physical_() is c and c.tolist() == [1 - 2j]


# CPU kernels refuse these dtypes; the same call on meta succeeds, as in torch.
KERNEL_ONLY = [("abs", gt.bool, NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'"),
               ("neg", gt.uint16, NotImplementedError, "\"neg_cpu\" not implemented for 'UInt16'"),
               ("sign", gt.complex64, NotImplementedError, "Unlike NumPy, torch.sign is not"),
               ("floor", gt.complex128, NotImplementedError, "floor is not supported for complex"),
               ("signbit", gt.complex64, NotImplementedError, "signbit is not implemented for"),
               ("frac", gt.int32, NotImplementedError, "\"frac_cpu\" not implemented for 'Int'")]


@pytest.mark.parametrize("name, dtype, error, message", KERNEL_ONLY)
def test_kernel_only_errors(name, dtype, error, message):
    with pytest.raises(error, match="^" + message):
        getattr(gt, name)(gt.ones(2, dtype=dtype))
    on_meta = getattr(gt, name)(gt.ones(2, dtype=dtype, device="meta"))
    assert on_meta.device.type == "meta" and on_meta.shape == (2,)


def test_errors_worded_differently_on_meta():
    """torch's meta rules word these refusals their own way."""
    with pytest.raises(RuntimeError, match="^isposinf does not support complex inputs.$"):
        gt.isposinf(gt.ones(2, dtype=gt.complex64))
    with pytest.raises(RuntimeError, match="^Complex dtype is not supported for isneginf, got "
                                           "dtype torch.complex64$"):
        gt.isneginf(gt.ones(2, dtype=gt.complex64, device="meta"))
    with pytest.raises(RuntimeError, match="^Subtraction, the `-` operator, with two bool"):
        gt.frac(gt.ones(2, dtype=gt.bool, device="meta"))
    with pytest.raises(RuntimeError, match="^The `\\+` operator, on a bool tensor is not"):
        gt.positive(gt.ones(2, dtype=gt.bool, device="meta"))


def test_inputs_returned_as_themselves():
    x = gt.tensor([1.0, -2.0])
    for op in (gt.positive, gt.conj, gt.conj_physical, gt.resolve_conj, gt.resolve_neg):
        assert op(x) is x
    c = gt.tensor([1 + 2j, -3j])
    assert gt.resolve_conj(c) is c and gt.resolve_neg(c) is c
    conj = gt.conj(c)            # a lazy view carrying the conjugate bit, as torch's
    assert conj.tolist() == [1 - 2j, 3j] and conj._is_view() and conj.is_conj()
    assert conj.untyped_storage().data_ptr() == c.untyped_storage().data_ptr()


def test_python_operators():
    x = gt.tensor([-1.5, 2.0])
    assert (+x) is x
    assert abs(x).tolist() == [1.5, 2.0] and (-x).tolist() == [1.5, -2.0]
    assert abs(gt.tensor([3 + 4j])).dtype is gt.float32
    with pytest.raises(RuntimeError, match="^The `\\+` operator, on a bool tensor"):
        +gt.tensor([True])


ROUNDED = {2: [2.680000066757202, 1.0, 0.11999999731779099, 0.3799999952316284, -2.5,
               12345.6796875, 1.0000000150474662e+30],
           -2: [0.0, 0.0, 0.0, 0.0, -0.0, 12300.0, 1.00000009060533e+30],
           40: [float("nan")] * 7}


@pytest.mark.parametrize("decimals", ROUNDED)
def test_round_decimals_as_torch(decimals):
    """float32 scaled by 10**decimals in float32: torch's answers, nan past the range."""
    x = gt.tensor([2.675, 1.005, 0.125, 0.375, -2.5, 12345.678, 1e30])
    got = gt.round(x, decimals=decimals).numpy().astype(np.float64)
    np.testing.assert_array_equal(got, ROUNDED[decimals])
    assert np.isnan(got[4]) or np.signbit(got[4])           # -2.5 and -0.0 keep the sign


def test_values_at_the_edges():
    special = gt.tensor([float("nan"), -0.0, 0.0, float("-inf")])
    assert gt.sign(special).tolist() == [0.0, 0.0, 0.0, -1.0]
    assert not gt.signbit(gt.sign(special))[1]                   # -0.0 gives +0.0
    assert gt.signbit(special).tolist() == [False, True, False, True]
    np.testing.assert_array_equal(gt.angle(special).numpy(),
                                  np.float32([np.nan, 0, 0, np.pi]))
    assert gt.sgn(gt.tensor([0j, 3 + 4j])).tolist() == [0j, pytest.approx(0.6 + 0.8j)]
    assert gt.rsqrt(gt.tensor([0.0, -0.0])).tolist() == [float("inf"), float("-inf")]
    assert gt.abs(gt.tensor([-128], dtype=gt.int8)).tolist() == [-128]
    assert gt.square(gt.tensor([True, False])).dtype is gt.int64
    assert gt.floor(gt.tensor([7], dtype=gt.uint8)).dtype is gt.uint8


def test_float16_computes_in_float32_and_rounds_once():
    values = np.linspace(-5, 5, 101, dtype=np.float16)
    for op, reference in ((gt.exp, np.exp), (gt.sinc, np.sinc), (gt.rad2deg, np.rad2deg)):
        got = op(gt.from_numpy(values)).numpy()
        expected = reference(values.astype(np.float32)).astype(np.float16)
        np.testing.assert_allclose(got.astype(np.float32), expected.astype(np.float32),
                                   rtol=1e-3)


def test_large_in_place_kernels_split_over_threads():
    """Kernels that read their input after writing `out` must survive out is self."""
    threads = gt.get_num_threads()
    gt.set_num_threads(2)
    try:
        x = gt.from_numpy(np.linspace(-20, 20, 200_001, dtype=np.float64))
        for name in ("sinc", "frac", "rsqrt", "sgn"):
            expected = getattr(gt, name)(x)
            inplace = x.clone()
            getattr(inplace, name + "_")()
            np.testing.assert_array_equal(inplace.numpy(), expected.numpy())
    finally:
        gt.set_num_threads(threads)


# ----- derivative formulas (evaluated here until the autograd engine wires them) -----
NOT_FOR_COMPLEX = ("deg2rad", "rad2deg", "floor", "ceil", "round", "trunc", "fix", "frac",
                   "sign")
REAL_GRAD = ("abs", "absolute", "angle")          # real results take real gradients


def _formula_cases():
    from glasstorch.aten.native import load
    from glasstorch.aten.registry import DECLARATIONS
    families = [f"glasstorch.aten.native.pointwise.{name}"
                for name in ("unary", "trigonometric", "rounding", "predicates", "conj")]
    for family in families:             # the cases must not hang on what loaded before
        load(family.removeprefix("glasstorch.aten.native."))
    for name, decl in DECLARATIONS.items():
        if decl.grad and getattr(decl.kernel, "__module__", "") in families:
            yield pytest.param(name, decl.grad["self"], id=name)


@pytest.mark.parametrize("name, formula", _formula_cases())
def test_derivative_formulas_match_torch_autograd(name, formula):
    torch = pytest.importorskip("torch")
    from glasstorch.aten.native.pointwise.conj import angle_backward
    from glasstorch.aten.native.pointwise.trigonometric import sinc_backward
    from glasstorch.aten.native.pointwise.unary import sgn_backward
    base = name.split(".")[0]
    kwargs = {"decimals": 2} if name == "round.decimals" else {}
    rng = np.random.default_rng(0)
    for is_complex in (False, True):
        if is_complex and base in NOT_FOR_COMPLEX:
            continue
        x = rng.uniform(0.1, 0.9, 5) + (1.5 if base in ("acosh", "arccosh") else 0)
        grad = rng.uniform(-1, 1, 5)
        if is_complex:
            x = x + 1j * rng.uniform(0.1, 0.9, 5)
            grad = grad if base in REAL_GRAD else grad + 1j * rng.uniform(-1, 1, 5)
        theirs = torch.tensor(x, requires_grad=True)
        getattr(torch, base)(theirs, **kwargs).backward(torch.tensor(grad))
        expected = theirs.grad.numpy(force=True)
        mine = gt.tensor(x)
        names = {"grad": gt.tensor(grad), "self": mine, "zeros_like": gt.zeros_like,
                 "result": getattr(gt, base)(mine, **kwargs), "sgn_backward": sgn_backward,
                 "angle_backward": angle_backward, "sinc_backward": sinc_backward,
                 "tanh_backward": gt.ops.aten.tanh_backward}
        np.testing.assert_allclose(eval(formula, names).numpy(), expected, rtol=1e-6,
                                   atol=1e-9)
