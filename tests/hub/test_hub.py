"""torch.hub against torch, offline: the cache directory and its environment variables,
weights read from the cache (torch.load called as torch calls it), file:// copies with
hash checks, local and cached hub repositories, and a clear error where torch would
download."""
import hashlib
import os
import sys

import pytest

import glasstorch as gt
import glasstorch.hub as hub
from glasstorch.hub import _cache

HUBCONF = '''
dependencies = ["numpy"]


def tiny(scale=1):
    """A tiny entry point."""
    return ("tiny", scale)


def _helper():
    return None


not_callable = 3
'''


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A fresh TORCH_HOME, set_dir undone, for both libraries."""
    monkeypatch.setenv("TORCH_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("TORCH_HUB", raising=False)
    monkeypatch.setattr(_cache, "_hub_dir", None)
    if "torch" in sys.modules:
        monkeypatch.setattr(sys.modules["torch"].hub, "_hub_dir", None)
    return tmp_path


def _error(call):
    try:
        call()
    except Exception as e:          # noqa: BLE001 (the test compares any error)
        return type(e).__name__, str(e)
    return None


def test_get_dir_follows_the_environment_as_torch(home, monkeypatch):
    torch = pytest.importorskip("torch")
    assert hub.get_dir() == torch.hub.get_dir() == str(home / "home" / "hub")
    monkeypatch.delenv("TORCH_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(home / "xdg"))
    assert hub.get_dir() == torch.hub.get_dir() == str(home / "xdg" / "torch" / "hub")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert hub.get_dir() == torch.hub.get_dir() == os.path.expanduser("~/.cache/torch/hub")
    hub.set_dir("~/elsewhere")
    torch.hub.set_dir("~/elsewhere")
    assert hub.get_dir() == torch.hub.get_dir() == os.path.expanduser("~/elsewhere")
    monkeypatch.setenv("TORCH_HUB", "x")
    with pytest.warns(UserWarning, match="TORCH_HUB is deprecated"):
        hub.get_dir()


def test_public_names_match_torch():
    torch = pytest.importorskip("torch")
    assert sorted(hub.__all__) == sorted(torch.hub.__all__)


def _fake_load(calls):
    def load(f, map_location=None, weights_only=False):
        calls.append((f, map_location, weights_only))
        return {"loaded": f}
    return load


def test_weights_read_from_the_cache(home, monkeypatch, capsys):
    checkpoints = home / "home" / "hub" / "checkpoints"
    checkpoints.mkdir(parents=True)
    (checkpoints / "resnet18-5c106cde.pth").write_bytes(b"weights")
    calls = []
    monkeypatch.setattr(gt, "load", _fake_load(calls), raising=False)
    url = "https://download.example.org/models/resnet18-5c106cde.pth?x=1"
    state = hub.load_state_dict_from_url(url, map_location="cpu", weights_only=True)
    assert state == {"loaded": str(checkpoints / "resnet18-5c106cde.pth")}
    assert calls == [(str(checkpoints / "resnet18-5c106cde.pth"), "cpu", True)]
    assert capsys.readouterr().out == ""        # nothing to download, nothing said
    (home / "mine").mkdir()
    (home / "mine" / "renamed.pt").write_bytes(b"w")
    hub.load_state_dict_from_url(url, model_dir=str(home / "mine"), file_name="renamed.pt")
    assert calls[-1][0] == str(home / "mine" / "renamed.pt")


def test_weights_round_trip_with_torch_load(home):
    pytest.importorskip("torch")
    checkpoints = home / "home" / "hub" / "checkpoints"
    checkpoints.mkdir(parents=True)
    gt.save({"w": gt.arange(3.0)}, checkpoints / "w.pth")
    state = hub.load_state_dict_from_url("https://example.org/w.pth", weights_only=True)
    assert gt.equal(state["w"], gt.arange(3.0))


def test_network_needed_is_a_clear_error(home, capsys):
    url = "https://download.example.org/models/missing.pth"
    target = home / "home" / "hub" / "checkpoints" / "missing.pth"
    with pytest.raises(RuntimeError, match=f"glasstorch does not download.*{target}"):
        hub.load_state_dict_from_url(url)
    assert capsys.readouterr().out == f'Downloading: "{url}" to {target}\n'   # as torch says
    assert not target.exists() and os.listdir(target.parent) == []


def test_file_urls_copy_with_hash_checks_as_torch(home):
    torch = pytest.importorskip("torch")
    source = home / "source.bin"
    source.write_bytes(b"some weights" * 1000)
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    url = source.as_uri()
    for lib, name in ((hub, "ours"), (torch.hub, "theirs")):
        lib.download_url_to_file(url, str(home / name), hash_prefix=digest[:8], progress=False)
        assert (home / name).read_bytes() == source.read_bytes()
    bad = [lambda lib, n: lib.download_url_to_file(url, str(home / n), hash_prefix="0000",
                                                   progress=False)]
    for call in bad:
        assert _error(lambda: call(hub, "x")) == _error(lambda: call(torch.hub, "y"))
        assert not (home / "x").exists() and not (home / "y").exists()
    assert [p for p in os.listdir(home) if p.endswith(".partial")] == []


def test_check_hash_of_a_file_url(home, monkeypatch):
    source = home / "w-0123.pth"
    source.write_bytes(b"weights")
    monkeypatch.setattr(gt, "load", _fake_load([]), raising=False)
    with pytest.raises(RuntimeError, match='invalid hash value \\(expected "0123"'):
        hub.load_state_dict_from_url(source.as_uri(), check_hash=True)
    assert hub.load_state_dict_from_url(source.as_uri(), check_hash=False)["loaded"].endswith(
        "w-0123.pth")


@pytest.fixture
def repo(home):
    folder = home / "repo"
    folder.mkdir()
    (folder / "hubconf.py").write_text(HUBCONF)
    return folder


LOCAL_CALLS = [
    lambda h, d: h.load(d, "tiny", 3, source="local"),
    lambda h, d: h.load(d, "tiny", scale=5, source="LOCAL"),
    lambda h, d: h.load(d, "missing", source="local"),
    lambda h, d: h.load(d, "not_callable", source="local"),
    lambda h, d: h.load(d, 3, source="local"),
    lambda h, d: h.load(d, "tiny", source="gitlab"),
]


@pytest.mark.parametrize("index", range(len(LOCAL_CALLS)))
def test_local_repositories_as_torch(repo, index):
    torch = pytest.importorskip("torch")
    call = LOCAL_CALLS[index]
    assert _error(lambda: call(hub, str(repo))) == _error(lambda: call(torch.hub, str(repo)))
    if _error(lambda: call(hub, str(repo))) is None:
        assert call(hub, str(repo)) == call(torch.hub, str(repo))


def test_missing_dependencies_refused_as_torch(repo):
    torch = pytest.importorskip("torch")
    (repo / "hubconf.py").write_text(HUBCONF.replace('["numpy"]', '["numpy", "no_such_pkg"]'))
    call = lambda h: h.load(str(repo), "tiny", source="local")   # noqa: E731
    assert _error(lambda: call(hub)) == _error(lambda: call(torch.hub)) == \
        ("RuntimeError", "Missing dependencies: no_such_pkg")


def test_cached_github_repositories_as_torch(home, repo, capsys):
    torch = pytest.importorskip("torch")
    hub_dir = home / "home" / "hub"
    hub_dir.mkdir(parents=True)
    os.rename(repo, hub_dir / "someone_models_v1")
    github = "someone/models:v1"
    assert hub.list(github) == torch.hub.list(github) == ["tiny"]
    assert hub.help(github, "tiny") == torch.hub.help(github, "tiny") == "A tiny entry point."
    assert hub.load(github, "tiny", 2) == torch.hub.load(github, "tiny", 2)
    assert "Using cache found in" in capsys.readouterr().err
    # a cached repository counts as trusted: neither library asked or wrote the list
    assert (hub_dir / "trusted_list").read_text() == ""


def test_github_without_ref_uses_the_cached_main_or_master(home, repo):
    hub_dir = home / "home" / "hub"
    hub_dir.mkdir(parents=True)
    os.rename(repo, hub_dir / "someone_models_master")
    assert hub.list("someone/models", verbose=False) == ["tiny"]


def test_untrusted_repository_asks_first(home, repo, monkeypatch):
    hub_dir = home / "home" / "hub"
    hub_dir.mkdir(parents=True)
    os.rename(repo, hub_dir / "someone_models_v1")
    answers = iter(["n", "maybe", "y"])
    monkeypatch.setattr("builtins.input", lambda prompt: next(answers))
    with pytest.raises(Exception, match="Untrusted repository."):
        hub.list("someone/models:v1", trust_repo=False)
    with pytest.raises(ValueError, match="Unrecognized response maybe."):
        hub.list("someone/models:v1", trust_repo=False)
    assert hub.list("someone/models:v1", trust_repo=False, verbose=False) == ["tiny"]


def test_github_without_cache_is_a_clear_error(home):
    (home / "home" / "hub").mkdir(parents=True)
    with pytest.raises(RuntimeError, match="no internet connection and the repo could not "
                                           "be found in the cache"):
        hub.list("pytorch/vision")
    with pytest.raises(RuntimeError, match="glasstorch does not download.*pytorch_vision_v0.1"):
        hub.load("pytorch/vision:v0.1", "resnet18")


def test_progress_bar_and_token_name_as_torch(tmp_path, capfd):
    torch = pytest.importorskip("torch")
    assert gt.hub.ENV_GITHUB_TOKEN == torch.hub.ENV_GITHUB_TOKEN
    source = tmp_path / "weights.bin"
    source.write_bytes(b"x" * 1000)
    shown = []
    for lib in (gt, torch):
        lib.hub.download_url_to_file(source.as_uri(), str(tmp_path / "copy.bin"))
        shown.append(capfd.readouterr().err)
        lib.hub.download_url_to_file(source.as_uri(), str(tmp_path / "copy.bin"),
                                     progress=False)
        shown.append(capfd.readouterr().err)
    assert shown[0] == shown[2] and shown[1] == shown[3] == ""
    with gt.hub.tqdm(total=None) as bar:
        bar.update(3)
    assert capfd.readouterr().err == "\r3.0 bytes\n"
