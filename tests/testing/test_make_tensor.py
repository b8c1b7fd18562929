"""torch.testing.make_tensor against torch: for the same seed the same values, bit for bit,
in every dtype; the default and clamped ranges, noncontiguous/exclude_zero/requires_grad,
and the refusals with torch's messages."""
import warnings

import numpy as np
import pytest

import glasstorch as gt

DTYPES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
          "float16", "bfloat16", "float32", "float64", "complex32", "complex64", "complex128",
          "float8_e4m3fn", "float8_e5m2"]


def _values(lib, tensor) -> np.ndarray:
    """The exact values as NumPy can hold them (narrow floats widened, exactly)."""
    tensor = tensor.detach()
    if tensor.dtype in (lib.float16, lib.bfloat16) or tensor.dtype.itemsize == 1 and \
            tensor.dtype.is_floating_point:
        tensor = tensor.to(lib.float32)
    elif tensor.dtype == lib.complex32:
        tensor = tensor.to(lib.complex64)
    return tensor.numpy()


def _make(lib, seed, *shape, **kwargs):
    lib.manual_seed(seed)
    dtype = getattr(lib, kwargs.pop("dtype"))
    return lib.testing.make_tensor(*shape, dtype=dtype, device="cpu", **kwargs)


def _same(seed, *shape, **kwargs):
    torch = pytest.importorskip("torch")
    ours, theirs = _make(gt, seed, *shape, **kwargs), _make(torch, seed, *shape, **kwargs)
    assert str(ours.dtype) == str(theirs.dtype)
    assert tuple(ours.shape) == tuple(theirs.shape) and ours.stride() == theirs.stride()
    assert ours.requires_grad == theirs.requires_grad
    np.testing.assert_array_equal(_values(gt, ours), _values(torch, theirs))
    return ours


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("seed", [0, 7])
def test_default_range_values_match_torch(dtype, seed):
    _same(seed, 5, 4, dtype=dtype)


@pytest.mark.parametrize("dtype", ["int64", "uint8", "float32", "float64", "complex64", "bfloat16"])
@pytest.mark.parametrize("low,high", [(0, 1), (-3, None), (None, 2.5), (-1e40, 1e40), (0.5, 3.5)])
def test_bounds_match_torch(dtype, low, high):
    _same(3, 6, dtype=dtype, low=low, high=high)


@pytest.mark.parametrize("dtype", ["float32", "int32", "complex128", "bool"])
def test_options_match_torch(dtype):
    grad = dtype in ("float32", "complex128")
    ours = _same(1, 3, 4, dtype=dtype, noncontiguous=True, requires_grad=grad)
    assert not ours.is_contiguous()
    _same(1, (2, 3), dtype=dtype, exclude_zero=True)
    _same(1, [4], dtype=dtype, noncontiguous=True)
    _same(1, 1, dtype=dtype, noncontiguous=True)     # one element stays contiguous
    _same(1, dtype=dtype)


def test_exclude_zero_replaces_every_zero():
    for dtype in ("int8", "float32"):
        values = _make(gt, 0, 1000, dtype=dtype, low=0, high=2, exclude_zero=True)
        assert not (values == 0).any()


def _error(call):
    try:
        call()
    except Exception as e:          # noqa: BLE001 (the test compares any error)
        return type(e).__name__, str(e)
    return None


REFUSALS = [
    dict(dtype="int64", requires_grad=True),
    dict(dtype="bool", requires_grad=True),
    dict(dtype="float32", low=2, high=1),
    dict(dtype="int32", low=5, high=5),
    dict(dtype="float32", low=float("nan")),
    dict(dtype="uint8", low=-10, high=-1),
    dict(dtype="int8", low=200, high=300),
    dict(dtype="float16", low=1e6, high=1e7),
    dict(dtype="float32", noncontiguous=True, memory_format="contiguous_format"),
]


@pytest.mark.parametrize("kwargs", REFUSALS, ids=repr)
def test_refusals_match_torch(kwargs):
    torch = pytest.importorskip("torch")

    def call(lib):
        options = dict(kwargs)
        if "memory_format" in options:
            options["memory_format"] = getattr(lib, options["memory_format"])
        return _make(lib, 0, 3, **options)
    expected = _error(lambda: call(torch))
    assert expected is not None
    assert _error(lambda: call(gt)) == expected


def test_low_equal_high_warns_for_floats_as_torch():
    torch = pytest.importorskip("torch")
    for lib in (gt, torch):
        with pytest.warns(FutureWarning, match="Passing `low==high`"):
            _make(lib, 0, 3, dtype="float32", low=1.0, high=1.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        _same(0, 3, dtype="float32", low=1.0, high=1.0)
