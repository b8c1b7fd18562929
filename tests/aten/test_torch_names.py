"""Names glasstorch lacks say so (Note [Names glasstorch does not implement yet]).

Each test adds an invented name to torch's list (so it keeps testing the mechanism however
many names other work adds), plus a few checks on the real data file.
"""
import pathlib
import subprocess
import sys
import traceback

import pytest

import glasstorch as gt
from glasstorch.aten import torch_names

ROOT = pathlib.Path(__file__).resolve().parents[2]
INVENTED = "imaginary_fn"


@pytest.fixture
def with_invented(monkeypatch):
    """torch's lists, each section and the submodules gaining an invented entry."""
    sections = {section: names | {INVENTED} for section, names in torch_names.sections().items()}
    sections["submodules"] = sections["submodules"] | {"torch.imaginary", "torch.nn.imaginary",
                                                      "torch.utils.imaginary"}
    monkeypatch.setattr(torch_names, "_SECTIONS", sections)
    return sections


def shown(error: BaseException) -> str:
    """The last line Python prints for an uncaught `error` (with any "Did you mean")."""
    return traceback.format_exception_only(type(error), error)[-1].strip()


@pytest.mark.parametrize("module", [gt, gt.nn, gt.nn.functional, gt.linalg, gt.special,
                                    gt.optim, gt.autograd])
def test_missing_name_says_not_implemented(with_invented, module):
    torch_name = "torch" + module.__name__[len("glasstorch"):]
    with pytest.raises(AttributeError) as info:
        getattr(module, INVENTED)
    assert shown(info.value) == (
        f"AttributeError: module '{module.__name__}' has no attribute '{INVENTED}': "
        f"glasstorch does not implement {torch_name}.{INVENTED} yet")
    assert not hasattr(module, INVENTED)


def test_no_misleading_suggestion():
    # 'save' is close to 'ravel': Python's own error suggested it
    with pytest.raises(AttributeError) as info:
        gt.fbgemm_linear_fp16_weight        # an internal kernel glasstorch leaves out for good
    assert "Did you mean" not in shown(info.value)
    assert "does not implement torch.fbgemm_linear_fp16_weight yet" in shown(info.value)


def test_name_torch_lacks_is_plain_error():
    with pytest.raises(AttributeError) as info:
        gt.not_a_torch_name
    assert str(info.value) == "module 'glasstorch' has no attribute 'not_a_torch_name'"


@pytest.mark.parametrize("module", [gt, gt.utils])
def test_torch_submodule_as_attribute(with_invented, module):
    qualified = "torch" + module.__name__[len("glasstorch"):] + ".imaginary"
    with pytest.raises(AttributeError, match=f"glasstorch does not implement {qualified} yet"):
        module.imaginary


@pytest.mark.parametrize("statement, qualified", [
    ("import glasstorch.imaginary", "imaginary"),
    ("from glasstorch import imaginary", "imaginary"),
    ("import glasstorch.nn.imaginary as m", "nn.imaginary"),
])
def test_missing_module_import(with_invented, statement, qualified):
    with pytest.raises(ModuleNotFoundError) as info:
        exec(statement, {})
    assert str(info.value) == (f"No module named 'glasstorch.{qualified}': "
                               f"glasstorch does not implement torch.{qualified} yet")


def test_unknown_module_import_is_plain():
    with pytest.raises(ModuleNotFoundError) as info:
        import glasstorch.not_a_torch_module  # noqa: F401
    assert str(info.value) == "No module named 'glasstorch.not_a_torch_module'"


def test_tensor_missing_attribute(with_invented):
    torch_names.install_missing(gt.Tensor)
    try:
        t = gt.zeros(2)
        assert not hasattr(t, INVENTED)
        with pytest.raises(AttributeError) as info:
            t.imaginary_fn
        assert shown(info.value) == (
            f"AttributeError: 'Tensor' object has no attribute '{INVENTED}': "
            f"glasstorch does not implement torch.Tensor.{INVENTED} yet")
        with pytest.raises(AttributeError, match="type object 'Tensor' has no attribute"):
            gt.Tensor.imaginary_fn
        t.imaginary_fn = 3                    # an instance attribute replaces the placeholder
        assert t.imaginary_fn == 3
        with pytest.raises(AttributeError, match="^'Parameter' object has no attribute"):
            gt.nn.Parameter(gt.zeros(2)).imaginary_fn
    finally:
        delattr(gt.Tensor, INVENTED)


def test_tensor_placeholders_never_hide_a_method():
    """Every torch Tensor name is either glasstorch's own or a placeholder, never both."""
    for name in torch_names.torch_names("torch.Tensor"):
        owners = [base for base in gt.Tensor.__mro__ if name in vars(base)]
        assert owners, name
        if torch_names.is_missing(gt.Tensor, name):
            assert owners == [gt.Tensor], name


def test_import_installs_the_finder_without_torch():
    code = ("import sys, glasstorch; "
            "assert 'torch' not in sys.modules; "
            "assert glasstorch.aten.torch_names.MissingModules in sys.meta_path")
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_data_file_is_torchs():
    """The data file is what tools/torch_names.py writes from the installed torch."""
    torch = pytest.importorskip("torch")
    if torch.__version__.split("+")[0] != "2.13.0":
        pytest.skip("the data file describes torch 2.13.0")
    # A fresh interpreter: tests that import torch's submodules add names to its dir().
    script = ("import runpy, sys; tool = runpy.run_path(sys.argv[1]); "
              "sys.stdout.write(tool['render'](tool['sections']()))")
    expected = subprocess.run([sys.executable, "-c", script, str(ROOT / "tools" / "torch_names.py")],
                              capture_output=True, text=True, check=True).stdout
    assert torch_names._FILE.read_text(encoding="utf-8") == expected, \
        "stale: run python tools/torch_names.py"
