"""Operator declarations by family, each family loaded on first use.

Note [Families load on first use]
    Declaring every operator at `import glasstorch` would cost most of the import
    (hundreds of schemas parsed, overloads and bindings registered, and, without
    cached bytecode, every family compiled). So only the families the core's own code
    needs (views, factories, copies, conversions) load with it, and the others wait: a
    generated index (`_family_index.py`, made by `family_index.py` and checked by
    `tests/aten/test_lazy_families.py`) says which families declare each Python name
    and each `torch.ops.aten` operator, and the first lookup that misses
    (`binding.get_binding`, `ops.aten.<name>`) loads them. Nothing else changes: a
    loaded family declares exactly as an eagerly imported one would.

    The core therefore names no other family at module level: the Python functions it
    re-exports (`torch.einsum`, `Tensor.unique`) come through `member` on first
    access, Python's operators (`a + b`, `x[idx]`) look their overload up on first
    use, and code that runs after an operator (a derivative formula) imports from the
    operator's family inside the function.
"""
import importlib
import sys

from .. import binding, dispatcher
from ._family_index import BEFORE, BINDINGS, OPERATORS

# every family, in the order node names number overloads (formulas._index)
FAMILIES = ("view", "factory", "ranges", "copy", "shape", "conversion", "unary", "binary",
            "binary_scalar", "trigonometric", "rounding", "predicates", "conj",
            "complex_build", "comparison", "bitwise", "division", "power", "minmax", "binary_math",
            "ternary", "special", "clamp", "reduction", "extrema", "moments", "norms",
            "sort", "order_statistics", "quantile", "bucketing", "histogram", "unique",
            "triangular", "diagonal", "indexing", "scatter", "index_along", "masked",
            "blas", "addmm", "matmul", "einsum", "join", "repeat", "combine", "resize",
            "scan", "random", "random_factories", "sampling", "integration", "distance",
            "statistics", "softmax", "activation", "activation_smooth", "activation_gelu",
            "activation_gated", "activation_rrelu", "loss_regression", "loss_nll",
            "loss_cross_entropy", "loss_binary", "dropout", "normalization", "embedding",
            "padding", "attention", "padding_modes")


def load(family: str) -> None:
    """Import one family, and the families whose overloads it numbers after."""
    for earlier in BEFORE.get(family, ()):
        load(earlier)
    module = f"{__name__}.{family}"
    if module not in sys.modules:
        importlib.import_module(module)


def member(family: str, name: str):
    """A Python object a family defines (`torch.einsum`, `Tensor.unique`: the hand-written
    functions the core re-exports), its family loaded on first use."""
    load(family)
    return getattr(sys.modules[f"{__name__}.{family}"], name)


def load_all() -> None:
    """Import every family (what enumerating all operators needs)."""
    for family in FAMILIES:
        load(family)


def _by_name(by_family: dict, key=lambda name: name) -> dict:
    """The index's family -> names (separated by spaces), turned into name -> families."""
    families: dict = {}
    for family, names in by_family.items():
        for name in names.split():
            families.setdefault(key(name), []).append(family)
    return families


binding.expect(_by_name(BINDINGS, lambda name: tuple(name.split(":"))), load)
dispatcher.expect(_by_name(OPERATORS), load, load_all)
for _family in FAMILIES:                # families the core imported: their prerequisites
    if f"{__name__}.{_family}" in sys.modules:
        load(_family)
