"""torch.Size and torch.dtype: every attribute torch's have, answering as torch's."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def outcome(function, *args):
    """What a call gives: its value (torch's spelling), or its exception's type and text."""
    try:
        value = function(*args)
    except Exception as error:
        return type(error).__name__, str(error)
    text = repr(value).replace("glasstorch", "torch")
    return text, type(value).__name__


@pytest.mark.parametrize("cls", ["Size", "dtype", "device", "finfo", "iinfo"])
def test_public_attributes_as_torchs(cls):
    """dir() of the class: every name torch's has (finfo/iinfo's live on instances)."""
    ours, theirs = getattr(gt, cls), getattr(torch, cls)
    if cls in ("finfo", "iinfo"):
        ours, theirs = ours(gt.int32 if cls == "iinfo" else gt.float32), \
            theirs(torch.int32 if cls == "iinfo" else torch.float32)
    missing = {n for n in dir(theirs) if not n.startswith("_")} - set(dir(ours))
    assert not missing


SIZE_CASES = {
    "slice": lambda s, _: s[1:], "add": lambda s, _: s + (5,), "radd": lambda s, _: (5,) + s,
    "mul": lambda s, _: s * 2, "rmul": lambda s, _: 2 * s, "numel": lambda s, _: s.numel(),
    "count": lambda s, _: s.count(3), "index": lambda s, _: s.index(4),
    "index missing": lambda s, _: s.index(9), "add list": lambda s, _: s + [1],
    "add int": lambda s, _: s + 1, "add float": lambda s, _: s + 1.5,
    "add None": lambda s, _: s + None, "add float tuple": lambda s, _: s + (1.5,),
    "add tensor": lambda s, t: s + t.tensor(1), "add array": lambda s, _: s + np.array([1]),
    "mul float": lambda s, _: s * 1.5, "size of size": lambda s, t: t.Size(s) + t.Size([1]),
    "bad item": lambda s, t: t.Size([1.5]), "negative": lambda s, t: t.Size([-1]),
    "out of range": lambda s, _: s[5], "eq tuple": lambda s, _: s == (2, 3, 4),
}


@pytest.mark.parametrize("case", SIZE_CASES)
def test_size_operations(case):
    function = SIZE_CASES[case]
    assert outcome(function, gt.Size([2, 3, 4]), gt) == \
        outcome(function, torch.Size([2, 3, 4]), torch)


DTYPE_NAMES = [name for name in dir(torch) if isinstance(getattr(torch, name), torch.dtype)
               and hasattr(gt, name)]


@pytest.mark.parametrize("name", DTYPE_NAMES)
@pytest.mark.parametrize("attribute", ["is_complex", "is_floating_point", "is_signed",
                                       "itemsize", "to_complex", "to_real", "__repr__",
                                       "__str__"])
def test_dtype_attributes(name, attribute):
    def read(module):
        value = getattr(getattr(module, name), attribute)
        return value() if callable(value) else value
    assert outcome(read, gt) == outcome(read, torch)
