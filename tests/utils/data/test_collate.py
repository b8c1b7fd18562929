"""default_collate and default_convert against torch's, kind by kind: tensors, NumPy
arrays and scalars, Python numbers, strings, bytes, dicts, namedtuples, nested
sequences; torch's errors for mismatched sizes and unsupported types."""
from collections import OrderedDict, namedtuple

import numpy as np
import pytest

import glasstorch as gt
from glasstorch.utils.data import default_collate, default_convert
from glasstorch.utils.data._utils.collate import collate, collate_str_fn, default_collate_fn_map
from data_compare import plain

Point = namedtuple("Point", "x y")


class Box:
    """A custom leaf type, for a collate_fn_map of one's own."""

    def __init__(self, value):
        self.value = value


# name -> batch maker, called with the library (tensors in it) and returning a list of samples
BATCHES = {
    "tensors": lambda lib: [lib.tensor([1.0, 2.0]), lib.tensor([3.0, 4.0])],
    "int_tensors_2d": lambda lib: [lib.arange(6).view(2, 3), lib.ones(2, 3, dtype=lib.long)],
    "bool_tensor": lambda lib: [lib.tensor(True), lib.tensor(False)],
    "arrays": lambda lib: [np.arange(3, dtype=np.float32), np.ones(3, dtype=np.float32)],
    "int_arrays": lambda lib: [np.array([[1, 2]]), np.array([[3, 4]])],
    "np_floats": lambda lib: [np.float64(1.5), np.float64(2.0)],
    "np_ints": lambda lib: [np.int16(3), np.int16(-1)],
    "np_bools": lambda lib: [np.bool_(True), np.bool_(False)],
    "floats": lambda lib: [1.0, 2.5],
    "ints": lambda lib: [1, 2, 3],
    "bools": lambda lib: [True, False],
    "strings": lambda lib: ["a", "bc"],
    "bytes": lambda lib: [b"x", b"yz"],
    "dicts": lambda lib: [{"x": lib.tensor([1]), "label": "a", "n": 1},
                          {"x": lib.tensor([2]), "label": "b", "n": 2}],
    "ordered": lambda lib: [OrderedDict(b=1, a=2.0), OrderedDict(b=3, a=4.0)],
    "namedtuples": lambda lib: [Point(1, lib.zeros(2)), Point(2, lib.ones(2))],
    "tuples": lambda lib: [(lib.tensor(1), "a"), (lib.tensor(2), "b")],
    "lists": lambda lib: [[1, 2.0], [3, 4.0]],
    "nested": lambda lib: [{"a": [(1, np.float32(2.0)), {"b": b"q"}]},
                           {"a": [(3, np.float32(4.0)), {"b": b"r"}]}],
    "tensor_dataset_rows": lambda lib: [(lib.tensor(0), lib.tensor([0.5])),
                                        (lib.tensor(1), lib.tensor([1.5]))],
}


@pytest.mark.parametrize("name", sorted(BATCHES))
def test_default_collate_equals_torch(name):
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    ours = default_collate(BATCHES[name](gt))
    theirs = torch.utils.data.default_collate(BATCHES[name](torch))
    assert plain(ours) == plain(theirs)


SAMPLES = {
    "array": lambda lib: np.arange(4).reshape(2, 2),
    "string_array": lambda lib: np.array(["a", "b"]),
    "np_scalar": lambda lib: np.float32(2.5),
    "np_str": lambda lib: np.str_("s"),
    "tensor": lambda lib: lib.tensor([1, 2]),
    "tuple": lambda lib: (np.int64(3), "a", 1.5),
    "namedtuple": lambda lib: Point(np.zeros(2), 1),
    "dict": lambda lib: {"a": np.ones(1), "b": [np.int8(1), b"x"]},
    "string": lambda lib: "text",
    "number": lambda lib: 7,
    "range": lambda lib: range(3),
    "list": lambda lib: [np.int32(1), [np.float64(2.0)]],
}


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_default_convert_equals_torch(name):
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    ours = default_convert(SAMPLES[name](gt))
    theirs = torch.utils.data.default_convert(SAMPLES[name](torch))
    assert plain(ours) == plain(theirs)


def test_collate_stacks_into_new_tensor():
    first, second = gt.tensor([1, 2]), gt.tensor([3, 4])
    batch = default_collate([first, second])
    batch[0, 0] = 9
    assert first.tolist() == [1, 2]


@pytest.mark.parametrize("batch,error,message", [
    ([gt.ones(2), gt.ones(3)], RuntimeError,
     r"stack expects each tensor to be equal size, but got \[2\] at entry 0 and \[3\] at entry 1"),
    ([[1, 2], [1]], RuntimeError, "each element in list of batch should be of equal size"),
    ([object()], TypeError, "default_collate: batch must contain tensors, numpy arrays, numbers, "
                            "dicts or lists; found <class 'object'>"),
    ([np.array(["a"]), np.array(["b"])], TypeError, "found <U1"),
    ([None, None], TypeError, "found <class 'NoneType'>"),
    ([], IndexError, "list index out of range"),
])
def test_collate_refusals(batch, error, message):
    with pytest.raises(error, match=message):
        default_collate(batch)


def test_collate_refusals_match_torch():
    torch = pytest.importorskip("torch")
    import torch.utils.data  # noqa: F401
    for make in (lambda lib: [lib.ones(2), lib.ones(3)], lambda lib: [[1], [1, 2]],
                 lambda lib: [{1}], lambda lib: [np.array([object()])]):
        errors = []
        for lib in (gt, torch):
            with pytest.raises(Exception) as caught:
                lib.utils.data.default_collate(make(lib))
            errors.append((type(caught.value), str(caught.value)))
        assert errors[0] == errors[1]


def test_custom_collate_fn_map():
    table = {**default_collate_fn_map, Box: lambda batch, *, collate_fn_map: sum(b.value for b in batch)}
    assert collate([(Box(1), 2), (Box(5), 3)], collate_fn_map=table)[0] == 6
    assert collate(["a", "b"], collate_fn_map={str: collate_str_fn}) == ["a", "b"]
    with pytest.raises(TypeError, match="found <class 'test_collate.Box'>"):
        default_collate([Box(1)])


def test_collate_keeps_mapping_and_sequence_types():
    class Record(dict):
        pass
    batch = default_collate([Record(a=1), Record(a=2)])
    assert type(batch) is Record and batch["a"].tolist() == [1, 2]
