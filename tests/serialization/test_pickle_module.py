"""torch.save's `pickle_module`, against real torch both ways: the module's own Pickler
writes the pickle (its hooks still apply), the legacy format's headers go through its
``dump``, and a module whose Pickler cannot write torch's names is refused up front."""
import io
import json
import pickle
import types

import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")

FORMATS = [{}, {"_use_new_zipfile_serialization": False}]


class Point:
    """A class plain pickle cannot save (it is not importable from its module)."""

    def __init__(self, x: float, y: float) -> None:
        self.x, self.y = x, y


Point.__qualname__ = "nowhere.Point"


def point_module() -> types.ModuleType:
    """A pickle module whose pure-Python Pickler saves a `Point` as a complex number and
    counts the module-level ``dump`` calls."""
    module = types.ModuleType("point_pickle")
    module.dumps = 0

    class PointPickler(pickle._Pickler):
        def reducer_override(self, obj):
            if type(obj) is Point:
                return complex, (obj.x, obj.y)
            return NotImplemented

    def dump(obj, file, protocol=None):
        module.dumps += 1
        pickle.dump(obj, file, protocol=protocol)

    module.Pickler, module.Unpickler, module.dump = PointPickler, pickle.Unpickler, dump
    return module


def saved(library, obj, module, **save_args) -> bytes:
    buffer = io.BytesIO()
    library.save(obj, buffer, pickle_module=module, **save_args)
    return buffer.getvalue()


@pytest.mark.parametrize("args", FORMATS)
def test_module_pickler_writes_both_ways(args):
    data_torch = saved(torch, {"w": torch.arange(3.), "p": Point(1., 2.)}, point_module(), **args)
    glass = gt.load(io.BytesIO(data_torch))
    assert glass["w"].tolist() == [0., 1., 2.] and glass["p"] == 1 + 2j
    data_glass = saved(gt, {"w": gt.arange(3.), "p": Point(1., 2.)}, point_module(), **args)
    back = torch.load(io.BytesIO(data_glass))
    assert back["w"].tolist() == [0., 1., 2.] and back["p"] == 1 + 2j


def test_plain_pickle_cannot_save_what_the_module_can():
    with pytest.raises((AttributeError, pickle.PicklingError)):
        saved(gt, Point(1., 2.), pickle)


@pytest.mark.parametrize("args", FORMATS)
def test_module_dump_writes_the_legacy_headers_as_in_torch(args):
    counts = []
    for library in (torch, gt):
        module = point_module()
        saved(library, library.ones(2), module, **args)
        counts.append(module.dumps)
    assert counts[0] == counts[1]


@pytest.mark.parametrize("module", [None, json])
def test_module_without_a_pickler_refused_as_torch(module):
    messages = []
    for library in (torch, gt):
        with pytest.raises(AttributeError) as info:
            saved(library, library.ones(2), module)
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_c_pickler_refused_before_the_file_is_touched(tmp_path):
    class FastPickler(pickle.Pickler):
        pass
    module = types.SimpleNamespace(__name__="fast_pickle", Pickler=FastPickler,
                                   dump=pickle.dump)
    path = tmp_path / "kept.pt"
    path.write_bytes(b"old")
    with pytest.raises(TypeError, match="cannot use pickle_module 'fast_pickle'"):
        gt.save(gt.ones(2), path, pickle_module=module)
    assert path.read_bytes() == b"old"


def test_default_module_is_pickle():
    data = saved(gt, [gt.ones(2)], pickle)
    assert torch.load(io.BytesIO(data))[0].tolist() == [1., 1.]
