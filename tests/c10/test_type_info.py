"""torch.finfo / torch.iinfo: values, reprs and errors as torch's."""
import pytest

import glasstorch as torch

FLOATS = ["float16", "bfloat16", "float32", "float64", "complex64", "complex128",
          "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"]
INTS = ["uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64"]


def test_known_values():
    f = torch.finfo(torch.float16)
    assert (f.bits, f.max, f.eps, f.resolution, f.dtype) == (16, 65504.0, 0.0009765625, 0.001,
                                                            "float16")
    assert repr(torch.finfo(torch.float32)) == (
        "finfo(resolution=1e-06, min=-3.40282e+38, max=3.40282e+38, eps=1.19209e-07, "
        "smallest_normal=1.17549e-38, tiny=1.17549e-38, dtype=float32)")
    assert torch.finfo() == torch.finfo(torch.get_default_dtype())
    assert torch.finfo(torch.complex128) == torch.finfo(torch.float64)
    i = torch.iinfo(torch.int8)
    assert (i.bits, i.min, i.max, repr(i)) == (8, -128, 127, "iinfo(min=-128, max=127, dtype=int8)")
    assert repr(torch.iinfo(torch.int64)) == "iinfo(min=-9.22337e+18, max=9.22337e+18, dtype=int64)"


@pytest.mark.parametrize("call, message", [
    (lambda: torch.finfo(torch.int32), "requires a floating point input type"),
    (lambda: torch.iinfo(torch.float32), "requires an integer input type"),
    (lambda: torch.iinfo(torch.bool), "torch.bool is not supported by torch.iinfo"),
])
def test_errors(call, message):
    with pytest.raises(TypeError, match=message):
        call()


@pytest.mark.parametrize("name", FLOATS + INTS)
def test_vs_torch(name):
    real = pytest.importorskip("torch")
    info, real_info = ((torch.finfo, real.finfo) if name in FLOATS else (torch.iinfo, real.iinfo))
    ours, theirs = info(getattr(torch, name)), real_info(getattr(real, name))
    assert repr(ours) == repr(theirs)
    for field in ("bits", "min", "max", "dtype", "eps", "tiny", "smallest_normal", "resolution"):
        if hasattr(theirs, field):
            assert getattr(ours, field) == getattr(theirs, field), field
