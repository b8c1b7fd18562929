"""Lazy modules against torch: UninitializedParameter / UninitializedBuffer placeholders,
LazyModuleMixin's first-forward initialization and class change, loading a checkpoint
into a lazy module, the errors; torch-free checks at the end."""
import copy
import warnings

import pytest

import glasstorch as gt
from nn_compare import same_outcome


def _lazy_affine(torch):
    """A lazy layer written against `torch`: its weight's shape comes from the input."""
    nn = torch.nn

    class Affine(nn.Module):
        def __init__(self, n_in, n_out):
            super().__init__()
            self.weight = nn.Parameter(torch.zeros(n_out, n_in))
            self.register_buffer("seen", torch.zeros(n_in))
            self.n_out = n_out

        def forward(self, x):
            return x @ self.weight.t()

        def extra_repr(self):
            return f"out={self.n_out}"

    class LazyAffine(nn.modules.lazy.LazyModuleMixin, Affine):
        cls_to_become = Affine

        def __init__(self, n_out):
            super().__init__(0, n_out)
            self.weight = nn.UninitializedParameter()
            self.seen = nn.UninitializedBuffer()

        def initialize_parameters(self, x):
            if self.has_uninitialized_params():
                with torch.no_grad():
                    self.weight.materialize((self.n_out, x.shape[-1]))
                    self.weight.fill_(0.5)
                    self.seen.materialize(x.shape[-1:])
                    self.seen.zero_()
    return LazyAffine


def _first_forward(torch):
    m = _lazy_affine(torch)(2)
    before = (repr(m), repr(m.weight), repr(m.seen), list(m.state_dict()),
              m.has_uninitialized_params(), len(m._forward_pre_hooks))
    out = m(torch.ones(3, 4))
    return before, out, type(m).__name__, type(m.weight).__name__, type(m.seen).__name__, \
        tuple(m.weight.shape), len(m._forward_pre_hooks), len(m._load_state_dict_pre_hooks)


def _load_before_forward(torch):
    m = _lazy_affine(torch)(2)
    result = m.load_state_dict({"weight": torch.ones(2, 5), "seen": torch.ones(5)})
    return result, type(m).__name__, m.weight, m.seen, m(torch.ones(1, 5)), type(m).__name__


def _load_placeholders(torch):
    m = _lazy_affine(torch)(2)
    m.load_state_dict(_lazy_affine(torch)(2).state_dict())
    return repr(m.weight), m.has_uninitialized_params()


def _placeholder_errors(torch):
    found = []
    for call in (lambda: torch.nn.UninitializedParameter().shape,
                 lambda: torch.nn.UninitializedBuffer().share_memory_(),
                 lambda: torch.nn.modules.lazy.LazyModuleMixin.initialize_parameters(
                     _lazy_affine(torch)(1))):
        try:
            call()
        except Exception as error:
            found.append((type(error).__name__, str(error)))
    return found


def _not_fully_initialized(torch):
    class Half(_lazy_affine(torch)):
        def initialize_parameters(self, x):
            pass
    Half(2)(torch.ones(2))


def _placeholders(torch):
    p = torch.nn.UninitializedParameter(requires_grad=False, dtype=torch.float64)
    b = torch.nn.UninitializedBuffer(persistent=False)
    copied = copy.deepcopy(p)
    p.materialize((2, 1))
    b.materialize(3, dtype=torch.float16)
    return (repr(copied), str(copied.dtype), copied.requires_grad, type(p).__name__,
            tuple(p.shape), str(p.dtype), p.requires_grad, type(b).__name__, str(b.dtype),
            isinstance(torch.nn.UninitializedBuffer(), torch.nn.Buffer),
            torch.nn.parameter.is_lazy(copied), torch.nn.parameter.is_lazy(p))


SCENARIOS = [value for name, value in sorted(globals().items())
             if name.startswith("_") and callable(value) and name != "_lazy_affine"]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__.strip("_"))
def test_same_as_torch(scenario):
    pytest.importorskip("torch")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")            # torch warns that lazy modules are new
        same_outcome(scenario)


# ----- without torch ---------------------------------------------------------------------
def test_first_forward_materializes_and_changes_class():
    m = _lazy_affine(gt)(3)
    assert m.has_uninitialized_params() and repr(m.weight) == "<UninitializedParameter>"
    assert m(gt.ones(1, 2)).tolist() == [[1.0, 1.0, 1.0]]
    assert type(m).__name__ == "Affine" and type(m.weight) is gt.nn.Parameter
    assert tuple(m.weight.shape) == (3, 2) and not m._forward_pre_hooks
