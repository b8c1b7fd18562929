"""Module state dicts against torch: layout and metadata, destination and prefix,
load_state_dict's report and errors (strict, assign, size mismatches, meta tensors,
non-tensors, old scalar shapes), extra state, state-dict hooks, versioned loading, and
seeded random checkpoints; a torch-free check at the end."""
import random
import warnings
from collections import OrderedDict

import pytest

import glasstorch as gt
from module_zoo import layers, shared_net
from nn_compare import same_outcome


def _state_dict_layout(torch):
    net = shared_net(torch)
    state = net.state_dict()
    return (list(state), dict(state._metadata), type(state).__name__,
            list(net.state_dict(prefix="m.")), list(net.state_dict(prefix="m.")._metadata),
            [v.requires_grad for v in state.values()],
            [v.requires_grad for v in net.state_dict(keep_vars=True).values()],
            state["embed.weight"].data_ptr() == net.embed.weight.data_ptr())


def _state_dict_destination(torch):
    net = layers(torch).Affine(2, 2)
    target = {}
    result = net.state_dict(destination=target, prefix="x.")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        positional = net.state_dict(None, "y.")
    return (result is target, list(target), list(positional),
            [(w.category.__name__, str(w.message)) for w in caught])


def _load_round_trip(torch):
    source, target = layers(torch).Net(), layers(torch).Net()
    with torch.no_grad():
        for p in source.parameters():
            p.add_(1.5)
        source.norm.running_mean.fill_(3)
    result = target.load_state_dict(source.state_dict())
    return (result, repr(result), target.state_dict(), target.embed.weight,
            target.norm.steps)


def _load_errors(torch):
    net = layers(torch).Net()
    state = net.state_dict()
    state["embed.weight"] = torch.zeros(5, 3)
    state["head.bias"] = torch.zeros(3)
    del state["norm.scale"], state["blocks.0.bias"]
    state["blocks.7.weight"] = torch.zeros(1)
    state["unexpected"] = torch.zeros(1)
    state["norm.steps"] = "not a tensor"
    net.load_state_dict(state)


def _load_non_strict(torch):
    net = layers(torch).Net()
    state = net.state_dict()
    del state["head.weight"]
    state["head.extra"] = torch.zeros(1)
    result = net.load_state_dict(state, strict=False)
    return result, result.missing_keys, result.unexpected_keys, repr(result)


def _load_non_strict_mismatch(torch):
    net = layers(torch).Affine(2, 2)
    net.load_state_dict({"weight": torch.zeros(2, 3)}, strict=False)


def _load_not_a_mapping(torch):
    layers(torch).Affine(2, 2).load_state_dict([("weight", torch.zeros(2, 2))])


def _load_scalar_from_shape_one(torch):
    m = torch.nn.Module()
    m.register_buffer("count", torch.tensor(0.0))
    m.load_state_dict({"count": torch.tensor([4.0])})
    return m.count


def _load_assign(torch):
    net = layers(torch).Affine(2, 2)
    old = net.weight
    new_weight = torch.full((2, 2), 7.0)
    net.load_state_dict({"weight": new_weight, "bias": torch.ones(2)}, assign=True)
    return (net.weight is old, net.weight.data_ptr() == new_weight.data_ptr(),
            type(net.weight).__name__, net.weight.requires_grad, net.bias)


def _load_copy_failure(torch):
    net = layers(torch).Affine(2, 2)
    net.load_state_dict({"weight": torch.zeros(2, 2, device="meta"), "bias": torch.zeros(2)})


def _load_into_meta(torch):
    m = torch.nn.Module()
    m.weight = torch.nn.Parameter(torch.zeros(2, device="meta"))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = m.load_state_dict({"weight": torch.ones(2)})
    return result, [str(w.message) for w in caught], str(m.weight.device)


