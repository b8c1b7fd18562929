"""torch.load's options: map_location in every form, mmap, files, buffers and paths,
skip_data, the byte order record."""
import io

import numpy as np
import pytest

import glasstorch as gt


def roundtrip(obj, **load_args):
    buffer = io.BytesIO()
    gt.save(obj, buffer)
    buffer.seek(0)
    return gt.load(buffer, **load_args)


@pytest.mark.parametrize("map_location", ["cpu", gt.device("cpu"), b"cpu", {"cpu": "cpu"},
                                          lambda storage, location: storage,
                                          lambda storage, location: None])
def test_map_location_forms_keep_cpu(map_location):
    loaded = roundtrip({"a": gt.arange(3.)}, map_location=map_location)
    assert loaded["a"].tolist() == [0, 1, 2] and loaded["a"].device.type == "cpu"


def test_map_location_callable_sees_storage_and_tag():
    seen = []
    roundtrip(gt.ones(2), map_location=lambda storage, location: seen.append(
        (type(storage).__name__, storage.nbytes(), location)))
    assert seen == [("UntypedStorage", 8, "cpu")]


@pytest.mark.parametrize("map_location", ["meta", gt.device("meta"), {"cpu": "meta"}])
def test_map_location_meta(map_location):
    x = gt.arange(6.).view(2, 3)
    loaded = roundtrip([x, x.t()], map_location=map_location)
    assert all(t.is_meta for t in loaded)
    assert loaded[1].shape == (3, 2) and loaded[1].stride() == (1, 3)


def test_map_location_cuda_refused_as_torch():
    torch = pytest.importorskip("torch")
    buffer = io.BytesIO()
    gt.save(gt.ones(1), buffer)
    messages = []
    for library in (gt, torch):
        buffer.seek(0)
        with pytest.raises(RuntimeError) as error:
            library.load(buffer, map_location="cuda:0")
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def test_unknown_location_refused_as_torch():
    torch = pytest.importorskip("torch")
    buffer = io.BytesIO()
    gt.save(gt.ones(1), buffer)
    messages = []
    for library in (gt, torch):
        buffer.seek(0)
        with pytest.raises(RuntimeError) as error:
            library.load(buffer, map_location="nowhere")
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def test_paths_pathlike_and_file_objects(tmp_path):
    x = gt.arange(4)
    gt.save(x, str(tmp_path / "a.pt"))
    gt.save(x, tmp_path / "b.pt")
    with open(tmp_path / "c.pt", "wb") as file:
        gt.save(x, file)
    for name in "abc":
        assert gt.load(tmp_path / f"{name}.pt").tolist() == [0, 1, 2, 3]
        assert gt.load(str(tmp_path / f"{name}.pt")).tolist() == [0, 1, 2, 3]
        with open(tmp_path / f"{name}.pt", "rb") as file:
            assert gt.load(file).tolist() == [0, 1, 2, 3]


def test_save_refuses_what_cannot_be_written(tmp_path):
    with pytest.raises(AttributeError, match="expected 'f' to be string, path, or a file-like"):
        gt.save(gt.ones(1), 3)
    missing = tmp_path / "missing"
    with pytest.raises(RuntimeError, match=f"Parent directory {missing} does not exist."):
        gt.save(gt.ones(1), missing / "x.pt")


def test_several_checkpoints_in_one_stream():
    buffer = io.BytesIO()
    gt.save(gt.ones(1), buffer, _use_new_zipfile_serialization=False)
    gt.save(gt.zeros(2), buffer, _use_new_zipfile_serialization=False)
    buffer.seek(0)
    assert gt.load(buffer).tolist() == [1]
    assert gt.load(buffer).tolist() == [0, 0]


