"""Containers against torch: Sequential, ModuleList, ModuleDict, ParameterList and
ParameterDict (indexing, slicing, mutation and renumbering, operators, iteration,
state-dict keys, reprs incl. the repeated-module compression, errors); torch-free
checks at the end."""
import random
from collections import OrderedDict

import pytest

import glasstorch as gt
from nn_compare import same_outcome


def _tagged(torch, tag):
    """A parameter-free module whose repr shows `tag`."""
    class Tag(torch.nn.Module):
        def __init__(self, tag):
            super().__init__()
            self.tag = tag

        def forward(self, x):
            return x * 2 + self.tag

        def extra_repr(self):
            return str(self.tag)
    return Tag(tag)


def _seq(torch, *tags):
    return torch.nn.Sequential(*[_tagged(torch, t) for t in tags])


def _reprs(m):
    return [repr(x) for x in m]


def _errors(*calls):
    found = []
    for call in calls:
        try:
            found.append(("ok", repr(call())))
        except Exception as error:
            found.append((type(error).__name__, str(error).replace("glasstorch.", "torch.")))
    return found


# ----- Sequential -------------------------------------------------------------------------
def _sequential_forward_and_index(torch):
    s = _seq(torch, 1, 2, 3)
    return (s(torch.ones(2)), repr(s[0]), repr(s[-1]), repr(s[1:]), repr(s[::-2]),
            type(s[1:]).__name__, len(s), _reprs(s), repr(s[torch.tensor(1)]))


def _sequential_from_ordered_dict(torch):
    s = torch.nn.Sequential(OrderedDict([("a", _tagged(torch, 1)), ("b", _tagged(torch, 2))]))
    del s[0]
    return repr(s), repr(s[0:1]), list(s._modules)


def _sequential_mutation(torch):
    s = _seq(torch, 0, 1, 2, 3, 4)
    s[1] = _tagged(torch, 10)
    del s[0]
    del s[1:3]
    s.append(_tagged(torch, 20)).insert(0, _tagged(torch, 30)).insert(-1, _tagged(torch, 40))
    s.extend(_seq(torch, 50))
    popped = s.pop(2)
    return repr(s), repr(popped), list(s._modules)


def _sequential_operators(torch):
    a, b = _seq(torch, 1), _seq(torch, 2, 3)
    c = a + b
    same = c[0] is a[0]
    a += b
    d = b * 2
    e = 2 * b
    b *= 3
    return repr(c), same, repr(a), repr(d), repr(e), repr(b), d[0] is d[2]


def _sequential_errors(torch):
    s = _seq(torch, 1, 2)
    return _errors(lambda: s[2], lambda: s[-3], lambda: s["0"], lambda: s + [1],
                   lambda: s * 0, lambda: s * 1.5, lambda: s.insert(3, _tagged(torch, 0)),
                   lambda: s.insert(0, 1), lambda: s.__iadd__(3), lambda: s.pop(5))


def _sequential_dir(torch):
    keys = dir(_seq(torch, 1, 2))
    return "0" in keys, "append" in keys


# ----- ModuleList ------------------------------------------------------------------------
def _module_list_basics(torch):
    ml = torch.nn.ModuleList([_tagged(torch, i) for i in range(4)])
    ml.append(_tagged(torch, 9))
    ml.insert(1, _tagged(torch, 7))
    ml[0] = _tagged(torch, 8)
    ml.extend([_tagged(torch, 6)])
    ml += [_tagged(torch, 5)]
    popped = ml.pop(-1)
    del ml[2]
    del ml[::3]
    joined = ml + torch.nn.ModuleList([_tagged(torch, 1)])
    return (_reprs(ml), repr(popped), list(ml._modules), repr(ml[1:]), type(ml[1:]).__name__,
            _reprs(joined), len(joined))


def _module_list_repr_compression(torch):
    class Lin(torch.nn.Module):
        def __init__(self, n):
            super().__init__()
            self.w = torch.nn.Parameter(torch.ones(n))

        def extra_repr(self):
            return f"n={self.w.shape[0]}"

    nested = torch.nn.ModuleList([torch.nn.Sequential(Lin(2), Lin(2)) for _ in range(3)])
    mixed = torch.nn.ModuleList([Lin(2), Lin(2), Lin(3), Lin(2), Lin(2), Lin(2), Lin(3)])
    return repr(mixed), repr(nested), repr(torch.nn.ModuleList()), \
        repr(torch.nn.Sequential(mixed)), list(torch.nn.Sequential(nested).state_dict())


