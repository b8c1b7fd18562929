"""torch.types, torch.functional, torch.storage, torch.nn.common_types against torch."""
import pytest

import glasstorch as gt


def test_types_names():
    torch = pytest.importorskip("torch")
    import glasstorch.types as types
    assert types.__all__ == torch.types.__all__
    for name in ("Number", "Device", "FileLike", "Storage", "IntLikeType", "FloatLikeType",
                 "BoolLikeType", "PySymType", "py_sym_types", "Size", "Tensor", "_size",
                 "_TensorOrTensors", "_Number"):
        assert hasattr(types, name), name
    assert types.Size is gt.Size and types.Tensor is gt.Tensor
    assert types._Number == torch.types._Number
    with pytest.raises(NotImplementedError):
        types.Storage().nbytes()


def test_functional_reexports():
    torch = pytest.importorskip("torch")
    import glasstorch.functional as functional
    assert functional.__all__ == torch.functional.__all__
    assert functional.einsum is gt.einsum and functional.split is gt.split
    assert set(functional.__all__) <= set(dir(functional))


def test_functional_missing_name_says_so():
    import glasstorch.functional as functional
    missing = [name for name in functional.__all__ if not hasattr(gt, name)]
    for name in missing:
        with pytest.raises(AttributeError,
                           match=f"does not implement torch.functional.{name} yet"):
            getattr(functional, name)
    with pytest.raises(AttributeError, match="has no attribute 'nonsense'$"):
        functional.nonsense


def test_storage_module():
    torch = pytest.importorskip("torch")
    import glasstorch.storage as storage
    assert storage.__all__ == torch.storage.__all__
    assert storage.UntypedStorage is gt.UntypedStorage
    assert storage.HAS_NUMPY is torch.storage.HAS_NUMPY
    assert storage.TypedStorage is gt.TypedStorage
    assert isinstance(gt.zeros(2).storage(), storage.TypedStorage)


def test_nn_common_types():
    torch = pytest.importorskip("torch")
    import torch.nn.common_types as theirs

    import glasstorch.nn.common_types as ours
    names = [name for name in vars(theirs) if name.startswith("_") and name.endswith("_t")]
    assert names and all(hasattr(ours, name) for name in names)
    assert ours._size_2_t == (int | tuple[int, int])


def test_functional_keeps_torchs_helper_imports():
    import glasstorch.functional as functional
    assert functional.Tensor is gt.Tensor
    assert functional.has_torch_function_unary(gt.ones(1)) is False
