"""Generated Python bindings: torch's argument conventions and errors."""
import numpy as np
import pytest

import glasstorch as torch
from glasstorch.aten.binding import binding_source
from glasstorch.aten.native import load_all

load_all()          # the name sets compared with torch's are those of every family


def test_varargs_and_sequence_forms_agree():
    x = torch.zeros(2, 3)
    assert x.view(3, 2).shape == x.view((3, 2)).shape == x.view([3, 2]).shape == (3, 2)
    assert x.view(-1).shape == (6,)
    assert torch.zeros(2, 3).shape == torch.zeros((2, 3)).shape == torch.zeros([2, 3]).shape
    assert torch.zeros(torch.Size([2, 3])).shape == (2, 3)
    assert torch.zeros(np.int64(2), 3).shape == (2, 3)
    assert torch.zeros(()).shape == ()


def test_keywords_and_defaults():
    x = torch.zeros(2, 3)
    assert torch.transpose(input=x, dim0=0, dim1=1).shape == (3, 2)
    assert x.transpose(dim0=1, dim1=0).shape == (3, 2)
    assert torch.zeros(2, dtype=torch.int64).dtype is torch.int64
    assert torch.zeros(2, dtype=int).dtype is torch.int64            # Python types are dtypes
    assert torch.zeros(2, dtype=float).dtype is torch.float64
    assert torch.zeros(2, device="meta").device.type == "meta"
    assert torch.zeros(2, requires_grad=True).requires_grad


def test_overloads_are_tried_in_order():
    x = torch.zeros(2, 4)
    assert x.view(torch.int16).shape == (2, 8)          # view.dtype
    assert x.view(8).shape == (8,)                      # view(SymInt[])
    assert x.squeeze().shape == (2, 4) and x.squeeze(0).shape == (2, 4)


def test_out_keyword_selects_out_overload():
    out = torch.empty(2, 3)
    result = torch.zeros(2, 3, out=out)
    assert result is out and out._version == 1


def test_type_errors_name_the_argument():
    x = torch.zeros(2, 3)
    with pytest.raises(TypeError, match=r"transpose\(\): argument 'dim0'.*must be int, not str"):
        x.transpose("a", 1)
    with pytest.raises(TypeError, match="must be int, not bool"):
        x.transpose(True, 1)
    with pytest.raises(TypeError, match="invalid combination of arguments"):
        x.view("a")
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        x.transpose(0, 1, bogus=2)
    with pytest.raises(TypeError, match="missing"):
        x.transpose(0)


def test_generated_source_is_readable():
    source = binding_source("transpose", "method")
    # one overload: Python binds; a missing argument arrives as MISSING and extra ones in
    # `extra`, for torch's words
    assert "def transpose(self, dim0=MISSING, dim1=MISSING, *extra):" in source
    assert "type(dim0) is not int" in source
    source = binding_source("view", "method")                  # overloads: tried in turn
    assert "def view(self, *args, **kwargs):" in source and "bind_1" in source


def test_scalar_data_with_dtype_stays_zero_dim():
    # Regression: converting the data to a dtype once made 0-dim data 1-dim.
    assert torch.tensor(1.5, dtype=torch.float64).shape == ()
    assert torch.tensor(7, dtype=torch.int8).shape == ()


def test_inplace_functions_torch_exposes():
    """`torch.relu_(x)` and its siblings exist and write `x`; `torch.add_` does not."""
    x = torch.tensor([-1.0, 4.0])
    assert torch.relu_(x) is x and x.tolist() == [0.0, 4.0]
    assert torch.sqrt_(input=x) is x and x.tolist() == [0.0, 2.0]
    assert torch.clamp_(x, min=1.0) is x and x.tolist() == [1.0, 2.0]
    assert not hasattr(torch, "add_") and not hasattr(torch, "mul_")



def test_special_is_a_namespace_module():
    """`torch.special` comes with `import torch`, as torch's does, and refuses a name no
    declaration binds there as a module does."""
    assert torch.special.__name__ == "glasstorch.special"
    with pytest.raises(AttributeError, match=r"^module 'glasstorch\.special' has no "
                                             r"attribute 'no_such_function'$"):
        torch.special.no_such_function

# Names torch binds for operators glasstorch declares but whose Python form is not built
# here: first-class-dims' Tensor.index, and linalg.matrix_norm (only its str_ord overload
# is declared, for torch.norm's 'nuc'; the numeric orders are to come). A name missing
# from both sides of these checks fails them.
NOT_BUILT = {"Tensor": {"index"}}


def _public(names) -> set:
    return {n for n in names if not n.startswith("_")}


