"""Hub repositories: a directory with a ``hubconf.py`` whose public callables are the
entry points. ``source="local"`` names the directory; ``source="github"`` names
``owner/repo[:ref]``, found in the cache as ``<owner>_<repo>_<ref>`` (Note [The hub
works offline])."""
from __future__ import annotations

import builtins
import contextlib
import importlib.util
import os
import sys
from typing import Any, Callable, Iterator

from ._cache import _TRUSTED_OWNERS, MODULE_HUBCONF, VAR_DEPENDENCY, _offline, get_dir


@contextlib.contextmanager
def _on_sys_path(path: str) -> Iterator[None]:
    sys.path.insert(0, path)
    try:
        yield
    finally:
        sys.path.remove(path)


def _import_hubconf(repo_dir: str) -> Any:
    """Import the directory's hubconf.py (its own imports resolved in the directory)."""
    path = os.path.join(repo_dir, MODULE_HUBCONF)
    spec = importlib.util.spec_from_file_location(MODULE_HUBCONF, path)
    module = importlib.util.module_from_spec(spec)
    with _on_sys_path(repo_dir):
        spec.loader.exec_module(module)
    return module


def _entry(hub_module: Any, model: Any) -> Callable:
    """The entry point `model` of the hubconf, after checking its dependencies import."""
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    dependencies = getattr(hub_module, VAR_DEPENDENCY, None)
    if dependencies is not None:
        missing = [name for name in dependencies if importlib.util.find_spec(name) is None]
        if missing:
            raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")
    function = getattr(hub_module, model, None)
    if function is None or not callable(function):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return function


def _parse(github: str) -> tuple:
    """owner, repo and ref of ``owner/repo[:ref]``; without a ref, the cached main or master."""
    repo_info, _, ref = github.partition(":")
    owner, name = repo_info.split("/")
    if not ref:
        cached = [r for r in ("main", "master") if os.path.exists(f"{get_dir()}/{owner}_{name}_{r}")]
        if not cached:      # torch's words when it cannot reach GitHub to ask
            raise RuntimeError("It looks like there is no internet connection and the repo "
                               f"could not be found in the cache ({get_dir()})")
        ref = cached[0]
    return owner, name, ref


def _check_trusted(owner: str, name: str, folder: str, trust_repo: Any) -> None:
    """Ask before running code of a repository not trusted yet, and remember the answer."""
    hub_dir = get_dir()
    trusted_list = os.path.join(hub_dir, "trusted_list")
    open(trusted_list, "a").close()
    with open(trusted_list) as file:
        trusted = {line.strip() for line in file}
    owner_name = f"{owner}_{name}"
    is_trusted = (owner_name in trusted or os.path.isdir(os.path.join(hub_dir, folder))
                  or owner in _TRUSTED_OWNERS)
    if trust_repo is False or (trust_repo == "check" and not is_trusted):
        response = builtins.input(
            f"The repository {owner_name} does not belong to the list of trusted repositories "
            "and as such cannot be downloaded. Do you trust this repository and wish to add "
            "it to the trusted list of repositories (y/N)?")
        if response.lower() in ("y", "yes"):
            if is_trusted:
                print("The repository is already trusted.")
        elif response.lower() in ("n", "no", ""):
            raise Exception("Untrusted repository.")  # noqa: TRY002 (torch's type)
        else:
            raise ValueError(f"Unrecognized response {response}.")
    if not is_trusted:
        with open(trusted_list, "a") as file:
            file.write(owner_name + "\n")


def _cached_repo(github: str, force_reload: bool, trust_repo: Any, verbose: bool) -> str:
    """The cached directory of a GitHub repository (fetching it would need the network)."""
    hub_dir = get_dir()
    os.makedirs(hub_dir, exist_ok=True)
    owner, name, ref = _parse(github)
    folder = "_".join([owner, name, ref.replace("/", "_")])
    repo_dir = os.path.join(hub_dir, folder)
    _check_trusted(owner, name, folder, trust_repo)
    if force_reload or not os.path.exists(repo_dir):
        raise _offline(f"the repository {github}", repo_dir)
    if verbose:
        sys.stderr.write(f"Using cache found in {repo_dir}\n")
    return repo_dir


def list(github: str, force_reload: bool = False, skip_validation: bool = False,  # noqa: A001
         trust_repo: Any = "check", verbose: bool = True) -> builtins.list:
    """The entry points (public callables of hubconf.py) of a cached GitHub repository."""
    hub_module = _import_hubconf(_cached_repo(github, force_reload, trust_repo, verbose))
    return [name for name in dir(hub_module)
            if callable(getattr(hub_module, name)) and not name.startswith("_")]


def help(github: str, model: str, force_reload: bool = False,  # noqa: A001
         skip_validation: bool = False, trust_repo: Any = "check") -> str | None:
    """The docstring of entry point `model` of a cached GitHub repository."""
    hub_module = _import_hubconf(_cached_repo(github, force_reload, trust_repo, True))
    return _entry(hub_module, model).__doc__


def load(repo_or_dir: str, model: str, *args: Any, source: str = "github",
         trust_repo: Any = "check", force_reload: bool = False, verbose: bool = True,
         skip_validation: bool = False, **kwargs: Any) -> Any:
    """Call entry point `model` of a hub repository with `args` and `kwargs`.

    Args:
        repo_or_dir (str): ``owner/repo[:ref]`` (``source="github"``, read from the hub
            cache) or a local directory (``source="local"``) holding a hubconf.py.
        model (str): the entry point's name.
        source (str): ``"github"`` or ``"local"``. Default: ``"github"``

    Returns:
        whatever the entry point returns (usually a model).

    Example::

        >>> model = torch.hub.load("path/to/repo", "tiny_model", source="local")
    """
    source = source.lower()
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    if source == "github":
        repo_or_dir = _cached_repo(repo_or_dir, force_reload, trust_repo, verbose)
    with _on_sys_path(repo_or_dir):
        hub_module = _import_hubconf(repo_or_dir)
        return _entry(hub_module, model)(*args, **kwargs)