def test_mmap_views_the_file_copy_on_write(tmp_path):
    path = tmp_path / "m.pt"
    x = gt.arange(1000.)
    gt.save({"x": x, "tail": x[500:]}, path)
    loaded = gt.load(path, mmap=True)
    array = loaded["x"].untyped_storage()._data
    assert isinstance(array.base, np.memmap) or isinstance(array, np.memmap)
    assert loaded["tail"].untyped_storage().data_ptr() == loaded["x"].untyped_storage().data_ptr()
    loaded["x"][0] = 42.0                  # private mapping: the file keeps its bytes
    assert loaded["tail"][0].item() == 500.0
    assert gt.load(path)["x"][0].item() == 0.0
    assert loaded["x"][0].item() == 42.0


def test_mmap_shared_writes_reach_the_file(tmp_path):
    import mmap
    path = tmp_path / "s.pt"
    gt.save(gt.zeros(4), path)
    with gt.serialization.set_default_mmap_options(mmap.MAP_SHARED):
        loaded = gt.load(path, mmap=True)
        loaded[1] = 7.0
        del loaded
    assert gt.serialization.get_default_mmap_options() == mmap.MAP_PRIVATE
    assert gt.load(path).tolist() == [0, 7, 0, 0]


def test_mmap_refusals(tmp_path):
    buffer = io.BytesIO()
    gt.save(gt.ones(1), buffer)
    buffer.seek(0)
    with pytest.raises(ValueError, match="f must be a file path in order to use the mmap"):
        gt.load(buffer, mmap=True)
    path = tmp_path / "legacy.pt"
    gt.save(gt.ones(1), path, _use_new_zipfile_serialization=False)
    with pytest.raises(RuntimeError, match="mmap can only be used with files saved with"):
        gt.load(str(path), mmap=True)


def test_mmap_of_torch_file(tmp_path):
    torch = pytest.importorskip("torch")
    torch.save({"w": torch.arange(10.).view(2, 5)}, tmp_path / "t.pt")
    loaded = gt.load(tmp_path / "t.pt", mmap=True)
    assert loaded["w"].tolist() == torch.arange(10.).view(2, 5).tolist()


def test_skip_data():
    buffer = io.BytesIO()
    with gt.serialization.skip_data():
        gt.save(gt.ones(3), buffer)
    buffer.seek(0)
    assert gt.load(buffer).tolist() == [0, 0, 0]
    with pytest.raises(RuntimeError, match="Cannot use skip_data=True with"):
        with gt.serialization.skip_data():
            gt.save(gt.ones(3), io.BytesIO(), _use_new_zipfile_serialization=False)


