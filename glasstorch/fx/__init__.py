"""torch.fx: importable, with every public name; using one raises NotImplementedError.

(Symbolic tracing is a later issue: see glasstorch/export/_missing.py.)
"""
from ..export._missing import missing_class, missing_function

symbolic_trace = missing_function("torch.fx.symbolic_trace")
replace_pattern = missing_function("torch.fx.replace_pattern")
has_side_effect = missing_function("torch.fx.has_side_effect")
map_arg = missing_function("torch.fx.map_arg")
Tracer = missing_class("torch.fx.Tracer")
Graph = missing_class("torch.fx.Graph")
GraphModule = missing_class("torch.fx.GraphModule")
Interpreter = missing_class("torch.fx.Interpreter")
Transformer = missing_class("torch.fx.Transformer")
Node = missing_class("torch.fx.Node")
Proxy = missing_class("torch.fx.Proxy")


def wrap(fn_or_name):
    """Keep a function as one call in symbolically traced graphs; returns it unchanged."""
    return fn_or_name
