"""torch.hub: models and weights from the hub cache, without touching the network.

# Note [The hub works offline]
#
# torch.hub downloads repositories and weight files into its cache (``get_dir()``,
# ``$TORCH_HOME/hub``) and reads them from there afterwards. glasstorch reads the same
# cache, laid out as torch lays it out (``checkpoints/<file>`` for weights,
# ``<owner>_<repo>_<ref>/hubconf.py`` for repositories), so whatever torch (or a user)
# put there loads; ``file://`` URLs are copied as torch copies them. Where torch would
# download, glasstorch raises a RuntimeError saying what to fetch and where to put it.
"""
from ._cache import (  # noqa: F401
    DEFAULT_CACHE_DIR, ENV_GITHUB_TOKEN, ENV_TORCH_HOME, ENV_XDG_CACHE_HOME, HASH_REGEX, MODULE_HUBCONF,
    READ_DATA_CHUNK, VAR_DEPENDENCY, download_url_to_file, get_dir, set_dir)
from ._progress import tqdm  # noqa: F401
from ._repos import help, list, load  # noqa: F401,A004 (torch's names)
from ._weights import load_state_dict_from_url  # noqa: F401

__all__ = ["download_url_to_file", "get_dir", "help", "list", "load",
           "load_state_dict_from_url", "set_dir"]
