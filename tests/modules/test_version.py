"""torch.version and torch.torch_version, against torch's CPU wheel."""
import pytest

import glasstorch as gt
from glasstorch.torch_version import TorchVersion

OPERANDS = ["abc!!", "2.13", "2.13.0a0", "2.13.0.post1", "2.13.0+cpu", (2, 13), (2, 13, 0),
            [2, 12], "2.13.0rc1", "v2.13", "2.13.0+cu118", "1!0.1", "2.13.0.dev20260101",
            "2.13.0+cpu.1", "2.13.0+cpu.a", "3", "10.0"]


@pytest.mark.parametrize("other", OPERANDS, ids=str)
@pytest.mark.parametrize("mine", ["2.13.0+cpu", "2.13.0", "2.13.0rc1", "parrot"])
def test_compares_as_torch(mine, other):
    torch = pytest.importorskip("torch")
    ours, theirs = TorchVersion(mine), torch.torch_version.TorchVersion(mine)
    for op in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__", "__ne__"):
        assert getattr(ours, op)(other) == getattr(theirs, op)(other), op


@pytest.mark.parametrize("other", [None, 2.5, 3])
def test_other_types_refused_as_torch(other):
    torch = pytest.importorskip("torch")
    with pytest.raises(TypeError) as theirs:
        torch.__version__ > other
    with pytest.raises(TypeError) as ours:
        gt.__version__ > other
    assert str(ours.value) == str(theirs.value)


def test_version_module_as_torch():
    torch = pytest.importorskip("torch")
    import glasstorch.version as version
    assert version.__all__ == torch.version.__all__
    for name in ("cuda", "hip", "rocm", "xpu", "debug"):
        assert getattr(version, name) == getattr(torch.version, name)
    assert isinstance(gt.__version__, TorchVersion) and gt.__version__ >= (2, 13)
    assert gt.version.__version__ is gt.__version__
    assert isinstance(gt.version.git_version, str)
    assert hash(gt.__version__) == hash(str(gt.__version__))
    assert gt.torch_version.__all__ == torch.torch_version.__all__
