"""`torch.frombuffer` and `torch.from_file` (`_tensor_buffers.py`), against torch."""
import array
import warnings

import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _outcome(call, lib):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call(lib)
        return "ok", result.tolist(), str(result.dtype), result.requires_grad
    except Exception as error:   # noqa: BLE001 - the error is the outcome
        return type(error).__name__, str(error)


def _same(call):
    assert _outcome(call, gt) == _outcome(call, torch)


BYTES = b"\x01\x00\x00\x00\x02\x00\x00\x00"
FROMBUFFER = {
    "int32": lambda lib: lib.frombuffer(bytearray(BYTES), dtype=lib.int32),
    "count and offset": lambda lib: lib.frombuffer(bytearray(BYTES), dtype=lib.int8, count=3,
                                                   offset=2),
    "bfloat16": lambda lib: lib.frombuffer(bytearray(BYTES), dtype=lib.bfloat16),
    "array.array": lambda lib: lib.frombuffer(array.array("f", [1, 2, 3]), dtype=lib.float32,
                                              requires_grad=True),
    "2-D ndarray": lambda lib: lib.frombuffer(np.arange(4, dtype=np.int16).reshape(2, 2),
                                              dtype=lib.int16),
    "read-only bytes": lambda lib: lib.frombuffer(BYTES, dtype=lib.int32),
    "count too large": lambda lib: lib.frombuffer(BYTES, dtype=lib.int32, count=3),
    "offset too large": lambda lib: lib.frombuffer(BYTES, dtype=lib.int32, offset=9),
    "negative offset": lambda lib: lib.frombuffer(BYTES, dtype=lib.int32, offset=-1),
    "count 0": lambda lib: lib.frombuffer(BYTES, dtype=lib.int32, count=0),
    "not a multiple": lambda lib: lib.frombuffer(BYTES, dtype=lib.int64, offset=1),
    "empty buffer": lambda lib: lib.frombuffer(b"", dtype=lib.float32),
    "no buffer protocol": lambda lib: lib.frombuffer([1, 2], dtype=lib.float32),
}


@pytest.mark.parametrize("name", list(FROMBUFFER))
def test_frombuffer_as_torch(name):
    _same(FROMBUFFER[name])


def test_frombuffer_shares_memory_both_ways():
    buffer = bytearray(BYTES)
    t = gt.frombuffer(buffer, dtype=gt.int32)
    buffer[0] = 9
    t[1] = 7
    assert t.tolist() == [9, 7] and bytes(buffer[4:]) == b"\x07\x00\x00\x00"


def test_frombuffer_warns_on_read_only_buffers():
    gt.set_warn_always(True)
    try:
        with pytest.warns(UserWarning, match="^The given buffer is not writable"):
            gt.frombuffer(BYTES, dtype=gt.int32)
    finally:
        gt.set_warn_always(False)


@pytest.fixture
def floats_file(tmp_path):
    path = tmp_path / "floats.bin"
    np.arange(6, dtype=np.float32).tofile(path)
    return str(path)


@pytest.mark.parametrize("kwargs", [dict(size=6), dict(shared=False, size=4, dtype="float32"),
                                    dict(size=3, dtype="float64"), dict(), dict(size=100),
                                    dict(size=2, requires_grad=True)])
def test_from_file_as_torch(floats_file, kwargs):
    def call(lib):
        options = {k: getattr(lib, v) if k == "dtype" else v for k, v in kwargs.items()}
        return lib.from_file(floats_file, **options)
    _same(call)


def test_from_file_refuses_a_missing_file(tmp_path):
    _same(lambda lib: lib.from_file(str(tmp_path / "missing.bin"), size=2))


def test_from_file_shared_writes_reach_the_file(floats_file):
    t = gt.from_file(floats_file, shared=True, size=3)
    t[0] = 5
    assert np.fromfile(floats_file, dtype=np.float32)[:3].tolist() == [5, 1, 2]


def test_from_file_private_writes_stay(floats_file):
    t = gt.from_file(floats_file, shared=False, size=6)
    t[1] = 9
    assert np.fromfile(floats_file, dtype=np.float32)[1] == 1 and t[1].item() == 9


def test_from_file_shared_creates_the_file(tmp_path):
    for lib in (gt, torch):
        path = tmp_path / f"{lib.__name__}.bin"
        assert lib.from_file(str(path), shared=True, size=4).tolist() == [0.0] * 4
        assert path.stat().st_size == 16
