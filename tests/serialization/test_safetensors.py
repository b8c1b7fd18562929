"""glasstorch.safetensors against the safetensors package: files byte-identical both
ways, every dtype, zero-copy loading, the package's refusals."""
import numpy as np
import pytest

import glasstorch as gt
import glasstorch.safetensors as gs
from tests.serialization.torch_pairs import assert_same, sample, to_glasstorch

NAMES = ["bool", "uint8", "int8", "int16", "int32", "int64", "uint16", "uint32", "uint64",
         "float16", "bfloat16", "float32", "float64", "complex64", "float8_e4m3fn",
         "float8_e5m2", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e8m0fnu"]


@pytest.fixture
def torch_and_st():
    torch = pytest.importorskip("torch")
    return torch, pytest.importorskip("safetensors.torch")


def test_every_dtype_byte_identical_both_ways(torch_and_st, tmp_path):
    torch, st = torch_and_st
    refs = {name: sample(torch, name, (2, 3)) for name in NAMES}
    refs["scalar"] = torch.tensor(2.5)
    refs["empty"] = torch.empty(0, 4)
    glass = {name: to_glasstorch(ref) for name, ref in refs.items()}
    assert gs.save(glass, metadata={"k": "v"}) == st.save(refs, metadata={"k": "v"})
    st.save_file(refs, tmp_path / "theirs.safetensors")
    gs.save_file(glass, tmp_path / "mine.safetensors")
    loaded = gs.load_file(tmp_path / "theirs.safetensors")
    back = st.load_file(tmp_path / "mine.safetensors")
    for name, ref in refs.items():
        assert_same(loaded[name], ref)
        assert_same(glass[name], back[name])
    assert gs.load(st.save(refs))["float16"].dtype is gt.float16


def test_load_file_is_zero_copy_and_private(tmp_path):
    gs.save_file({"w": gt.arange(100.), "b": gt.ones(3)}, tmp_path / "a.safetensors")
    loaded = gs.load_file(tmp_path / "a.safetensors")
    data = loaded["w"].untyped_storage()._data
    assert isinstance(data, np.memmap) or isinstance(data.base, np.memmap)
    loaded["w"][0] = 5.0
    assert gs.load_file(tmp_path / "a.safetensors")["w"][0].item() == 0.0


def test_safe_open_reads_lazily_with_metadata(torch_and_st, tmp_path):
    torch, st = torch_and_st
    st.save_file({"a": torch.ones(2), "b": torch.zeros(3, dtype=torch.int64)},
                 tmp_path / "f.safetensors", metadata={"format": "pt"})
    with gs.safe_open(tmp_path / "f.safetensors", framework="pt") as opened:
        assert opened.keys() == ["a", "b"] and opened.metadata() == {"format": "pt"}
        assert opened.get_tensor("b").tolist() == [0, 0, 0]
        assert opened.offset_keys() == ["b", "a"]
        part = opened.get_slice("b")
        assert part.get_shape() == [3] and part.get_dtype() == "I64"
        assert part[1:].tolist() == [0, 0]
    with gs.safe_open(tmp_path / "f.safetensors", framework="np") as opened:
        assert isinstance(opened.get_tensor("a"), np.ndarray)


def test_refusals_as_safetensors(torch_and_st):
    torch, st = torch_and_st
    base = gt.zeros(4)
    with pytest.raises(RuntimeError, match="Some tensors share memory"):
        gs.save({"a": base, "b": base[:2]})
    with pytest.raises(ValueError, match="You are trying to save a non contiguous tensor: `t`"):
        gs.save({"t": gt.zeros(2, 3).t()})
    with pytest.raises(ValueError, match="Key `x` is invalid, expected torch.Tensor"):
        gs.save({"x": 1})
    with pytest.raises(gs.SafetensorError):
        gs.load(b"\x10\x00")
    good = st.save({"a": torch.ones(2)})
    for broken in (good[:-1], good[:8] + b"[" + good[9:], b"\xff" * 8 + good[8:]):
        with pytest.raises(gs.SafetensorError):
            gs.load(broken)


def test_save_and_load_model_with_tied_weights(torch_and_st, tmp_path):
    torch, st = torch_and_st
    from safetensors.torch import load_model, save_model
    gt.manual_seed(0)
    model = gt.nn.Sequential(gt.nn.Embedding(5, 3), gt.nn.Linear(3, 5, bias=False))
    model[1].weight = model[0].weight
    gs.save_model(model, tmp_path / "tied.safetensors")
    fresh = gt.nn.Sequential(gt.nn.Embedding(5, 3), gt.nn.Linear(3, 5, bias=False))
    fresh[1].weight = fresh[0].weight
    assert gs.load_model(fresh, tmp_path / "tied.safetensors") == ([], [])
    assert fresh[0].weight.tolist() == model[0].weight.tolist()
    ref = torch.nn.Sequential(torch.nn.Embedding(5, 3), torch.nn.Linear(3, 5, bias=False))
    ref[1].weight = ref[0].weight
    load_model(ref, tmp_path / "tied.safetensors")
    assert ref[0].weight.tolist() == model[0].weight.tolist()
    save_model(ref, tmp_path / "theirs.safetensors")
    assert gs.load_model(fresh, tmp_path / "theirs.safetensors") == ([], [])