def _module_list_errors(torch):
    ml = torch.nn.ModuleList([_tagged(torch, 1)])
    return _errors(lambda: ml[1], lambda: ml[-2], lambda: ml.extend(3), lambda: ml.append(3),
                   lambda: ml.__setitem__(0, 3), lambda: torch.nn.ModuleList(5))


# ----- ModuleDict ------------------------------------------------------------------------
def _module_dict_basics(torch):
    md = torch.nn.ModuleDict({"b": _tagged(torch, 1), "a": _tagged(torch, 2)})
    md["c"] = _tagged(torch, 3)
    md.update([("d", _tagged(torch, 4)), ["a", _tagged(torch, 5)]])
    md.update(torch.nn.ModuleDict({"e": _tagged(torch, 6)}))
    popped = md.pop("b")
    del md["c"]
    result = (repr(md), list(md), list(md.keys()), _reprs(md.values()),
              [k for k, _ in md.items()], "a" in md, "b" in md, len(md), repr(popped))
    md.clear()
    return result, repr(md)


def _module_dict_errors(torch):
    md = torch.nn.ModuleDict()
    return _errors(lambda: md["x"], lambda: md.update(3), lambda: md.update([3]),
                   lambda: md.update([("a", _tagged(torch, 1), 3)]),
                   lambda: md.__setitem__("a.b", _tagged(torch, 1)),
                   lambda: md.__setitem__("x", 1), lambda: md.__setitem__("training", None))


# ----- ParameterList and ParameterDict ------------------------------------------------------
def _parameter_list(torch):
    pl = torch.nn.ParameterList([torch.ones(2), torch.nn.Parameter(torch.zeros(3)), "text"])
    pl.append(torch.ones(1, 2, dtype=torch.float64))
    pl.extend([torch.zeros(2, 2)])
    pl += [torch.ones(1)]
    pl[0] = torch.full((2,), 5.0)
    m = torch.nn.Module()
    m.params = pl
    return (repr(pl), len(pl), [type(p).__name__ for p in pl], pl[0], pl[-1],
            repr(pl[1:3]), list(m.state_dict()), [n for n, _ in m.named_parameters()],
            repr(torch.nn.ParameterList()), repr(torch.nn.ParameterList([torch.ones(1)])))


def _parameter_list_errors(torch):
    pl = torch.nn.ParameterList([torch.ones(1)])
    return _errors(lambda: pl[1], lambda: pl.extend(torch.ones(2)), lambda: pl.extend(3),
                   lambda: pl(1), lambda: torch.nn.ParameterList([torch.arange(2)]))


def _parameter_dict(torch):
    pd = torch.nn.ParameterDict({"b": torch.ones(2), "a": torch.zeros(1), "s": "x"})
    pd["c"] = torch.nn.Parameter(torch.ones(3))
    pd.update(OrderedDict([("z", torch.ones(1)), ("y", torch.ones(1))]))
    pd.update([("w", torch.ones(2, 2))])
    default = pd.setdefault("v", torch.zeros(1))
    popped = pd.pop("a")
    item = pd.popitem()
    del pd["z"]
    merged = pd | torch.nn.ParameterDict({"q": torch.ones(1)})
    reverse = torch.nn.ParameterDict({"q": torch.ones(1)}) | pd
    pd |= {"r": torch.ones(1)}
    m = torch.nn.Module()
    m.pd = pd
    return (repr(pd), list(pd), list(pd.keys()), [k for k, _ in pd.items()], len(pd),
            "b" in pd, pd.get("nothing", 3), pd["b"], default, popped, item,
            list(merged), list(reverse), list(reversed(pd)), list(pd.copy()),
            list(pd.fromkeys(["k", "l"])), list(m.state_dict()), repr(torch.nn.ParameterDict()))


def _parameter_dict_errors(torch):
    pd = torch.nn.ParameterDict()
    return _errors(lambda: pd[1], lambda: pd["missing"], lambda: pd.update(3),
                   lambda: pd.update([3]), lambda: pd.update([("a",)]), lambda: pd(1),
                   lambda: pd.__setitem__("a.b", torch.ones(1)))


