"""DLPack (`_dlpack.py`, `torch.utils.dlpack`): zero-copy both ways with NumPy and with
torch itself, capsules read once, and torch's refusals."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def test_numpy_reads_a_tensor_without_copying():
    x = gt.arange(6.).reshape(2, 3)
    a = np.from_dlpack(x)
    a[0, 0] = 9
    assert x[0, 0].item() == 9
    assert np.from_dlpack(x.t()).strides == (4, 12)


def test_a_tensor_reads_numpy_without_copying():
    a = np.arange(4.)
    t = gt.from_dlpack(a)
    t[0] = 7
    assert a[0] == 7 and t.dtype is gt.float64


@pytest.mark.parametrize("array", [np.array([True, False]), np.zeros((2, 3))[:, ::2],
                                   np.arange(6, dtype=np.int16).reshape(2, 3).T])
def test_from_dlpack_keeps_dtype_and_strides_as_torch(array):
    mine, theirs = gt.from_dlpack(array), torch.from_dlpack(array)
    assert str(mine.dtype) == str(theirs.dtype) and mine.stride() == theirs.stride()
    assert mine.tolist() == theirs.tolist()


def test_exchange_with_torch_both_ways():
    x = gt.arange(3.)
    r = torch.from_dlpack(x)
    r[1] = 42
    assert x.tolist() == [0.0, 42.0, 2.0]
    t = torch.arange(3.)
    g = gt.from_dlpack(t)
    g[0] = 5
    assert t.tolist() == [5.0, 1.0, 2.0]


def test_capsules_are_read_once_and_writable():
    for lib in (gt, torch):
        x = lib.arange(3.)
        capsule = lib.utils.dlpack.to_dlpack(x)
        y = lib.utils.dlpack.from_dlpack(capsule)
        y[0] = 8
        assert x[0].item() == 8
        with pytest.raises(RuntimeError, match="^from_dlpack received an invalid capsule"):
            lib.utils.dlpack.from_dlpack(capsule)


def _outcome(call, lib):
    try:
        return "ok", call(lib)
    except Exception as error:   # noqa: BLE001 - the error is the outcome
        return type(error).__name__, str(error)


@pytest.mark.parametrize("call", [
    lambda lib: lib.zeros(2, requires_grad=True).__dlpack__(),
    lambda lib: lib.from_dlpack(3),
    lambda lib: [str(d) for d in lib.zeros(1).__dlpack_device__()],
    lambda lib: [(m.name, int(m)) for m in lib.utils.dlpack.DLDeviceType],
    lambda lib: lib.from_dlpack(np.arange(3.), copy=True).tolist(),
    lambda lib: lib.from_dlpack(np.arange(3.), device="meta"),
])
def test_dlpack_answers_as_torch(call):
    assert _outcome(call, gt) == _outcome(call, torch)
