"""complex32 (chalf): stored as float16 pairs, computed in complex64 where torch's CPU
kernels compute it, refused where they have no loop (Note [complex32 as float16 pairs]
in c10/dtype.py, aten/complex_half.py), against torch."""
import re
import warnings

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.c10.dtype import complex_to_pairs, pairs_to_complex64

torch = pytest.importorskip("torch")


def _outcome(lib, expression: str):
    x = lib.tensor([[1 + 2j, 3.5 - 1j], [0.1j, -2]], dtype=lib.chalf)
    h = lib.tensor([1.5, -0.25], dtype=lib.half)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")           # torch: ComplexHalf is "experimental"
        try:
            result = eval(expression, {"torch": lib, "x": x, "h": h})
        except Exception as error:      # noqa: BLE001 - the error is the outcome
            return type(error).__name__, str(error)
    if not hasattr(result, "stride"):
        return repr(result)
    return (str(result.dtype), tuple(result.shape), result.stride(), repr(result),
            result.tolist())


EXPRESSIONS = [
    # storage, views, printing, conversions
    "x", "x.t()", "x[1]", "x.real", "x.imag", "x.conj()", "x.mH", "torch.view_as_real(x)",
    "torch.view_as_complex(torch.view_as_real(x))", "x.view(torch.float32)",
    "x.to(torch.complex64)", "x.to(torch.complex128)", "x.to(torch.float32)",
    "torch.tensor([65504 + 1j, 70000, 1e-8j], dtype=torch.complex64).to(torch.chalf)",
    "torch.tensor([0.1 + 0.2j], dtype=torch.complex128).to(torch.chalf)",
    "x.element_size()", "x.untyped_storage().nbytes()", "x[0, 0].item()", "complex(x[1, 1])",
    "x.tolist()", "torch.zeros(2, dtype=torch.chalf)", "torch.ones(2, dtype=torch.chalf)",
    "torch.full((2,), 1 + 1j, dtype=torch.chalf)", "torch.zeros(3, dtype=torch.chalf).fill_(2j)",
    "torch.empty(2, 3, dtype=torch.chalf).shape", "x.clone()", "x.contiguous()",
    "x.t().contiguous()", "torch.cat([x, x])", "torch.stack([x, x])", "x.reshape(4)",
    "x[torch.tensor([1, 0])]", "x.masked_fill(x.real > 0, 7)", "torch.where(x.real > 0, x, 0)",
    "x.nonzero()", "torch.zeros_like(x)", "x.new_zeros(2)",
    # float16 with complex numbers: complex32, imaginary parts kept
    "h * 1j", "h + (2 + 3j)", "h - 1j", "torch.result_type(h, 1j)", "h.to(torch.chalf)",
    "torch.promote_types(torch.half, torch.chalf)", "h + x[0]", "x * x.to(torch.complex64)",
    # the kernels torch has
    "x + x", "x - 1", "x * x", "x * 2j", "-x", "x.abs()", "x.sgn()", "x == x", "x != 0",
    "x.isnan()", "x.isfinite()", "x.conj_physical()", "torch.allclose(x, x)",
    "x.clone().mul_(2j)", "x.clone().add_(x)",
    # and the ones it lacks
    "x / x", "x.exp()", "x.sqrt()", "x.sum()", "x.mean()", "x.prod()", "x @ x", "x.angle()",
    "x.reciprocal()", "x ** 2", "x.square()", "x.tanh()", "x.log()", "x.sigmoid()",
    "x.cumsum(0)", "torch.dot(x[0], x[1])", "torch.linspace(0, 1, 3, dtype=torch.chalf)",
    "x.clone().exp_()", "x.flip(0)", "x.sort()", "x.roll(1)",
]


@pytest.mark.parametrize("expression", EXPRESSIONS)
def test_matches_torch(expression):
    assert _outcome(gt, expression) == _outcome(torch, expression)


@pytest.mark.parametrize("size", [2, 5, 16, 40])
def test_random_draws_match_torch(size):
    found = []
    for lib in (gt, torch):
        lib.manual_seed(size)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            found.append([lib.randn(size, dtype=lib.chalf).tolist(),
                          lib.rand(size, dtype=lib.chalf).tolist(),
                          lib.empty(size, dtype=lib.chalf).normal_(1, 2).tolist()])
    assert found[0] == found[1]


def test_meta_tensors_take_every_operator():
    m = gt.zeros(2, dtype=gt.chalf, device="meta")
    assert m.exp().dtype is gt.chalf and m.sum().shape == ()


def test_pairs_round_each_part_once():
    values = np.array([1 + 1e-4j, 65519 - 3.14159j, np.nan + 1j], np.complex64)
    pairs = complex_to_pairs(values)
    assert pairs.dtype.itemsize == 4
    assert pairs["real"].tolist()[:2] == [1.0, 65504.0] and pairs["imag"][1] == np.float16(-3.14159)
    back = pairs_to_complex64(pairs)
    assert back.dtype == np.complex64 and np.isnan(back[2].real) and back[2].imag == 1


@pytest.mark.parametrize("first", ["torch.zeros(2, dtype=torch.chalf)",
                                   "torch.ones(2, dtype=torch.half) * 1j",
                                   "torch.tensor([1j], dtype=torch.chalf)"])
def test_the_first_complex32_tensor_warns_once_as_torchs(first):
    import subprocess
    import sys
    script = (f"import warnings, {{lib}} as torch\n"
              f"with warnings.catch_warnings(record=True) as caught:\n"
              f"    warnings.simplefilter('always')\n"
              f"    {first}; {first}\n"
              f"print([str(w.message) for w in caught])\n")
    outputs = [subprocess.run([sys.executable, "-c", script.format(lib=lib)], capture_output=True,
                              text=True, check=True).stdout for lib in ("glasstorch", "torch")]
    # torch's text ends with the C++ place that warned, which names its build
    theirs = re.sub(r" \(Triggered internally at [^)]*\)", "", outputs[1])
    assert outputs[0] == theirs == ("[\"ComplexHalf support is experimental and many "
                                    "operators don't support it yet.\"]\n")
