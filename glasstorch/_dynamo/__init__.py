"""torch._dynamo: the few names of torch's compiler front end that programs touch.

`reset`, `config` (settable), `OptimizedModule`, `list_backends`, `disable` and the
markers; torch.compile itself is in entry.py. Nothing is traced: Note [Compiling runs
eagerly] in eval_frame.py.
"""
from . import config, exc  # noqa: F401
from .backends import list_backends  # noqa: F401
from .decorators import (  # noqa: F401
    allow_in_graph, assume_constant_result, disable, disallow_in_graph, dont_skip_tracing,
    forbid_in_graph, graph_break, is_compiling, lookup_backend, mark_dynamic,
    mark_static, mark_static_address, maybe_mark_dynamic, nonstrict_trace, optimize,
    register_backend, set_stance, substitute_in_graph)
from .eval_frame import OptimizedModule  # noqa: F401


def reset() -> None:
    """Forget every compiled artifact: there are none, so there is nothing to clear."""