def _extra_state(torch):
    class WithExtra(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.p = torch.nn.Parameter(torch.ones(1))
            self.seen = None

        def get_extra_state(self):
            return {"note": "hi"}

        def set_extra_state(self, state):
            self.seen = state

    m = WithExtra()
    state = m.state_dict()
    m.load_state_dict(state)
    missing = m.load_state_dict({"p": torch.ones(1)}, strict=False)
    unexpected = layers(torch).Affine(1, 1).load_state_dict(
        {"weight": torch.ones(1, 1), "bias": torch.ones(1), "_extra_state": 1}, strict=False)
    return list(state), state["_extra_state"], m.seen, missing, unexpected


def _state_dict_hooks(torch):
    log, net = [], layers(torch).Net()
    net.head.register_state_dict_pre_hook(lambda m, prefix, keep: log.append(("pre", prefix)))
    net.head.register_state_dict_post_hook(
        lambda m, state, prefix, meta: log.append(("post", prefix, list(state), meta)))
    net.head.register_load_state_dict_pre_hook(
        lambda m, state, prefix, *rest: log.append(("load-pre", prefix, sorted(state))))

    def drop_missing(module, keys):
        log.append(("load-post", list(keys.missing_keys)))
        keys.missing_keys.clear()
    net.register_load_state_dict_post_hook(drop_missing)
    state = net.state_dict()
    del state["embed.bias"]
    return net.load_state_dict(state), log


def _versioned_loading(torch):
    class Renamed(torch.nn.Module):
        """Version 2 renamed 'w' to 'weight': older checkpoints are converted on load."""
        _version = 2

        def __init__(self):
            super().__init__()
            self.weight = torch.nn.Parameter(torch.zeros(2))

        def _load_from_state_dict(self, state_dict, prefix, local_metadata, *args):
            seen.append((prefix, dict(local_metadata)))
            if local_metadata.get("version", 1) < 2 and prefix + "w" in state_dict:
                state_dict[prefix + "weight"] = state_dict.pop(prefix + "w")
            super()._load_from_state_dict(state_dict, prefix, local_metadata, *args)

    seen = []
    model = torch.nn.Sequential(Renamed())
    old = OrderedDict([("0.w", torch.ones(2))])
    old._metadata = OrderedDict([("", {"version": 1}), ("0", {"version": 1})])
    first = model.load_state_dict(old)
    current = model.load_state_dict(model.state_dict(), assign=True)
    return first, current, model[0].weight, seen


def _state_dict_post_hook_returning(torch):
    net = layers(torch).Affine(1, 1)
    net.register_state_dict_post_hook(lambda *args: {})
    net.state_dict()


SCENARIOS = [value for name, value in sorted(globals().items())
             if name.startswith("_") and callable(value)]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__.strip("_"))
def test_same_as_torch(scenario):
    pytest.importorskip("torch")
    same_outcome(scenario)


def _random_checkpoint(seed: int):
    """A scenario loading a perturbed state dict (keys dropped, added, nested under a
    missing child, resized, of the wrong type or dtype, a shape-(1,) scalar) with random
    `strict` and `assign`."""
    rng = random.Random(seed)
    edits = [(rng.choice(["drop", "add", "resize", "type", "nested", "scalar", "dtype"]),
              rng.random()) for _ in range(rng.randint(0, 4))]
    strict, assign = rng.random() < 0.5, rng.random() < 0.3

    def scenario(torch):
        net = layers(torch).Net()
        net.norm.register_buffer("count", torch.tensor(0.0))
        state = net.state_dict()
        keys = list(state)
        for edit, where in edits:
            key = keys[int(where * len(keys))]
            if edit == "drop":
                state.pop(key, None)
            elif edit in ("add", "nested"):
                state[key + "_x" if edit == "add" else "blocks.9." + key] = torch.ones(1)
            elif edit == "resize":
                state[key] = torch.ones(7)
            elif edit == "type":
                state[key] = [1.0]
            elif edit == "scalar":
                state["norm.count"] = torch.tensor([5.0])
            elif key in state and hasattr(state[key], "shape"):
                state[key] = torch.ones(state[key].shape, dtype=torch.int64)
        result = net.load_state_dict(state, strict=strict, assign=assign)
        return result, net.state_dict(), [type(p).__name__ for p in net.parameters()]
    return scenario


@pytest.mark.parametrize("seed", range(20))
def test_random_checkpoints_load_as_torch(seed):
    pytest.importorskip("torch")
    same_outcome(_random_checkpoint(seed))


# ----- without torch ---------------------------------------------------------------------
def test_load_state_dict_lists_every_problem():
    m = layers(gt).Affine(2, 2)
    with pytest.raises(RuntimeError) as caught:
        m.load_state_dict({"weight": gt.zeros(3, 2), "extra": gt.zeros(1)})
    assert str(caught.value) == (
        "Error(s) in loading state_dict for Affine:\n"
        "\tMissing key(s) in state_dict: \"bias\". \n"
        "\tUnexpected key(s) in state_dict: \"extra\". \n"
        "\tsize mismatch for weight: copying a param with shape torch.Size([3, 2]) from "
        "checkpoint, the shape in current model is torch.Size([2, 2]).")
