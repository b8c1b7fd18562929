"""Typed storages (`glasstorch/storage.py`): TypedStorage, the legacy names, and
`Tensor.storage()`, against torch."""
import warnings

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def _outcome(call, lib):
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = call(lib)
        return "ok", str(result).replace("glasstorch", "torch")
    except Exception as error:   # noqa: BLE001 - the error is the outcome
        return type(error).__name__, str(error)


CALLS = {
    "storage repr": lambda lib: lib.arange(6.).reshape(2, 3).storage(),
    "storage facts": lambda lib: _facts(lib.arange(6.)[2:].storage()),
    "storage writes reach the tensor": lambda lib: _write(lib),
    "untyped is the tensor's": lambda lib: lib.arange(3.).storage().untyped().nbytes(),
    "legacy size": lambda lib: lib.FloatStorage(3).size(),
    "legacy values": lambda lib: lib.DoubleStorage([1, 2]),
    "legacy isinstance": lambda lib: [isinstance(lib.FloatStorage([1]), c) for c in (
        lib.TypedStorage, lib.FloatStorage, lib.DoubleStorage)],
    "legacy dtype": lambda lib: [lib.FloatStorage.dtype, lib.BoolStorage.dtype,
                                 lib.ComplexDoubleStorage.dtype],
    "legacy class repr": lambda lib: lib.LongStorage,
    "legacy empty": lambda lib: lib.FloatStorage().size(),
    "legacy two sizes": lambda lib: lib.FloatStorage(2, 3),
    "legacy device keyword": lambda lib: lib.FloatStorage(3, device="cpu"),
    "typed": lambda lib: lib.TypedStorage([1, 2], dtype=lib.int64),
    "typed default dtype": lambda lib: lib.TypedStorage(3).dtype,
    "index": lambda lib: [lib.FloatStorage([1, 2, 3])[i] for i in (0, -1)],
    "index out of range": lambda lib: lib.FloatStorage([1, 2, 3])[5],
    "negative out of range": lambda lib: lib.FloatStorage([1, 2, 3])[-4],
    "slice": lambda lib: lib.FloatStorage([1, 2, 3])[0:2],
    "iterate": lambda lib: list(lib.FloatStorage([1, 2, 3])),
    "conversions": lambda lib: [lib.FloatStorage([1.5]).double(), lib.FloatStorage([1.5]).int(),
                                lib.FloatStorage([1.5]).type()],
    "fill_": lambda lib: lib.FloatStorage(2).fill_(3),
    "resize_": lambda lib: _resized(lib.FloatStorage([1, 2, 3])),
    "pickle type": lambda lib: lib.LongStorage([1]).pickle_storage_type(),
    "is_storage": lambda lib: [lib.is_storage(lib.zeros(1).storage()),
                               lib.is_storage(lib.zeros(1).untyped_storage()),
                               lib.is_storage(lib.zeros(1))],
    "meta": lambda lib: lib.TypedStorage(3, dtype=lib.int64, device="meta"),
}


def _facts(s):
    return (s.dtype, s.size(), len(s), s.device, s.nbytes(), s.element_size(), s.is_cuda,
            s.get_device(), s.is_shared(), s.is_pinned())


def _write(lib):
    x = lib.arange(3.)
    x.storage()[0] = 7
    return x


def _resized(s):
    s.resize_(5)
    return s.size()


@pytest.mark.parametrize("name", list(CALLS))
def test_typed_storage_as_torch(name):
    assert _outcome(CALLS[name], gt) == _outcome(CALLS[name], torch)


def test_storage_warns_once_as_torch():
    gt.set_warn_always(True)
    try:
        with pytest.warns(UserWarning, match="^TypedStorage is deprecated"):
            gt.zeros(1).storage()
    finally:
        gt.set_warn_always(False)


def test_storage_shares_the_tensor_memory():
    x = gt.arange(3.)
    assert x.storage().data_ptr() == x.data_ptr()
    assert x.storage().untyped() is x.untyped_storage()
