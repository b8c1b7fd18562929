"""Weights from the hub cache: load_state_dict_from_url (Note [The hub works offline])."""
from __future__ import annotations

import os
import sys
import warnings
import zipfile
from typing import Any
from urllib.parse import urlparse

from ._cache import HASH_REGEX, download_url_to_file, get_dir


def load_state_dict_from_url(url: str, model_dir: str | None = None, map_location: Any = None,
                             progress: bool = True, check_hash: bool = False,
                             file_name: str | None = None, weights_only: bool = False) -> dict:
    """Load the serialized object at `url` from the hub cache (``get_dir()/checkpoints``).

    The file is looked for under its URL's base name (or `file_name`); if absent it is
    fetched with `download_url_to_file` (``file://`` URLs only: Note [The hub works
    offline]), then read with ``torch.load``.

    Args:
        url (str): the object's URL.
        model_dir (str, optional): the directory to look in.
        map_location (optional): passed to ``torch.load``.
        check_hash (bool): check a downloaded file against the hash in its name
            (``name-<sha256 prefix>.ext``). Default: ``False``
        file_name (str, optional): the name to look for instead of the URL's.
        weights_only (bool): passed to ``torch.load``. Default: ``False``

    Example::

        >>> state = torch.hub.load_state_dict_from_url("https://example.com/w.pth")  # cached
    """
    if os.getenv("TORCH_MODEL_ZOO"):
        warnings.warn("TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead",
                      stacklevel=2)
    model_dir = model_dir if model_dir is not None else os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    cached_file = os.path.join(model_dir, file_name or os.path.basename(urlparse(url).path))
    if not os.path.exists(cached_file):
        sys.stdout.write(f'Downloading: "{url}" to {cached_file}\n')
        found = HASH_REGEX.search(os.path.basename(cached_file)) if check_hash else None
        download_url_to_file(url, cached_file, found.group(1) if found else None,
                             progress=progress)
    if _is_legacy_zip(cached_file):
        warnings.warn("Falling back to the old format < 1.6. This support will be deprecated "
                      "in favor of default zipfile format introduced in 1.6. Please redo "
                      "torch.save() to save it in the new zipfile format.", FutureWarning,
                      stacklevel=2)
        cached_file = _extract_single(cached_file, model_dir)
    import glasstorch               # torch.load, found at use (serialization is above the hub)
    return glasstorch.load(cached_file, map_location=map_location, weights_only=weights_only)


def _is_legacy_zip(filename: str) -> bool:
    """Weights saved before torch 1.6 by some hubs: a zip holding exactly one file."""
    if not zipfile.is_zipfile(filename):
        return False
    with zipfile.ZipFile(filename) as archive:
        members = archive.infolist()
    return len(members) == 1 and not members[0].is_dir()


def _extract_single(filename: str, directory: str) -> str:
    with zipfile.ZipFile(filename) as archive:
        member = archive.infolist()[0]
        target = os.path.realpath(os.path.join(directory, member.filename))
        if not target.startswith(os.path.realpath(directory) + os.sep):
            raise ValueError(f"Archive entry escapes the target directory: {member.filename}")
        archive.extract(member, directory)
    return target
