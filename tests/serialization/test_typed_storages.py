"""Storages saved for themselves, against real torch both ways: a typed storage
(``tensor.storage()``) loads as a `TypedStorage` of its dtype, an untyped one as a uint8
`TypedStorage` (as torch's loader hands every storage back), in both formats, and
storages shared with tensors stay shared."""
import io
import pickle
import warnings

import pytest

import glasstorch as gt
from glasstorch.storage import TypedStorage

torch = pytest.importorskip("torch")

FORMATS = [{}, {"_use_new_zipfile_serialization": False}]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # TypedStorage's deprecation warning
        yield


def saved(library, obj, **save_args) -> bytes:
    buffer = io.BytesIO()
    library.save(obj, buffer, **save_args)
    return buffer.getvalue()


def loaded(library, data: bytes, **load_args):
    return library.load(io.BytesIO(data), **load_args)


@pytest.mark.parametrize("weights_only", [True, False])
@pytest.mark.parametrize("args", FORMATS)
@pytest.mark.parametrize("dtype", ["float32", "int16", "bfloat16", "bool", "complex64"])
def test_typed_storage_both_ways(dtype, args, weights_only):
    ref = (torch.arange(6) % 4).to(getattr(torch, dtype)).storage()
    glass = loaded(gt, saved(torch, ref, **args), weights_only=weights_only)
    assert type(glass) is TypedStorage
    assert str(glass.dtype) == str(ref.dtype) and glass.tolist() == ref.tolist()
    back = loaded(torch, saved(gt, glass, **args), weights_only=weights_only)
    assert type(back) is type(ref) and back.dtype == ref.dtype
    assert back.tolist() == ref.tolist()


def test_untyped_storage_loads_as_uint8_typed_storage():
    ref = torch.arange(4, dtype=torch.int16).untyped_storage()
    own = loaded(torch, saved(torch, ref))
    glass = loaded(gt, saved(torch, ref))
    assert type(glass) is TypedStorage and str(glass.dtype) == str(own.dtype) == "torch.uint8"
    assert glass.tolist() == own.tolist()
    untyped = gt.arange(4, dtype=gt.int16).untyped_storage()
    back = loaded(torch, saved(gt, untyped))
    assert type(back) is type(own) and back.tolist() == own.tolist()


@pytest.mark.parametrize("args", FORMATS)
def test_storage_shared_with_its_tensors(args):
    base = torch.arange(6.)
    ref = [base, base.storage(), base[2:]]
    glass = loaded(gt, saved(torch, ref, **args))
    assert glass[1].data_ptr() == glass[0].data_ptr() == glass[2].untyped_storage().data_ptr()
    glass[1][3] = 30.                     # one set of bytes: the views see the write
    assert glass[2].tolist() == [2., 30., 4., 5.]
    back = loaded(torch, saved(gt, glass, **args))
    assert back[1].data_ptr() == back[0].data_ptr() == back[2].untyped_storage().data_ptr()
    assert back[2].tolist() == [2., 30., 4., 5.] and back[1].dtype == torch.float32


@pytest.mark.parametrize("dtype", ["complex32", "uint16", "float8_e5m2"])
def test_typed_storage_without_a_legacy_class_is_refused_as_torch(dtype):
    def attempt(library):
        storage = library.zeros(2, dtype=getattr(library, dtype)).storage()
        with pytest.raises(KeyError) as info:
            saved(library, storage)
        return str(info.value)
    assert attempt(gt) == attempt(torch)


def test_typed_storage_and_tensor_as_different_dtypes_are_refused():
    tensor = gt.arange(4.)
    storage = TypedStorage(wrap_storage=tensor.untyped_storage(), dtype=gt.int32, _internal=True)
    with pytest.raises(RuntimeError, match="view the same data as different types"):
        saved(gt, [tensor, storage])


@pytest.mark.parametrize("weights_only", [True, False])
def test_storage_classes_by_name_as_torch(weights_only):
    # torch's loaders read a legacy class's name as a StorageType, TypedStorage as itself
    classes = [torch.FloatStorage, torch.storage.TypedStorage]
    glass = loaded(gt, saved(torch, classes), weights_only=weights_only)
    assert glass[0] == gt.serialization.StorageType("FloatStorage") and glass[1] is TypedStorage
    back = loaded(torch, saved(gt, [gt.FloatStorage, TypedStorage]), weights_only=weights_only)
    assert str(back[0]) == str(glass[0]) and back[1] is torch.storage.TypedStorage


def test_typed_storage_call_with_a_size_is_refused_weights_only():
    class Bomb:
        def __reduce__(self):
            return torch.storage.TypedStorage, (10 ** 12,)
    data = saved(torch, Bomb())
    with pytest.raises(pickle.UnpicklingError, match="Refusing to call"):
        loaded(gt, data)


@pytest.mark.parametrize("weights_only", [True, False])
def test_cuda_storage_type_names_load_as_torch(weights_only):
    # old CUDA checkpoints name torch.cuda.FloatStorage; both loaders accept it
    from tests.serialization.hostile_files import archive, global_, integer, program, text
    pid = (pickle.MARK + text("storage") + global_("torch.cuda", "FloatStorage") + text("0")
           + text("cpu") + integer(2) + pickle.TUPLE + pickle.BINPERSID)
    data = archive(program(pid), {"0": b"\0\0\x80?\0\0\0@"})
    ref = loaded(torch, data, weights_only=weights_only)
    glass = loaded(gt, data, weights_only=weights_only)
    assert type(glass) is TypedStorage and str(glass.dtype) == str(ref.dtype)
    assert glass.tolist() == ref.tolist() == [1., 2.]
