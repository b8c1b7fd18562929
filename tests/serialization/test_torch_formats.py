"""torch.save / torch.load against real torch, both directions: every dtype, shared
storages, strides and offsets, Parameters, state dicts, containers, the legacy format."""
import io
from collections import OrderedDict

import pytest

import glasstorch as gt
from tests.serialization.torch_pairs import DTYPE_NAMES, assert_same, sample, to_glasstorch

torch = pytest.importorskip("torch")


def torch_to_glasstorch(obj, **save_args):
    buffer = io.BytesIO()
    torch.save(obj, buffer, **save_args)
    buffer.seek(0)
    return gt.load(buffer)


def torch_to_torch(obj):
    buffer = io.BytesIO()
    torch.save(obj, buffer)
    buffer.seek(0)
    return torch.load(buffer)


def glasstorch_to_torch(obj, **save_args):
    buffer = io.BytesIO()
    gt.save(obj, buffer, **save_args)
    buffer.seek(0)
    return torch.load(buffer)


# dtypes without a legacy storage class: their records name UntypedStorage
UNTYPED = {"uint16", "uint32", "uint64", "complex32", "float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz",
           "float8_e5m2fnuz", "float8_e8m0fnu"}


@pytest.mark.parametrize("legacy", [False, True])
@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_every_dtype_both_ways(name, legacy):
    ref = sample(torch, name)
    args = {"_use_new_zipfile_serialization": not legacy}
    assert_same(torch_to_glasstorch(ref, **args), ref)
    glass = to_glasstorch(ref)
    if legacy and name in UNTYPED:     # torch cannot read these legacy files, even its own
        with pytest.raises(AttributeError, match="has no attribute 'dtype'"):
            glasstorch_to_torch(glass, **args)
        return
    assert_same(glass, glasstorch_to_torch(glass, **args))


@pytest.mark.parametrize("legacy", [False, True])
def test_views_share_one_storage_and_keep_geometry(legacy):
    args = {"_use_new_zipfile_serialization": not legacy}
    base = torch.arange(24.).reshape(4, 6)
    views = {"base": base, "t": base.t(), "cols": base[:, 1::2], "row": base[2],
             "narrow": base.narrow(1, 2, 3)}
    loaded = torch_to_glasstorch(views, **args)
    pointers = {key: value.untyped_storage().data_ptr() for key, value in loaded.items()}
    assert len(set(pointers.values())) == 1
    for key in views:
        assert_same(loaded[key], views[key])
    loaded["base"][0, 0] = 100.0           # still one storage: the views see the write
    assert loaded["t"][0, 0].item() == 100.0
    back = glasstorch_to_torch(loaded, **args)
    assert len({value.untyped_storage().data_ptr() for value in back.values()}) == 1
    for key in views:
        assert_same(loaded[key], back[key])


def test_one_storage_is_written_once():
    base = gt.zeros(1000)
    buffer = io.BytesIO()
    gt.save([base, base[10:], base.view(10, 100)], buffer)
    assert 4000 < len(buffer.getvalue()) < 6000


def test_views_of_one_storage_as_different_dtypes_are_refused_as_torch():
    x = gt.zeros(4)
    with pytest.raises(RuntimeError) as glass:
        gt.save([x, x.view(gt.int32)], io.BytesIO())
    y = torch.zeros(4)
    with pytest.raises(RuntimeError) as ref:
        torch.save([y, y.view(torch.int32)], io.BytesIO())
    assert str(glass.value) == str(ref.value)


def test_requires_grad_and_parameters():
    ref = {"leaf": torch.ones(3, requires_grad=True), "p": torch.nn.Parameter(torch.arange(4.)),
           "frozen": torch.nn.Parameter(torch.ones(2), requires_grad=False)}
    loaded = torch_to_glasstorch(ref)
    assert type(loaded["p"]) is gt.nn.Parameter and loaded["p"].requires_grad
    assert type(loaded["frozen"]) is gt.nn.Parameter and not loaded["frozen"].requires_grad
    assert loaded["leaf"].requires_grad and loaded["leaf"].is_leaf
    back = glasstorch_to_torch(loaded)
    assert type(back["p"]) is torch.nn.Parameter and back["p"].requires_grad
    assert not back["frozen"].requires_grad and back["leaf"].requires_grad
    for key in ref:
        assert_same(loaded[key], back[key])