def _namespaces(real):
    import glasstorch.nn.functional as F
    import glasstorch.linalg as linalg
    import glasstorch.special as special
    from glasstorch.aten import binding
    # where -> (the names bound here, our module, torch's, the operators' name prefix)
    return {"torch": (set(binding.names("function")), torch, real, ""),
            "Tensor": (set(binding.names("method")), torch.Tensor, real.Tensor, ""),
            "F": (_public(dir(F)), F, real.nn.functional, ""),
            "nn": (set(binding.names("nn")), None, real._C._nn, ""),
            "linalg": ({n.removeprefix("linalg_") for n in binding.names("linalg")}, linalg,
                       real.linalg, "linalg_"),
            "special": ({n.removeprefix("special_") for n in binding.names("special")}, special,
                        real.special, "special_")}


def test_bound_names_are_torch_names():
    """Every name a declaration binds (torch.*, Tensor.*, torch._C._nn.*, torch.linalg.*,
    torch.special.*) and every public name of nn.functional exists in torch too: no extra
    Tensor.celu_, F.nll_loss_nd, torch.index."""
    real = pytest.importorskip("torch")
    for where, (ours, _, theirs, _) in _namespaces(real).items():
        extra = sorted(n for n in ours if not hasattr(theirs, n))
        assert not extra, f"{where} has names torch lacks: {extra}"


def test_torch_names_of_declared_operators_are_bound():
    """The other way round: a name torch binds for an operator glasstorch declares
    (`aten::<name>`) is bound here too, unless listed in NOT_BUILT."""
    real = pytest.importorskip("torch")
    from glasstorch.aten.registry import DECLARATIONS
    declared = {o._schema.name for d in DECLARATIONS.values() for o in d.overloads.values()}
    for where, (_, ours, theirs, prefix) in _namespaces(real).items():
        if ours is None:
            continue
        wanted = {n for n in _public(dir(theirs)) if prefix + n in declared}
        # hasattr, not dir(): Tensor's dir() also lists placeholders of names not built
        built = {n for n in wanted | NOT_BUILT.get(where, set()) if hasattr(ours, n)}
        missing = sorted(wanted - NOT_BUILT.get(where, set()) - built)
        assert not missing, f"{where} lacks torch's {missing}"
        stale = sorted(NOT_BUILT.get(where, set()) & built)
        assert not stale, f"{where}: {stale} are built now; drop them from NOT_BUILT"


@pytest.mark.parametrize("call", [
    lambda lib, x, y: lib.kl_div(x, y),
    lambda lib, x, y: lib.hinge_embedding_loss(x, y),
    lambda lib, x, y: lib.margin_ranking_loss(x, y, y),
    lambda lib, x, y: lib.binary_cross_entropy_with_logits(x, y.sigmoid()),
])
def test_loss_bindings_default_reduction_to_none_as_torch(call):
    """Note [The reduction default of the bindings]: unreduced from the Python bindings,
    reduced to a mean through torch.ops.aten."""
    real = pytest.importorskip("torch")
    x, y = np.linspace(-1, 1, 6), np.linspace(1, -0.5, 6)
    mine = call(torch, torch.tensor(x), torch.tensor(y))
    theirs = call(real, real.tensor(x), real.tensor(y))
    assert tuple(mine.shape) == tuple(theirs.shape) == (6,)
    np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-12)
    assert torch.ops.aten.kl_div(torch.tensor(x), torch.tensor(y)).dim() == 0


def test_namespace_module_keeps_a_found_binding_until_an_overload_is_declared():
    """Note [Namespace modules]: a binding found is put in the module; declaring an
    overload of its name takes it out, so the next look-up regenerates it."""
    import glasstorch.nn.functional as F
    from glasstorch.aten import binding
    found = F.linear
    assert vars(F)["linear"] is found
    for sink in binding._SINKS:                # what declaring `nn` `linear` announces
        sink("nn", "linear")
    assert "linear" not in vars(F)
    assert F.linear is binding.get_binding("nn", "linear")
    assert callable(vars(F)["relu"])           # hand-written functions are never taken out
    for sink in binding._SINKS:
        sink("nn", "relu")
    assert callable(vars(F)["relu"])


def test_a_call_without_arguments_binds_its_overload_once():
    gt = torch
    """A binding of several overloads binds the call without arguments once (`BARE`):
    the overload the general search picks, with the same values, and no shared list."""
    from glasstorch.aten import binding
    x = gt.tensor([[1.0, 2.0], [3.0, 5.0]])
    for method in ("sum", "mean", "std", "var", "max", "squeeze", "flatten", "nansum"):
        bound = getattr(gt.Tensor, method)
        namespace = bound.__globals__
        bare = namespace.get("BARE")
        if bare is None:
            continue                                # one overload: a direct binding
        assert not any(isinstance(v, list) for v in bare)
        kept = bound(x)
        namespace["BARE"] = None                    # the search over the overloads
        try:
            searched = bound(x)
        finally:
            namespace["BARE"] = bare
        assert kept.dtype is searched.dtype and gt.equal(kept, searched), method
    assert x.std().item() == pytest.approx(1.707825127659933)
    assert x.sum().dtype is gt.float32 and gt.ones(2, dtype=gt.int32).sum().dtype is gt.int64
    with pytest.raises(TypeError):
        x.sum(foo=1)
    assert "BARE" in binding._SOURCES["method", "sum"]
