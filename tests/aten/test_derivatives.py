"""Derivative formulas and their helpers (aten/derivatives.py): every name a formula uses
is checked when its operator is declared (Note [When formula names are checked])."""
import ast
import subprocess
import sys
from pathlib import Path

import pytest

import glasstorch  # noqa: F401  (the core loaded: checks run at once from here on)
from glasstorch.aten import derivatives
from glasstorch.aten.native import load_all
from glasstorch.aten.registry import DECLARATIONS
from glasstorch.aten.schema import parse_schema

ROOT = Path(__file__).resolve().parents[2]

# A family of one operator, written to a file and imported in a fresh interpreter.
FAMILY = '''
from glasstorch.aten.derivatives import derivative_helper
from glasstorch.aten.registry import TensorMeta, op

{helper_above}
@op("glasstorch_test_twice(Tensor self) -> Tensor",
    meta=lambda self: TensorMeta(self._size, self._dtype), grad={grad!r})
def twice(self, *, out):
    out[...] = 2 * self
{helper_below}
'''
HELPER = '''
@derivative_helper
def twice_backward(grad):
    return grad * 2
'''


def _import_family(tmp_path, grad: dict, helper_above: str = HELPER, helper_below: str = ""):
    """Import the one-operator family in a fresh interpreter: (return code, stderr)."""
    (tmp_path / "throwaway_family.py").write_text(
        FAMILY.format(grad=grad, helper_above=helper_above, helper_below=helper_below))
    code = ("import sys, glasstorch as torch\n"
            f"sys.path.insert(0, {str(tmp_path)!r})\n"
            "import throwaway_family\n"
            "print('imported')\n"
            "x = torch.ones(2, requires_grad=True)\n"
            "torch.ops.aten.glasstorch_test_twice(x).sum().backward()\n"
            "print(x.grad)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    return done.returncode, done.stdout + done.stderr


def test_a_family_with_a_helper_imports_and_differentiates(tmp_path):
    code, output = _import_family(tmp_path, {"self": "twice_backward(grad)"})
    assert code == 0, output
    assert "tensor([2., 2.])" in output


def test_a_misspelt_helper_fails_the_import_of_its_family(tmp_path):
    code, output = _import_family(tmp_path, {"self": "twice_backwards(grad)"})
    assert code != 0
    assert "NameError: derivative formula of glasstorch_test_twice" in output
    assert "'twice_backwards'" in output
    assert "imported" not in output                     # at import, not at backward


def test_a_helper_defined_below_its_operator_fails_the_import(tmp_path):
    code, output = _import_family(tmp_path, {"self": "twice_backward(grad)"},
                                  helper_above="", helper_below=HELPER)
    assert code != 0
    assert "'twice_backward'" in output and "defined above it" in output


def test_a_misspelt_input_name_fails_the_import(tmp_path):
    code, output = _import_family(tmp_path, {"slef": "twice_backward(grad)"})
    assert code != 0
    assert "keyed by 'slef', which is no Tensor argument" in output


def test_torch_functions_and_aten_operators_are_known(tmp_path):
    code, output = _import_family(
        tmp_path, {"self": "where(self > 0, grad * 2, mul(grad, 2))"}, helper_above="")
    assert code == 0, output
    assert "tensor([2., 2.])" in output


def test_deferred_checks_wait_for_the_end():
    """What the family index build does: names declared later pass, unknown ones fail."""
    schema = parse_schema("glasstorch_test_later(Tensor self) -> Tensor")

    def glasstorch_test_later_helper(grad):
        return grad
    try:
        with derivatives.deferred_checks():
            derivatives.check_formulas(schema, {"self": "glasstorch_test_later_helper(grad)"},
                                       "here")
            derivatives.derivative_helper(glasstorch_test_later_helper)
        with pytest.raises(NameError, match="'glasstorch_test_never_declared'"):
            with derivatives.deferred_checks():
                derivatives.check_formulas(
                    schema, {"self": "glasstorch_test_never_declared(grad)"}, "here")
    finally:
        derivatives.HELPERS.pop("glasstorch_test_later_helper", None)


def test_forward_formulas_are_checked_and_read_tangents():
    """Note [Forward formulas]: keyed by an output, reading `<input>_t`; a tangent name
    is no name a backward formula may read."""
    schema = parse_schema("glasstorch_test_pair(Tensor self, Tensor other) -> (Tensor, Tensor)")
    derivatives.check_formulas(schema, {"self": "grad", "result0": "self_t * other",
                                        "result1": "forward_ad_not_implemented('pair')"}, "here")
    assert derivatives.forward_outputs(schema, {"result1": "x", "self": "grad"}) == {1: "x"}
    assert derivatives.formulas({"self": "grad", "result0": "self_t"}) == {"self": "grad"}
    with pytest.raises(NameError, match="'selt_t'"):
        derivatives.check_formulas(schema, {"result0": "selt_t * other"}, "here")
    with pytest.raises(NameError, match="'self_t'"):
        derivatives.check_formulas(schema, {"self": "grad * self_t"}, "here")
    with pytest.raises(NameError, match="keyed by no output"):
        derivatives.check_formulas(schema, {"result": "self_t"}, "here")


def test_two_helpers_of_one_name_are_refused():
    def sum_to(grad):
        return grad
    with pytest.raises(RuntimeError, match="two derivative helpers are named sum_to"):
        derivatives.derivative_helper(sum_to)


def _names_by_ast(text: str) -> tuple:
    tree = ast.parse(text, mode="eval")
    return tuple(sorted({n.id for n in ast.walk(tree) if isinstance(n, ast.Name)}))


@pytest.mark.parametrize("text, names", [
    ("grad * other.conj()", ("grad", "other")),
    ("gelu_backward(grad, self, approximate=approximate)",
     ("approximate", "gelu_backward", "grad", "self")),
    ("not_implemented('native_layer_norm_backward mean')", ("not_implemented",)),
    ("where(self >= min, grad, 0) if min is not None else grad * 1e-7",
     ("grad", "min", "self", "where")),
    ("[g.sum() for g in grads]", ("g", "grads")),
])
def test_formula_names_are_the_names_python_reads(text, names):
    assert derivatives.formula_names(text) == names == _names_by_ast(text)


def test_every_formula_of_every_family_resolves():
    load_all()
    unresolved = []
    for declaration in DECLARATIONS.values():
        if not declaration.grad:
            continue
        schema = next(iter(declaration.overloads.values()))._schema
        known = derivatives.variables(schema)
        for key, text in derivatives.formulas(declaration.grad).items():
            assert derivatives.formula_names(text) == _names_by_ast(text), text
            for name in derivatives.formula_names(text):
                if name in known:
                    continue
                try:
                    found = derivatives.resolve(name)
                except NameError:
                    unresolved.append((declaration.name, key, name))
                    continue
                assert found is not None, (declaration.name, name)
    assert not unresolved


def test_helpers_live_beside_their_operators():
    load_all()
    for name, helper in derivatives.HELPERS.items():
        assert helper.__module__.startswith("glasstorch.aten."), (name, helper.__module__)
    assert not list((ROOT / "glasstorch" / "autograd").glob("manual*.py"))


def test_an_aten_operator_a_formula_calls_is_its_packet_called_directly():
    # the first overload's binder and entry; anything else through the packet, in order
    import glasstorch as gt
    call = derivatives.resolve("mse_loss_backward")
    packet = gt.ops.aten.mse_loss_backward
    grad, x, y = gt.tensor(0.5), gt.tensor([1.0, 2.0]), gt.tensor([0.0, 4.0])
    assert call.__name__ == "mse_loss_backward" and call is not packet
    assert call(grad, x, y, 1).tolist() == packet(grad, x, y, 1).tolist()
    out = gt.empty(2)
    assert call(grad, x, y, 1, grad_input=out) is out          # the .grad_input overload
    assert out.tolist() == packet(grad, x, y, 1).tolist()
    with pytest.raises(TypeError) as mine:
        call(grad, x)
    with pytest.raises(TypeError) as packets:
        packet(grad, x)
    assert str(mine.value) == str(packets.value)


@pytest.mark.parametrize("shape, target", [((5, 3, 4), (4,)), ((2, 3, 4), (3, 4)),
                                           ((7, 1000), (1000,)), ((3, 5, 1), (5, 1))])
def test_sum_to_leading_dims_is_the_keepdim_sum_viewed_bit_for_bit(shape, target):
    # without a recording, a mode or an observer, the leading dims are summed away at once
    import numpy as np
    import glasstorch as gt
    grad = gt.tensor(np.random.default_rng(0).standard_normal(shape).astype(np.float32))
    lead = len(shape) - len(target)
    general = gt.ops.aten.sum.dim_IntList(grad, list(range(lead)), True).view(target)
    with gt.no_grad():
        found = derivatives.sum_to(grad, target)
    assert found.shape == general.shape and found._base is None
    assert np.array_equal(found.numpy().view(np.int32), general.numpy().view(np.int32))


def test_sum_to_under_a_recording_or_a_trace_keeps_torchs_sum_and_view():
    import glasstorch as gt
    from glasstorch.aten.observers import dispatch_trace
    x, b = gt.rand(3, 4, requires_grad=True), gt.rand(4, requires_grad=True)
    (grad,) = gt.autograd.grad(((x + b) ** 2).sum(), b, create_graph=True)
    assert grad.grad_fn.name() == "ViewBackward0"
    assert grad.grad_fn.next_functions[0][0].name() == "SumBackward1"
    ones = gt.ones(3, 4)
    with gt.no_grad(), dispatch_trace() as route:
        derivatives.sum_to(ones, (4,))
    assert [step[1] for step in route.steps if step[3] is None] == ["sum.dim_IntList", "view"]