def test_state_dict_keeps_order_and_metadata():
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.LayerNorm(4))
    model.register_buffer("steps", torch.tensor(3))
    loaded = torch_to_glasstorch(model.state_dict())
    assert type(loaded) is OrderedDict and list(loaded) == list(model.state_dict())
    assert loaded._metadata == model.state_dict()._metadata
    glass = gt.nn.Sequential(gt.nn.Linear(3, 4), gt.nn.LayerNorm(4))
    glass.register_buffer("steps", gt.tensor(0))
    glass.load_state_dict(loaded)
    back = glasstorch_to_torch(glass.state_dict())
    assert list(back) == list(model.state_dict()) and back._metadata == loaded._metadata
    for key, value in model.state_dict().items():
        assert_same(loaded[key], value)
        assert_same(glass.state_dict()[key], back[key])


def test_optimizer_state_dict_both_ways():
    torch.manual_seed(0)
    model = torch.nn.Linear(3, 2)
    optimizer = torch.optim.Adam(model.parameters(), lr=0.1)
    model(torch.ones(4, 3)).sum().backward()
    optimizer.step()
    state = optimizer.state_dict()
    loaded = torch_to_glasstorch(state)
    assert loaded["param_groups"] == state["param_groups"]
    for index, entry in state["state"].items():
        for key, value in entry.items():
            assert_same(loaded["state"][index][key], value)
    back = glasstorch_to_torch(loaded)
    assert back["param_groups"] == state["param_groups"]
    assert torch.equal(back["state"][0]["exp_avg"], state["state"][0]["exp_avg"])


def test_containers_numbers_and_torch_objects():
    obj = {"list": [1, 2.5, -3, 2 ** 70, None, True], "tuple": (1, "two", b"three"),
           "set": {1, 2}, "complex": 1 + 2j, "nested": {"a": [{"b": (1,)}]},
           "bytearray": bytearray(b"xy"), "float": float("inf")}
    torch_objects = {"size": torch.Size([2, 3]), "dtype": torch.bfloat16,
                     "device": torch.device("cpu"), "meta": torch.device("meta", 0),
                     "layout": torch.sparse_coo}
    loaded = torch_to_glasstorch({**obj, **torch_objects})
    assert {key: loaded[key] for key in obj} == obj
    assert type(loaded["size"]) is gt.Size and loaded["size"] == gt.Size([2, 3])
    assert loaded["dtype"] is gt.bfloat16
    assert loaded["device"] == gt.device("cpu") and loaded["meta"] == gt.device("meta", 0)
    assert loaded["layout"] is gt.sparse_coo
    back = glasstorch_to_torch(loaded)
    assert {key: back[key] for key in obj} == obj
    assert back["size"] == torch_objects["size"] and back["dtype"] is torch.bfloat16
    assert back["device"] == torch_objects["device"] and back["meta"] == torch_objects["meta"]
    assert back["layout"] is torch.sparse_coo


def test_zero_dim_empty_and_meta_tensors():
    ref = [torch.tensor(3.5), torch.empty(0, 3), torch.empty(2, 5, device="meta")]
    loaded = torch_to_glasstorch(ref)
    assert_same(loaded[0], ref[0])
    assert tuple(loaded[1].shape) == (0, 3) and loaded[2].is_meta
    assert tuple(loaded[2].shape) == (2, 5)
    back = glasstorch_to_torch(loaded)
    assert back[0].item() == 3.5 and back[1].shape == (0, 3) and back[2].is_meta


