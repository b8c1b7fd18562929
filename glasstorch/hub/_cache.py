"""The hub cache: where it is, and copying into it (Note [The hub works offline])."""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import uuid
import warnings
from urllib.parse import urlparse
from urllib.request import Request, urlopen

from ._progress import tqdm

ENV_TORCH_HOME = "TORCH_HOME"
ENV_XDG_CACHE_HOME = "XDG_CACHE_HOME"
ENV_GITHUB_TOKEN = "GITHUB_TOKEN"
DEFAULT_CACHE_DIR = "~/.cache"
VAR_DEPENDENCY = "dependencies"
MODULE_HUBCONF = "hubconf.py"
READ_DATA_CHUNK = 128 * 1024
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")
_TRUSTED_OWNERS = ("facebookresearch", "facebookincubator", "pytorch", "fairinternal")

_hub_dir = None


def _torch_home() -> str:
    cache = os.getenv(ENV_XDG_CACHE_HOME, DEFAULT_CACHE_DIR)
    return os.path.expanduser(os.getenv(ENV_TORCH_HOME, os.path.join(cache, "torch")))


def get_dir() -> str:
    """The hub cache directory: `set_dir`'s, else ``$TORCH_HOME/hub``.

    ``$TORCH_HOME`` defaults to ``$XDG_CACHE_HOME/torch``, and that to ``~/.cache/torch``.
    """
    if os.getenv("TORCH_HUB"):
        warnings.warn("TORCH_HUB is deprecated, please use env TORCH_HOME instead", stacklevel=2)
    if _hub_dir is not None:
        return _hub_dir
    return os.path.join(_torch_home(), "hub")


def set_dir(d: str | os.PathLike) -> None:
    """Use `d` as the hub cache directory from now on.

    Args:
        d (str): path to a local folder for downloaded models and weights.
    """
    global _hub_dir
    _hub_dir = os.path.expanduser(d)


def _offline(what: str, destination: str) -> RuntimeError:
    return RuntimeError(f"glasstorch does not download ({what}): place the file at "
                        f"{destination} (for instance by running the program once with torch) "
                        "and call again (Note [The hub works offline])")


def _bar(source, progress: bool):
    size = source.headers.get("Content-Length")
    return tqdm(total=None if size is None else int(size), disable=not progress, unit="B",
                unit_scale=True, unit_divisor=1024)


def download_url_to_file(url: str, dst: str, hash_prefix: str | None = None,
                         progress: bool = True) -> None:
    """Copy the object at `url` to `dst`: ``file://`` URLs only (no network here).

    Args:
        url (str): the object's URL.
        dst (str): the full path to write.
        hash_prefix (str, optional): what the SHA256 digest of the file must start with.
        progress (bool): show a progress bar on stderr (`torch.hub.tqdm`).

    Raises:
        RuntimeError: the digest does not match, or `url` needs the network.
    """
    dst = os.path.expanduser(dst)
    if urlparse(url).scheme != "file":
        raise _offline(f"download of {url}", dst)
    partial = f"{dst}.{uuid.uuid4().hex}.partial"
    digest = hashlib.sha256()
    try:
        with urlopen(Request(url, headers={"User-Agent": "torch.hub"})) as source, \
                open(partial, "wb") as target, _bar(source, progress) as bar:
            for chunk in iter(lambda: source.read(READ_DATA_CHUNK), b""):
                target.write(chunk)
                digest.update(chunk)
                bar.update(len(chunk))
        if hash_prefix is not None and not digest.hexdigest().startswith(hash_prefix):
            raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", '
                               f'got "{digest.hexdigest()}")')
        shutil.move(partial, dst)
    finally:
        if os.path.exists(partial):
            os.remove(partial)
