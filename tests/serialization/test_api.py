"""torch.serialization's public names, the safe-globals API and the environment switches."""
import io
import pickle
import warnings
from collections import OrderedDict

import pytest

import glasstorch as gt
from tests.serialization import hostile_files


class Config:
    """A user class a checkpoint may hold once allowlisted."""

    def __init__(self, depth=0):
        self.depth = depth


def saved(obj) -> bytes:
    buffer = io.BytesIO()
    gt.save(obj, buffer)
    return buffer.getvalue()


def test_public_names_are_torchs():
    torch = pytest.importorskip("torch")
    assert gt.serialization.__all__ == torch.serialization.__all__
    for name in torch.serialization.__all__ + ["DEFAULT_PROTOCOL", "MAGIC_NUMBER",
                                               "PROTOCOL_VERSION", "STORAGE_KEY_SEPARATOR",
                                               "LONG_SIZE", "INT_SIZE", "SHORT_SIZE",
                                               "UNSAFE_MESSAGE", "FileLike", "MAP_LOCATION",
                                               "IS_WINDOWS", "MAP_PRIVATE", "MAP_SHARED"]:
        assert hasattr(gt.serialization, name), name
    for name in ("DEFAULT_PROTOCOL", "MAGIC_NUMBER", "PROTOCOL_VERSION", "UNSAFE_MESSAGE",
                 "STORAGE_KEY_SEPARATOR", "LONG_SIZE", "INT_SIZE", "SHORT_SIZE", "IS_WINDOWS",
                 "MAP_PRIVATE", "MAP_SHARED"):
        assert getattr(gt.serialization, name) == getattr(torch.serialization, name)
    assert gt.save is gt.serialization.save and gt.load is gt.serialization.load


def test_storage_type_and_location_helpers():
    torch = pytest.importorskip("torch")
    for name in ("FloatStorage", "BFloat16Storage", "BoolStorage"):
        assert str(gt.serialization.StorageType(name)) == str(torch.serialization.StorageType(name))
    assert gt.serialization.location_tag(gt.ones(1).untyped_storage()) == "cpu"
    storage = gt.ones(1).untyped_storage()
    assert gt.serialization.default_restore_location(storage, "cpu") is storage
    with pytest.raises(RuntimeError, match="torch.cuda.is_available\\(\\) is False"):
        gt.serialization.validate_cuda_device("cuda:0")


def test_user_class_needs_allowlisting():
    data = saved({"config": Config(3)})
    with pytest.raises(pickle.UnpicklingError) as error:
        gt.load(io.BytesIO(data))
    path = f"{Config.__module__}.Config"
    assert f"Unsupported global: GLOBAL {path} was not an allowed global by default." \
        in str(error.value)
    assert gt.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(data)) == [path]
    with gt.serialization.safe_globals([Config]):
        assert gt.serialization.get_safe_globals() == [Config]
        assert gt.load(io.BytesIO(data))["config"].depth == 3
        assert gt.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(data)) == []
    assert gt.serialization.get_safe_globals() == []
    gt.serialization.add_safe_globals([(Config, path)])
    try:
        assert gt.load(io.BytesIO(data))["config"].depth == 3
    finally:
        gt.serialization.clear_safe_globals()
    assert gt.serialization.get_safe_globals() == []
    assert gt.load(io.BytesIO(data), weights_only=False)["config"].depth == 3


def test_allowlisted_global_message_matches_torch():
    torch = pytest.importorskip("torch")
    data = saved({"config": Config(3)})
    messages = []
    for library in (gt, torch):
        with pytest.raises(pickle.UnpicklingError) as error:
            library.load(io.BytesIO(data))
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def test_unsafe_globals_of_torch_checkpoint_match():
    torch = pytest.importorskip("torch")
    buffer = io.BytesIO()
    torch.save({"f": print, "w": torch.ones(1), "o": OrderedDict()}, buffer)
    assert gt.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(buffer.getvalue())) == \
        torch.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(buffer.getvalue()))
    with pytest.raises(ValueError, match="Expected input to be a checkpoint returned by"):
        gt.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(b"not a zip"))


def test_environment_switches(monkeypatch):
    data = saved({"config": Config(1)})
    monkeypatch.setenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD", "1")
    with pytest.warns(UserWarning, match="TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD detected"):
        assert gt.load(io.BytesIO(data))["config"].depth == 1
    with pytest.raises(pickle.UnpicklingError):          # an explicit choice stands
        gt.load(io.BytesIO(data), weights_only=True)
    monkeypatch.setenv("TORCH_FORCE_WEIGHTS_ONLY_LOAD", "true")
    with pytest.raises(RuntimeError, match="Only one of `TORCH_FORCE_WEIGHTS_ONLY_LOAD`"):
        gt.load(io.BytesIO(data))
    monkeypatch.delenv("TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD")
    with pytest.raises(pickle.UnpicklingError):
        gt.load(io.BytesIO(data), weights_only=False)