def _parameter_dict_clear(torch):
    pd = torch.nn.ParameterDict({"a": torch.ones(1), "b": torch.ones(1)})
    pd.clear()
    return len(pd), list(pd.state_dict())


SCENARIOS = [value for name, value in sorted(globals().items())
             if name.startswith("_") and callable(value)
             and name not in ("_tagged", "_seq", "_reprs", "_errors")]


@pytest.mark.parametrize("scenario", SCENARIOS, ids=lambda f: f.__name__.strip("_"))
def test_same_as_torch(scenario):
    pytest.importorskip("torch")
    same_outcome(scenario)


# ----- seeded random edits ---------------------------------------------------------------------
_LIST_EDITS = {
    "append": lambda lib, c, i: c.append(_tagged(lib, i)),
    "insert": lambda lib, c, i: c.insert(i - 3, _tagged(lib, i)),
    "set": lambda lib, c, i: c.__setitem__(i - 3, _tagged(lib, i)),
    "delete": lambda lib, c, i: c.__delitem__(i - 3),
    "delete slice": lambda lib, c, i: c.__delitem__(slice(i % 3, None, 2)),
    "pop": lambda lib, c, i: repr(c.pop(i - 3)),
    "extend": lambda lib, c, i: c.extend([_tagged(lib, i), _tagged(lib, -i)]),
    "read": lambda lib, c, i: repr(c[i - 3]),
    "slice": lambda lib, c, i: repr(c[i % 4:]),
}


def _random_list_edits(seed: int, kind: str):
    """A scenario editing a Sequential or ModuleList at random, recording each outcome,
    the names of its submodules and its repr."""
    rng = random.Random(seed)
    steps = [(rng.choice(sorted(_LIST_EDITS)), rng.randrange(7)) for _ in range(20)]

    def scenario(torch):
        container = getattr(torch.nn, kind)([_tagged(torch, 0)]) if kind == "ModuleList" \
            else torch.nn.Sequential(_tagged(torch, 0))
        log = []
        for edit, i in steps:
            try:
                log.append(_LIST_EDITS[edit](torch, container, i))
            except Exception as error:
                log.append((type(error).__name__, str(error).replace("glasstorch.", "torch.")))
            log.append((list(container._modules), repr(container)))
        return log
    return scenario


@pytest.mark.parametrize("kind", ["Sequential", "ModuleList"])
@pytest.mark.parametrize("seed", range(10))
def test_random_list_edits_as_torch(seed, kind):
    pytest.importorskip("torch")
    same_outcome(_random_list_edits(seed, kind))


# ----- without torch ---------------------------------------------------------------------
def test_sequential_chains_and_registers():
    s = _seq(gt, 1, 2)
    assert s(gt.ones(1)).tolist() == [8.0]              # (1 * 2 + 1) * 2 + 2
    assert [name for name, _ in s.named_modules()] == ["", "0", "1"]
    del s[0]
    assert list(s._modules) == ["0"] and s[0].tag == 2


def test_module_list_repr_compresses_runs():
    ml = gt.nn.ModuleList([_tagged(gt, 1), _tagged(gt, 1), _tagged(gt, 2)])
    assert repr(ml) == "ModuleList(\n  (0-1): 2 x Tag(1)\n  (2): Tag(2)\n)"


def test_parameter_containers_make_parameters():
    pl = gt.nn.ParameterList([gt.ones(2)])
    pd = gt.nn.ParameterDict({"b": gt.ones(1), "a": gt.ones(1)})
    assert type(pl[0]) is gt.nn.Parameter and list(pd) == ["a", "b"]
    assert repr(pl) == "ParameterList(  (0): Parameter containing: [torch.float32 of size 2])"


def test_sequential_edits_renumber():
    s = _seq(gt, 0, 1, 2, 3)
    del s[1]
    s.insert(0, _tagged(gt, 9))
    s.append(_tagged(gt, 7))
    assert list(s._modules) == ["0", "1", "2", "3", "4"]
    assert [m.tag for m in s] == [9, 0, 2, 3, 7]
    assert [m.tag for m in s[1::2]] == [0, 3]
    with pytest.raises(IndexError, match="index 5 is out of range"):
        s[5]