def test_big_endian_checkpoint_is_swapped():
    import zipfile
    buffer = io.BytesIO()
    gt.save(gt.tensor([1.5, -2.0]), buffer)
    source = zipfile.ZipFile(io.BytesIO(buffer.getvalue()))
    swapped = io.BytesIO()
    with zipfile.ZipFile(swapped, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            if name.endswith("byteorder"):
                data = b"big"
            elif "/data/" in name:
                data = np.frombuffer(data, "<f4").astype(">f4").tobytes()
            target.writestr(name, data)
    swapped.seek(0)
    assert gt.load(swapped).tolist() == [1.5, -2.0]


def test_unseekable_stream_refused_as_torch():
    torch = pytest.importorskip("torch")

    class Stream:
        def read(self, size=-1):
            return b""

        def readline(self):
            return b""

    messages = []
    for library in (gt, torch):
        with pytest.raises(AttributeError) as error:
            library.load(Stream())
        messages.append(str(error.value))
    assert messages[0] == messages[1]


def test_load_of_safetensors_path(tmp_path):
    import glasstorch.safetensors as gs
    gs.save_file({"w": gt.arange(3.)}, tmp_path / "x.safetensors")
    assert gt.load(tmp_path / "x.safetensors")["w"].tolist() == [0, 1, 2]
    with pytest.raises(RuntimeError, match="with dict map_location is not supported"):
        gt.load(tmp_path / "x.safetensors", map_location={"cpu": "cpu"})


@pytest.mark.parametrize("map_location", ["cpu", {"cuda:0": "cpu"}, gt.device("cpu"),
                                          lambda storage, location: storage])
def test_cuda_checkpoint_maps_to_cpu(map_location):
    from tests.serialization import hostile_files as files
    cuda_file = files.archive(files.program(files.tensor_record(location="cuda:0")),
                              {"0": np.arange(4, dtype="<f4").tobytes()})
    with pytest.raises(RuntimeError, match="torch.cuda.is_available\\(\\) is False"):
        gt.load(io.BytesIO(cuda_file))
    assert gt.load(io.BytesIO(cuda_file), map_location=map_location).tolist() == [0, 1, 2, 3]


@pytest.fixture
def config():
    from glasstorch.utils.serialization import config
    saved = (config.load.mmap, config.load.endianness, config.save.storage_alignment,
             config.save.compute_crc32)
    yield config
    (config.load.mmap, config.load.endianness, config.save.storage_alignment,
     config.save.compute_crc32) = saved


def test_config_mmap_default(config, tmp_path):
    gt.save(gt.ones(3), tmp_path / "a.pt")
    config.load.mmap = True
    data = gt.load(tmp_path / "a.pt").untyped_storage()._data
    assert isinstance(data, np.memmap) or isinstance(data.base, np.memmap)


def test_config_endianness_of_checkpoints_without_byteorder(config):
    buffer = io.BytesIO()
    gt.save(gt.tensor([1.5]), buffer, _disable_byteorder_record=True)
    buffer.seek(0)
    assert gt.load(buffer).tolist() == [1.5]
    gt.serialization.set_default_load_endianness(gt.serialization.LoadEndianness.BIG)
    buffer.seek(0)
    assert gt.load(buffer).tolist() != [1.5]
    gt.serialization.set_default_load_endianness(None)


def test_config_alignment_and_crc(config, tmp_path):
    import zipfile
    torch = pytest.importorskip("torch")
    config.save.storage_alignment = 4096
    config.save.compute_crc32 = False
    gt.save([gt.ones(3), gt.zeros(2)], tmp_path / "a.pt")
    with open(tmp_path / "a.pt", "rb") as file:
        data = file.read()
    archive = zipfile.ZipFile(tmp_path / "a.pt")
    assert b"4096" in data                    # the .storage_alignment record
    for info in archive.infolist():
        start = info.header_offset
        if "/data/" in info.filename:
            extra = int.from_bytes(data[start + 28:start + 30], "little")
            assert (start + 30 + len(info.filename) + extra) % 4096 == 0
            assert info.CRC == 0
    assert torch.load(tmp_path / "a.pt")[0].tolist() == [1, 1, 1]
    assert gt.load(tmp_path / "a.pt")[1].tolist() == [0, 0]


def test_registered_package_tags_and_restores():
    from glasstorch.serialization import _location
    registry = list(_location._package_registry)
    restored = []

    def tag(storage):
        return "vault" if storage.nbytes() == 12 else None

    def restore(storage, location):
        if location == "vault":
            restored.append(storage.nbytes())
            return storage
        return None
    gt.serialization.register_package(5, tag, restore)
    try:
        assert roundtrip([gt.ones(3), gt.ones(2)])[0].tolist() == [1, 1, 1]
    finally:
        _location._package_registry[:] = registry
    assert restored == [12]


def test_torchscript_archive_refused():
    torch = pytest.importorskip("torch")
    import warnings
    buffer = io.BytesIO()
    torch.jit.save(torch.jit.script(torch.nn.Linear(2, 2)), buffer)
    messages = []
    for library in (gt, torch):
        buffer.seek(0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with pytest.raises(RuntimeError) as error:
                library.load(buffer)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    buffer.seek(0)
    with pytest.raises(RuntimeError, match="glasstorch cannot load TorchScript archives"):
        gt.load(buffer, weights_only=False)