def test_pickle_module_with_weights_only_is_refused():
    data = saved(gt.ones(1))
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit "
                                           "pickle_module is specified"):
        gt.load(io.BytesIO(data), pickle_module=pickle, weights_only=True)
    assert gt.load(io.BytesIO(data), pickle_module=pickle).tolist() == [1.0]


def test_other_protocols_warn_under_weights_only():
    buffer = io.BytesIO()
    gt.save([1, 2], buffer, pickle_protocol=3)
    buffer.seek(0)
    with pytest.warns(UserWarning, match="Detected pickle protocol 3 in the checkpoint"):
        assert gt.load(buffer) == [1, 2]


def test_whole_module_pickles_with_weights_only_false(tmp_path):
    gt.manual_seed(0)
    model = gt.nn.Sequential(gt.nn.Linear(2, 3), gt.nn.ReLU())
    gt.save(model, tmp_path / "model.pt")
    with pytest.raises(pickle.UnpicklingError):
        gt.load(tmp_path / "model.pt")
    loaded = gt.load(tmp_path / "model.pt", weights_only=False)
    assert type(loaded) is gt.nn.Sequential
    x = gt.ones(1, 2)
    assert loaded(x).tolist() == model(x).tolist()


def test_torch_pickled_module_loads_into_glasstorch_classes(tmp_path):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model = torch.nn.Linear(2, 3)
    torch.save(model, tmp_path / "m.pt")
    loaded = gt.load(tmp_path / "m.pt", weights_only=False)
    assert type(loaded) is gt.nn.Linear
    assert loaded.weight.tolist() == model.weight.tolist()


def test_mmap_and_crc_settings():
    import mmap
    assert gt.serialization.get_crc32_options() is True
    with pytest.raises(ValueError, match="Invalid argument in function set_default_mmap_options"):
        gt.serialization.set_default_mmap_options(12345)
    assert gt.serialization.get_default_mmap_options() == mmap.MAP_PRIVATE
    assert gt.serialization.get_default_load_endianness() is None
    with pytest.raises(TypeError, match="Invalid argument type in function"):
        gt.serialization.set_default_load_endianness("big")


def test_harmless_hostile_global_in_a_list_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    data = dict(hostile_files.code_running(str(marker)))["inside a tensor list"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(pickle.UnpicklingError):
            gt.load(io.BytesIO(data))
    assert not marker.exists()


def test_torch_legacy_whole_module_loads(tmp_path):
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(2, 2), torch.nn.ReLU())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        torch.save(model, tmp_path / "m.pt", _use_new_zipfile_serialization=False)
    loaded = gt.load(tmp_path / "m.pt", weights_only=False)
    assert type(loaded) is gt.nn.Sequential and type(loaded[1]) is gt.nn.ReLU
    assert loaded[0].bias.tolist() == model[0].bias.tolist()


class Tagged(gt.Tensor):
    """A tensor subclass a checkpoint may hold once allowlisted."""


def test_tensor_subclass_with_attributes():
    from glasstorch.c10.tensor_impl import make_tensor
    base = gt.ones(2)
    value = make_tensor(base._storage, base._size, base._stride, 0, base.dtype, None, Tagged)
    value.label = "kept"
    data = saved(value)
    with pytest.raises(pickle.UnpicklingError, match="GLOBAL .*Tagged was not an allowed"):
        gt.load(io.BytesIO(data))
    with gt.serialization.safe_globals([Tagged]):
        loaded = gt.load(io.BytesIO(data))
    assert type(loaded) is Tagged and loaded.label == "kept" and loaded.tolist() == [1, 1]


def test_torch_pickled_module_with_the_glasstorch_class_allowlisted():
    torch = pytest.importorskip("torch")
    buffer = io.BytesIO()
    torch.save(torch.nn.Linear(2, 3), buffer)
    data = buffer.getvalue()
    assert gt.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(data)) == \
        ["torch.nn.modules.linear.Linear"]
    with gt.serialization.safe_globals([gt.nn.Linear]):
        assert gt.serialization.get_unsafe_globals_in_checkpoint(io.BytesIO(data)) == []
        model = gt.load(io.BytesIO(data))
    assert type(model) is gt.nn.Linear and model(gt.ones(1, 2)).shape == (1, 3)