def test_tensor_with_attributes_keeps_them():
    ref = torch.ones(2)
    ref.note = "kept"
    loaded = torch_to_glasstorch(ref)
    assert loaded.note == "kept"
    assert glasstorch_to_torch(loaded).note == "kept"


@pytest.mark.parametrize("protocol", [2, 3, 4, 5])
def test_pickle_protocols(protocol):
    obj = {"x": gt.arange(4.), "y": [1, 2]}
    buffer = io.BytesIO()
    gt.save(obj, buffer, pickle_protocol=protocol)
    buffer.seek(0)
    back = torch.load(buffer, weights_only=False)
    assert back["y"] == [1, 2] and back["x"].tolist() == [0, 1, 2, 3]
    buffer.seek(0)
    assert gt.load(buffer, weights_only=False)["x"].tolist() == [0, 1, 2, 3]


def test_archive_layout_matches_torch(tmp_path):
    import zipfile
    gt.save(gt.ones(2), tmp_path / "mine.pt")
    torch.save(torch.ones(2), tmp_path / "theirs.pt")
    mine = zipfile.ZipFile(tmp_path / "mine.pt").namelist()
    theirs = zipfile.ZipFile(tmp_path / "theirs.pt").namelist()
    assert [n.replace("mine/", "") for n in mine] == [n.replace("theirs/", "") for n in theirs]
    assert zipfile.ZipFile(tmp_path / "mine.pt").testzip() is None


def test_storage_records_are_aligned(tmp_path):
    import zipfile
    gt.save([gt.ones(3), gt.ones(5, dtype=gt.float64)], tmp_path / "a.pt")
    with open(tmp_path / "a.pt", "rb") as file:
        data = file.read()
    for info in zipfile.ZipFile(tmp_path / "a.pt").infolist():
        if "/data/" in info.filename:
            start = info.header_offset
            name_length = int.from_bytes(data[start + 26:start + 28], "little")
            extra_length = int.from_bytes(data[start + 28:start + 30], "little")
            assert (start + 30 + name_length + extra_length) % 64 == 0


def test_conjugate_and_negative_views_keep_their_values():
    ref = torch.tensor([1 + 2j, -3 - 4j])
    other = ref.clone()
    loaded = torch_to_glasstorch([ref.conj(), other.conj().imag])
    assert loaded[0].tolist() == [1 - 2j, -3 + 4j]
    assert loaded[1].tolist() == [-2.0, 4.0]
    back = glasstorch_to_torch(loaded)
    assert back[0].resolve_conj().tolist() == [1 - 2j, -3 + 4j]
    assert back[1].resolve_neg().tolist() == [-2.0, 4.0]


def test_tied_weights_stay_tied():
    torch.manual_seed(0)
    ref = torch.nn.Sequential(torch.nn.Embedding(6, 4), torch.nn.Linear(4, 6, bias=False))
    ref[1].weight = ref[0].weight
    loaded = torch_to_glasstorch(ref.state_dict())
    assert loaded["0.weight"].untyped_storage().data_ptr() == \
        loaded["1.weight"].untyped_storage().data_ptr()
    back = glasstorch_to_torch(loaded)
    assert back["0.weight"].untyped_storage().data_ptr() == \
        back["1.weight"].untyped_storage().data_ptr()
    buffer = io.BytesIO()
    gt.save(loaded, buffer)
    import zipfile
    records = [n for n in zipfile.ZipFile(buffer).namelist() if "/data/" in n]
    assert len(records) == 1                                   # the weight is written once


@pytest.mark.parametrize("protocol", [3, 4, 5])
def test_weights_only_outcome_of_other_protocols_matches_torch(protocol):
    import warnings
    from tests.serialization.test_hostile_files import outcome
    buffer = io.BytesIO()
    torch.save({"a": torch.ones(2), "b": [1, "x"]}, buffer, pickle_protocol=protocol)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert outcome(gt.load, buffer.getvalue()) == outcome(torch.load, buffer.getvalue())
