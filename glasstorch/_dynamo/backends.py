"""The backends torch.compile knows by name, and the inductor settings it checks.

Every backend runs the program eagerly here (Note [Compiling runs eagerly]); the names
are kept so that a program naming one is accepted, and one naming none refused.
"""
from __future__ import annotations

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

# The commonly set inductor options with torch's defaults: their types are what an
# option's value is checked against. (torch knows several hundred; the rest are refused
# as unknown, with this shorter list in the message.)
INDUCTOR_OPTIONS = {
    "debug": False, "epilogue_fusion": True, "max_autotune": False,
    "max_autotune_pointwise": False, "max_autotune_gemm": False,
    "coordinate_descent_tuning": False, "shape_padding": True, "freezing": False,
    "fallback_random": False, "implicit_fallbacks": True, "aggressive_fusion": False,
    "layout_optimization": True, "force_fuse_int_mm_with_mul": False,
    "triton.cudagraphs": False, "triton.cudagraph_trees": True,
    "triton.unique_kernel_names": True, "trace.enabled": False, "trace.graph_diagram": False,
    "cpp.threads": -1, "cpp.simdlen": None, "cpp.enable_kernel_profile": False,
}


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
    for key, value in (options or {}).items():
        if key not in INDUCTOR_OPTIONS:
            raise RuntimeError(f"Unexpected optimization option {key}, known options are "
                               f"{list(INDUCTOR_OPTIONS)}")
        default = INDUCTOR_OPTIONS[key]
        if default is not None and type(value) is not type(default):
            raise RuntimeError(f"Unexpected type of attr {key}, got {type(value).__name__} "
                               f"should be {type(default).__name__}")
