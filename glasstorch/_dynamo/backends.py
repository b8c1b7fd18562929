"""The backends torch.compile knows by name, and the inductor settings it checks.

Every backend runs the program eagerly here (Note [Compiling runs eagerly]); the names
are kept so that a program naming one is accepted, and one naming none refused.
"""
from __future__ import annotations

import functools
import pathlib

from .exc import InvalidBackend

# torch's registry: name -> the tags that hide it from list_backends()'s default view.
REGISTERED = {
    "aot_eager": ("debug",), "aot_eager_decomp_partition": ("debug",),
    "aot_eager_decomp_partition_crossref": ("debug",),
    "aot_eager_decomp_partition_with_mode": ("debug",),
    "aot_eager_default_partitioner": ("debug",), "aot_ts": ("debug",),
    "cudagraphs": (), "dynamo_accuracy_minifier_backend": ("debug",),
    "dynamo_minifier_backend": ("debug",), "eager": ("debug",), "eager_debug": ("debug",),
    "eager_noexcept": ("debug",), "inductor": (), "invoke_subgraph": ("debug",),
    "non_leaf_compile_error_TESTING_ONLY": ("debug",), "openxla": (),
    "openxla_eval": ("experimental",), "pre_dispatch_eager": ("debug",),
    "relu_accuracy_error_TESTING_ONLY": ("debug",), "relu_compile_error_TESTING_ONLY": ("debug",),
    "relu_runtime_error_TESTING_ONLY": ("debug",), "ts": ("debug",), "tvm": (),
}

# The inductor modes torch.compile accepts, in the order its message lists them.
MODES = ("default", "lite", "reduce-overhead", "max-autotune-no-cudagraphs", "max-autotune")

# The inductor options, read on first use from the file tools/inductor_options.py writes
# from torch: name -> (the type torch checks values against, or None; the default's type).
_OPTIONS_FILE = pathlib.Path(__file__).with_name("inductor_options.txt")
_CHECKED_TYPES = {"bool": bool, "int": int, "float": float, "str": str, "list": list,
                  "tuple": tuple, "NoneType": type(None)}


# Keys torch.compile itself takes out of `options` before the inductor sees them.
_COMPILE_OPTIONS = ("guard_filter_fn", "use_aoti")


@functools.lru_cache(maxsize=None)
def inductor_options() -> dict:
    """torch's inductor options, in torch's order: name -> (checked type, default's type name)."""
    options = {}
    for line in _OPTIONS_FILE.read_text().splitlines()[1:]:
        name, checked, default_type = line.split("\t")
        options[name] = (_CHECKED_TYPES.get(checked), default_type)
    return options


def list_backends(exclude_tags: tuple | None = ("debug", "experimental")) -> list:
    """The names torch.compile accepts as `backend`, those tagged `exclude_tags` left out."""
    excluded = set(exclude_tags or ())
    return sorted(name for name, tags in REGISTERED.items() if not excluded & set(tags))


def check_backend(backend) -> None:
    """Refuse a backend name no registry holds (a callable is accepted as it is)."""
    if isinstance(backend, str) and backend not in REGISTERED:
        raise InvalidBackend(backend)


def check_inductor(mode: str | None, options) -> None:
    """Check `mode` and `options` as the inductor backend checks them."""
    if mode is not None and mode not in MODES:
        raise RuntimeError(f"Unrecognized mode={mode}, should be one of: {', '.join(MODES)}")
    if not options:
        return
    known = inductor_options()
    for key, value in options.items():
        if key in _COMPILE_OPTIONS:
            continue
        name = key.replace("-", "_")
        if name not in known:
            raise RuntimeError(f"Unexpected optimization option {key}, known options are "
                               f"{list(known)}")
        checked, default_type = known[name]
        if checked is not None and not isinstance(value, checked):
            raise RuntimeError(f"Unexpected type of attr {key}, got {type(value).__name__} "
                               f"should be {default_type}")
