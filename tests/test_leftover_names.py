"""Differential tests of torch's remaining top-level names and legacy Tensor attributes."""
import warnings

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def test_reexports_are_the_same_objects_as_their_homes():
    assert gt.GradScaler is gt.amp.GradScaler
    assert gt.thread_safe_generator is gt.random.thread_safe_generator
    assert gt.to_dlpack is gt.utils.dlpack.to_dlpack
    assert gt.Storage is gt.FloatStorage
    assert gt.legacy_contiguous_format is gt.contiguous_format
    assert torch.Storage is torch.FloatStorage and torch.GradScaler is torch.amp.GradScaler


def test_storage_base_is_untyped_storages_base():
    assert isinstance(gt.UntypedStorage(4), gt.StorageBase)
    assert not isinstance(gt.FloatStorage(2), gt.StorageBase)
    assert isinstance(torch.UntypedStorage(4), torch.StorageBase)
    assert not isinstance(torch.FloatStorage(2), torch.StorageBase)


def test_fatal_error_is_an_exception_named_as_torchs():
    assert gt.FatalError.__mro__[1:] == torch.FatalError.__mro__[1:]
    assert repr(gt.FatalError) == repr(torch.FatalError)


def _same_error(kind, ours, theirs):
    with pytest.raises(kind) as mine:
        ours()
    with pytest.raises(kind) as reference:
        theirs()
    assert str(mine.value) == str(reference.value)


def test_build_answers():
    assert gt.is_vulkan_available() == torch.is_vulkan_available() is False
    assert gt.is_distributed(gt.ones(2)) == torch.is_distributed(torch.ones(2)) is False
    assert gt.ones(2).is_distributed() == torch.ones(2).is_distributed()
    _same_error(TypeError, lambda: gt.is_distributed(3), lambda: torch.is_distributed(3))


def test_name_is_none_and_read_only():
    assert gt.ones(2).name is None and torch.ones(2).name is None
    with pytest.raises(AttributeError):
        gt.ones(2).name = "a"


def _warnings(action):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = action()
    return value, [(w.category, str(w.message)) for w in caught]


def test_volatile_warns_as_torch():
    assert _warnings(lambda: gt.ones(1).volatile)[0] is False
    assert _warnings(lambda: gt.ones(1).volatile) == _warnings(lambda: torch.ones(1).volatile)
    ours, theirs = gt.ones(1), torch.ones(1)
    assert _warnings(lambda: setattr(ours, "volatile", True)) == \
        _warnings(lambda: setattr(theirs, "volatile", True))


def test_reinforce_refuses_as_torch():
    _same_error(RuntimeError, lambda: gt.ones(1).reinforce(1),
                lambda: torch.ones(1).reinforce(1))


@pytest.mark.parametrize("assign", [False, True])
def test_module_load(assign):
    results = []
    for lib in (gt, torch):
        mine, other = lib.zeros(3), lib.arange(3, dtype=lib.float64)
        loaded = mine.module_load(other, assign=assign)
        assert loaded is not mine and loaded is not other and not loaded.requires_grad
        results.append((loaded.dtype is lib.float64, loaded.tolist(), mine.tolist()))
    assert results[0] == results[1]


def test_module_load_refuses_an_in_place_copy_into_a_parameter():
    _same_error(RuntimeError, lambda: gt.nn.Parameter(gt.ones(2)).module_load(gt.zeros(2)),
                lambda: torch.nn.Parameter(torch.ones(2)).module_load(torch.zeros(2)))


class _TensorLike:
    @classmethod
    def __torch_function__(cls, func, types, args=(), kwargs=None):
        return "answered"


@pytest.mark.parametrize("manager", ["DisableTorchFunction", "DisableTorchFunctionSubclass"])
def test_disabling_torch_function(manager):
    for lib in (gt, torch):
        overrides = lib.autograd
        assert overrides.has_torch_function((_TensorLike(),))
        with getattr(lib, manager)():
            assert not overrides.has_torch_function((_TensorLike(),))
            with pytest.raises(TypeError, match=r"__torch_function__: \[\]"):
                overrides.handle_torch_function(lib.add, (_TensorLike(),), _TensorLike())
        assert overrides.handle_torch_function(lib.add, (_TensorLike(),), 1) == "answered"


def test_disabling_nests_and_restores():
    with gt.DisableTorchFunctionSubclass():
        with gt.DisableTorchFunction():
            assert not gt.autograd.has_torch_function((_TensorLike(),))
        assert not gt.autograd.has_torch_function((_TensorLike(),))
    assert gt.autograd.has_torch_function((_TensorLike(),))
    assert gt.DisableTorchFunction().__enter__() is None
