"""The C library's bits (glasstorch/aten/libm.py, Note [The C library's bits]).

Every function equals Python's `math` (which calls the C library) element for element,
at every size: on a CPU with AVX-512, NumPy's own vector loops would not. float32 is
checked against the C library's float functions through ctypes, where it can be loaded.
The operators that promise those bits (cosh, sinh, exp2) are checked the same way.
"""
import ctypes
import ctypes.util
import math

import numpy as np
import pytest

import glasstorch as torch
from glasstorch.aten import libm

RNG = np.random.default_rng(0)
SIZES = (0, 1, 2, 3, 17, 2000)
FUNCTIONS = {           # name -> (math's function, arguments to test it on)
    "log": (math.log, lambda n: RNG.random(n) * 100 + 1e-3),
    "log1p": (math.log1p, lambda n: -RNG.random(n)),
    "exp": (math.exp, lambda n: RNG.uniform(-700, 700, n)),
    "exp2": (getattr(math, "exp2", None), lambda n: RNG.uniform(-1000, 1000, n)),  # 3.11+
    "cos": (math.cos, lambda n: RNG.uniform(-10, 10, n)),
    "sin": (math.sin, lambda n: RNG.uniform(-10, 10, n)),
    "tan": (math.tan, lambda n: RNG.uniform(-1.5, 1.5, n)),
    "cosh": (math.cosh, lambda n: RNG.uniform(-700, 700, n)),
    "sinh": (math.sinh, lambda n: RNG.uniform(-700, 700, n)),
}


def _c_float_function(name: str):
    """The C library's float version of `name` (``coshf``), or None where it cannot
    be loaded."""
    path = ctypes.util.find_library("m")
    if path is None:
        return None
    function = getattr(ctypes.CDLL(path), name + "f", None)
    if function is not None:
        function.restype = ctypes.c_float
        function.argtypes = [ctypes.c_float]
    return function


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
@pytest.mark.parametrize("n", SIZES)
def test_float64_is_the_c_librarys(name, n):
    reference, arguments = FUNCTIONS[name]
    if reference is None:
        pytest.skip(f"math.{name} needs a newer Python")
    x = arguments(n)
    expected = np.array([reference(v) for v in x.tolist()], np.float64)
    got = getattr(libm, name)(x)
    assert got.dtype == np.float64 and got.shape == x.shape
    assert got.tobytes() == expected.tobytes()


def test_pow_is_the_c_librarys():
    exponent = RNG.uniform(-300, 300, 2000)
    expected = np.array([math.pow(10.0, e) for e in exponent.tolist()])
    assert libm.pow(10.0, exponent).tobytes() == expected.tobytes()
    assert libm.pow(10.0, exponent[:1]).tobytes() == expected[:1].tobytes()


@pytest.mark.parametrize("name", ["cosh", "sinh", "exp2"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_operators_compute_with_the_c_library(name, dtype):
    """torch.cosh and friends: the C library's bits for contiguous, strided and short
    inputs alike, as torch's elementwise loop gets them one element at a time."""
    reference = FUNCTIONS[name][0] if dtype == "float64" else _c_float_function(name)
    if reference is None:
        pytest.skip(f"no reference {name} for {dtype} here")
    x = RNG.uniform(-80, 80, 3000).astype(dtype)
    expected = np.array([reference(v) for v in x.tolist()], dtype)
    for values, want in ((x, expected), (x[::3], expected[::3]), (x[:1], expected[:1])):
        got = getattr(torch, name)(torch.from_numpy(values)).numpy()
        assert got.tobytes() == np.ascontiguousarray(want).tobytes()


def test_shapes_out_and_other_dtypes():
    x = RNG.random((3, 4))
    assert libm.log(x).shape == (3, 4)
    assert libm.log(np.float64(0.5)).shape == ()
    out = np.zeros((3, 4))
    assert libm.exp(x, out=out) is out and out.tobytes() == libm.exp(x).tobytes()
    z = np.array([1 + 2j, -0.5j])
    np.testing.assert_array_equal(libm.cosh(z), np.cosh(z))
