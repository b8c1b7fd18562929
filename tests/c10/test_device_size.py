"""torch.device, torch.Size, layouts and memory formats, UntypedStorage: behaviour and reprs."""
import pickle

import pytest

import glasstorch as torch

DEVICE_CASES = [("cpu",), ("cpu:0",), ("cpu", 0), ("cuda",), ("cuda:1",), ("meta",),
                ("foo",), ("cpu:x",), ("cpu:-1",), ("cpu", -1), ("cpu:0", 0), (0,), ("CPU",),
                (" cpu",), (1.5,)]


def outcome(make):
    try:
        value = make()
    except Exception as error:          # the exception type and message are the outcome
        return type(error).__name__, str(error).split("\n")[0]
    return repr(value), str(value)


@pytest.mark.parametrize("args", DEVICE_CASES)
def test_device_vs_torch(args):
    real = pytest.importorskip("torch")
    assert outcome(lambda: torch.device(*args)) == outcome(lambda: real.device(*args))


def test_device_basics():
    d = torch.device("cpu:0")
    assert (d.type, d.index, repr(d), str(d)) == ("cpu", 0, "device(type='cpu', index=0)", "cpu:0")
    assert torch.device(d) is d
    assert torch.device("cpu") != torch.device("cpu:0")
    assert torch.device("cpu") != "cpu"                        # torch does not compare to str
    assert hash(torch.device("meta")) == hash(torch.device("meta"))
    assert pickle.loads(pickle.dumps(d)) == d


def test_default_device_context_nests():
    meta = torch.device("meta")
    with meta:
        with meta:
            assert torch.zeros(2).device == meta
        assert torch.get_default_device() == meta
        assert torch.tensor([1, 2]).device == meta
    assert torch.get_default_device() == torch.device("cpu")
    torch.set_default_device("meta")
    try:
        assert torch.empty(1).is_meta
    finally:
        torch.set_default_device(None)
    assert torch.empty(1).is_cpu


def test_size():
    s = torch.Size([2, 3])
    assert repr(s) == "torch.Size([2, 3])" and s.numel() == 6 and isinstance(s, tuple)
    assert repr(s[1:]) == "torch.Size([3])" and s[0] == 2
    assert repr(s + (4,)) == "torch.Size([2, 3, 4])"
    assert repr((4,) + s) == "torch.Size([4, 2, 3])"
    assert repr(s * 2) == "torch.Size([2, 3, 2, 3])"
    assert repr(torch.Size()) == "torch.Size([])" and torch.Size().numel() == 1
    assert torch.Size([torch.tensor(3)]) == (3,)
    assert pickle.loads(pickle.dumps(s)) == s and type(pickle.loads(pickle.dumps(s))) is torch.Size
    with pytest.raises(TypeError, match=r"item 1 is 'float'"):
        torch.Size([2, 3.0])


def test_layout_and_memory_format_reprs():
    assert [repr(x) for x in (torch.strided, torch.sparse_coo, torch.channels_last,
                              torch.contiguous_format, torch.preserve_format,
                              torch.channels_last_3d)] == [
        "torch.strided", "torch.sparse_coo", "torch.channels_last", "torch.contiguous_format",
        "torch.preserve_format", "torch.channels_last_3d"]
    assert torch.zeros(2).layout is torch.strided


def test_storage_is_shared_by_views():
    x = torch.zeros(4, 4)
    y = x[1:, ::2].t()
    assert y.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert x.untyped_storage().nbytes() == 64
    assert y.data_ptr() == x.data_ptr() + y.storage_offset() * 4
    s = torch.UntypedStorage(3)
    assert s.nbytes() == 3 and s.tolist() == [0, 0, 0]
    s.resize_(5)
    assert s.nbytes() == 5
    meta = torch.zeros(2, device="meta").untyped_storage()
    assert meta.nbytes() == 8 and meta.device.type == "meta"


@pytest.mark.parametrize("call", [lambda t: t.size(0), lambda t: t.stride(-1)])
def test_size_of_a_dimension_on_0_dim(call):
    with pytest.raises(IndexError, match="but tensor has no dimensions"):
        call(torch.tensor(1.0))


def test_size_and_stride_of_one_dimension():
    x = torch.ones(2, 3)
    assert (x.size(-1), x.stride(0), x.size(1)) == (3, 3, 3)
    with pytest.raises(IndexError, match=r"range of \[-2, 1\], but got 2"):
        x.size(2)
    with pytest.raises(TypeError, match="must be int, not str"):
        x.size("a")


def test_every_empty_tensor_is_contiguous():
    # Regression: an empty tensor whose inner strides are not row-major counted as
    # non-contiguous; torch calls every empty tensor contiguous.
    assert torch.empty_strided((4, 0, 2), (0, 0, 0)).is_contiguous()
    assert not torch.empty_strided((2, 2), (1, 2)).is_contiguous()
