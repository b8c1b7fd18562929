"""torch.utils.weak, file_baton, backcompat, deterministic, model_zoo, collect_env and
cpp_extension."""
import gc
import importlib
import os

import pytest

import glasstorch as gt


def test_weak_id_key_dictionary_keys_tensors_by_identity():
    from glasstorch.utils.weak import TensorWeakRef, WeakIdKeyDictionary, WeakIdRef
    a, b = gt.ones(2), gt.ones(2)
    table = WeakIdKeyDictionary()
    table[a], table[b] = "a", "b"
    assert table[a] == "a" and table[b] == "b" and len(table) == 2 and a in table
    del a
    gc.collect()
    assert len(table) == 1 and list(table) == [b]
    ref = TensorWeakRef(b)
    assert ref() is b and WeakIdRef(b) == WeakIdRef(b) and hash(WeakIdRef(b)) == id(b)
    del b, table
    gc.collect()
    assert ref() is None


def test_file_baton(tmp_path):
    from glasstorch.utils.file_baton import FileBaton
    path = str(tmp_path / "lock")
    first, second = FileBaton(path), FileBaton(path)
    assert first.try_acquire() and not second.try_acquire()
    first.release()
    second.wait()                       # returns at once: the file is gone
    assert not os.path.exists(path)


def test_backcompat_and_deterministic_as_torch():
    torch = pytest.importorskip("torch")
    import torch.utils.backcompat
    import torch.utils.deterministic  # noqa: F401
    from glasstorch.utils import backcompat, deterministic
    assert backcompat.broadcast_warning.enabled is torch.utils.backcompat.broadcast_warning.enabled
    backcompat.keepdim_warning.enabled = True
    assert backcompat.keepdim_warning.get_enabled() is True
    backcompat.keepdim_warning.enabled = False
    assert deterministic.fill_uninitialized_memory is \
        torch.utils.deterministic.fill_uninitialized_memory
    with pytest.raises(RuntimeError, match="expected a bool, but got int"):
        deterministic.fill_uninitialized_memory = 1
    deterministic.fill_uninitialized_memory = False
    assert gt.utils.deterministic.fill_uninitialized_memory is False
    deterministic.fill_uninitialized_memory = True


def test_model_zoo_is_hubs_loader():
    from glasstorch.utils import model_zoo
    try:
        hub = importlib.import_module("glasstorch.hub")
    except ModuleNotFoundError:
        with pytest.raises(NotImplementedError, match="needs torch.hub"):
            model_zoo.load_url("https://example.com/w.pth")
        return
    assert hasattr(hub, "load_state_dict_from_url")


def test_collect_env_report():
    from glasstorch.utils import collect_env
    report = collect_env.get_pretty_env_info()
    assert report.splitlines()[0] == f"PyTorch version: {gt.__version__}"
    assert "Is CUDA available: False" in report and "numpy==" in report


def test_cpp_extension_refuses_clearly():
    from glasstorch.utils import cpp_extension
    assert cpp_extension.CUDA_HOME is None and cpp_extension.IS_LINUX in (True, False)
    for name in ("load", "load_inline", "CppExtension", "CUDAExtension"):
        with pytest.raises(RuntimeError, match="glasstorch has no C\\+\\+ library"):
            getattr(cpp_extension, name)("ext", ["a.cpp"])
