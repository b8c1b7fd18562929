"""Shell modules (Note [Shell modules]): importable, every public name saying it is missing."""
import importlib

import pytest

import glasstorch as gt
from glasstorch._shells import SHELLS


@pytest.mark.parametrize("module", sorted(SHELLS))
def test_shell_imports(module):
    name = "glasstorch" + module[len("torch"):]
    imported = importlib.import_module(name)
    assert imported.__name__ == name


def test_names_say_they_are_not_implemented():
    import glasstorch.ao.quantization as quantization
    with pytest.raises(AttributeError, match="glasstorch does not implement "
                                             "torch.ao.quantization.QuantStub yet"):
        quantization.QuantStub
    with pytest.raises(ImportError, match="QuantStub"):
        exec("from glasstorch.ao.quantization import QuantStub", {})
    assert not hasattr(quantization, "__wrapped__")


def test_top_level_and_utils_shells_load_on_first_use():
    assert gt.sparse.__name__ == "glasstorch.sparse"
    assert gt.utils.mobile_optimizer.__name__ == "glasstorch.utils.mobile_optimizer"
    with pytest.raises(AttributeError, match="does not implement torch.sparse.mm yet"):
        gt.sparse.mm


def test_dir_lists_torchs_names():
    from glasstorch.aten.torch_names import torch_names
    assert set(dir(gt.sparse)) >= torch_names("torch.sparse")
    assert "mm" in dir(gt.sparse)


def test_a_module_not_in_the_list_still_refuses():
    with pytest.raises(ModuleNotFoundError):
        importlib.import_module("glasstorch.not_a_torch_module")
