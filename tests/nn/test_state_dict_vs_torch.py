"""Loading state dicts as torch does: assign=True onto meta modules, the load pre- and
post-hooks, state_dict pre-hooks and a `_load_from_state_dict` override converting old
checkpoints, compared step by step with torch."""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def scenario(lib) -> list:
    """What a program observes while loading state dicts in `lib`."""
    seen = []
    with lib.device("meta"):
        model = lib.nn.Linear(2, 3)
    state = {"weight": lib.ones(3, 2), "bias": lib.zeros(3)}
    result = model.load_state_dict(state, assign=True)
    seen.append((str(result), model.weight.is_meta, type(model.weight).__name__,
                 model.weight.requires_grad))

    class Versioned(lib.nn.Module):
        _version = 2

        def __init__(self):
            super().__init__()
            self.lin = lib.nn.Linear(2, 2)

        def _load_from_state_dict(self, state_dict, prefix, local_metadata, *args):
            seen.append(("override", local_metadata.get("version"), sorted(state_dict)))
            if prefix + "old_name" in state_dict:
                state_dict[prefix + "renamed"] = state_dict.pop(prefix + "old_name")
            super()._load_from_state_dict(state_dict, prefix, local_metadata, *args)

    module = Versioned()
    module.register_load_state_dict_pre_hook(
        lambda mod, sd, prefix, *rest: seen.append(("pre", type(mod).__name__, sorted(sd))))

    def post(mod, keys):
        seen.append(("post", list(keys.missing_keys), list(keys.unexpected_keys)))
        keys.unexpected_keys.clear()
    module.register_load_state_dict_post_hook(post)
    module.register_state_dict_pre_hook(lambda mod, prefix, keep: seen.append(("sd-pre", keep)))
    saved = module.state_dict()
    seen.append(sorted(saved._metadata.items()))
    saved["old_name"] = lib.ones(1)
    seen.append(str(module.load_state_dict(saved)))
    with pytest.raises(RuntimeError) as error:
        module.load_state_dict({"lin.weight": lib.ones(3, 3)})
    seen.append(str(error.value))
    return seen


def test_state_dict_loading_steps_match_torch():
    assert [str(step) for step in scenario(gt)] == [str(step) for step in scenario(torch)]


def test_torch_checkpoint_onto_meta_model_with_assign_and_mmap(tmp_path):
    torch.manual_seed(0)
    reference = torch.nn.Sequential(torch.nn.Linear(4, 3), torch.nn.LayerNorm(3))
    torch.save(reference.state_dict(), tmp_path / "w.pt")
    with gt.device("meta"):
        model = gt.nn.Sequential(gt.nn.Linear(4, 3), gt.nn.LayerNorm(3))
    model.load_state_dict(gt.load(tmp_path / "w.pt", mmap=True), assign=True)
    assert not model[0].weight.is_meta and isinstance(model[0].weight, gt.nn.Parameter)
    x = torch.randn(2, 4)
    expected = reference(x).detach().numpy()
    assert gt.allclose(model(gt.from_numpy(x.numpy())), gt.from_numpy(expected), atol=1e-6)
