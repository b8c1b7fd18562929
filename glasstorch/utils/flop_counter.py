"""torch.utils.flop_counter: counting the floating-point operations a program does.

`FlopCounterMode` is a dispatch mode: it sees every operator call after the Python
binding has lowered it (``torch.matmul`` of a batch by a matrix arrives as ``aten.mm``,
``nn.Linear`` as ``aten.addmm``, their backward as ``aten.mm``), counts those with a
formula in `flop_registry`, and charges each count to every module the call happened
in (`ModuleTracker`, forward and backward). The formulas are torch's: a multiply-add is
two flops, a bias add is free.
"""
from __future__ import annotations

from collections import defaultdict
from typing import Callable, Optional

from ..aten.dispatcher import ops
from ._python_dispatch import TorchDispatchMode
from .module_tracker import ModuleTracker

__all__ = ["FlopCounterMode", "register_flop_formula"]

aten = ops.aten
flop_registry: dict = {}
suffixes = ["", "K", "M", "B", "T"]


def shape_wrapper(f: Callable) -> Callable:
    """`f` called with the shapes of its tensor arguments (and ``out_shape``)."""
    def shaped(*args, out_val=None, **kwargs):
        args = [tuple(a.shape) if hasattr(a, "shape") else a for a in args]
        out_shape = tuple(out_val.shape) if hasattr(out_val, "shape") else None
        return f(*args, out_shape=out_shape, **kwargs)
    return shaped


def register_flop_formula(targets, get_raw: bool = False) -> Callable:
    """A decorator registering a flop formula for the operator packet(s) `targets`;
    unless `get_raw`, the formula receives shapes instead of tensors."""
    def register(formula: Callable) -> Callable:
        wrapped = formula if get_raw else shape_wrapper(formula)
        for target in (targets if isinstance(targets, (list, tuple)) else [targets]):
            flop_registry[target] = wrapped
        return formula
    return register


@register_flop_formula(aten.mm)
def mm_flop(a_shape, b_shape, *args, out_shape=None, **kwargs) -> int:
    """(m, k) @ (k, n): m * n * k multiply-adds."""
    m, k = a_shape
    k2, n = b_shape
    assert k == k2
    return m * n * 2 * k


@register_flop_formula(aten.addmm)
def addmm_flop(self_shape, a_shape, b_shape, out_shape=None, **kwargs) -> int:
    """As `mm_flop`: the added matrix costs nothing."""
    return mm_flop(a_shape, b_shape)


@register_flop_formula(aten.bmm)
def bmm_flop(a_shape, b_shape, out_shape=None, **kwargs) -> int:
    """(b, m, k) @ (b, k, n): b * m * n * k multiply-adds."""
    b, m, k = a_shape
    b2, k2, n = b_shape
    assert b == b2 and k == k2
    return b * m * n * 2 * k


@register_flop_formula(aten.baddbmm)
def baddbmm_flop(self_shape, a_shape, b_shape, out_shape=None, **kwargs) -> int:
    """As `bmm_flop`: the added batch costs nothing."""
    return bmm_flop(a_shape, b_shape)


def get_suffix_str(number: int) -> str:
    """The unit a total is shown in: 1001M rather than 1.001B (one digit of overflow)."""
    return suffixes[max(0, min(len(suffixes) - 1, (len(str(number)) - 2) // 3))]


def convert_num_with_suffix(number: int, suffix: str) -> str:
    return f"{number / 1000 ** suffixes.index(suffix):.3f}{suffix}"


def convert_to_percent_str(num: int, denom: int) -> str:
    return "0%" if denom == 0 else f"{num / denom:.2%}"


def _render(rows: list, header: list) -> str:
    """`rows` as a plain text table (tabulate's "simple" layout, which torch prints
    with): the first column left-aligned, the others right; a header is given two
    characters of room."""
    widths = [max(len(head) + 2, *(len(str(cell)) for cell in column))
              for head, column in zip(header, zip(*rows))]

    def line(cells) -> str:
        return "  ".join(str(c).ljust(w) if i == 0 else str(c).rjust(w)
                         for i, (c, w) in enumerate(zip(cells, widths)))
    return "\n".join([line(header), "  ".join("-" * w for w in widths)] +
                     [line(row) for row in rows])


def _packet_name(packet) -> str:
    return f"{packet._namespace}.{packet._name}"


class FlopCounterMode:
    """Counts the flops of the code run inside it, per operator and per module.

    Args:
        mods: ignored (torch's deprecated argument).
        depth: how deep in the module hierarchy the printed table goes.
        display: print the table on exit.
        custom_mapping: operator packet -> formula (taking shapes), added to torch's.

    Example::

        >>> with FlopCounterMode(display=False) as counter:
        ...     torch.mm(torch.ones(2, 3), torch.ones(3, 4))
        >>> counter.get_total_flops()
        48
    """

    def __init__(self, mods=None, depth: int = 2, display: bool = True,
                 custom_mapping: Optional[dict] = None) -> None:
        self.flop_counts: dict = defaultdict(lambda: defaultdict(int))
        self.depth, self.display = depth, display
        self.flop_registry = {**flop_registry, **{
            k: shape_wrapper(v) for k, v in (custom_mapping or {}).items()}}
        self.mod_tracker = ModuleTracker()
        self.mode = None

    def get_total_flops(self) -> int:
        """All the flops counted."""
        return sum(self.flop_counts["Global"].values())

    def get_flop_counts(self) -> dict:
        """Module name -> {operator packet: flops} (``"Global"``: everything)."""
        return {k: dict(v) for k, v in self.flop_counts.items()}

    def get_table(self, depth: Optional[int] = None) -> str:
        """The counts as torch prints them: modules to `depth`, with their operators."""
        depth = 999999 if depth is None and self.depth is None else (depth or self.depth)
        total = self.get_total_flops()
        suffix = get_suffix_str(total)
        subsumed = False

        def rows_of(name: str, indent: int) -> list:
            nonlocal subsumed
            flops = sum(self.flop_counts[name].values())
            subsumed |= flops >= total
            rows = [[" " * indent + name, convert_num_with_suffix(flops, suffix),
                     convert_to_percent_str(flops, total)]]
            for packet, count in self.flop_counts[name].items():
                rows.append([" " * indent + " - " + _packet_name(packet),
                             convert_num_with_suffix(count, suffix),
                             convert_to_percent_str(count, total)])
            return rows

        rows = []
        for name in sorted(self.flop_counts):
            if name != "Global" and name.count(".") + 1 <= depth:
                rows.extend(rows_of(name, name.count(".")))
        if "Global" in self.flop_counts and not subsumed:   # flops outside every module
            rows = rows_of("Global", 0) + [[" " + row[0]] + row[1:] for row in rows]
        return _render(rows or [["Global", "0", "0%"]], ["Module", "FLOP", "% Total"])

    def __enter__(self) -> "FlopCounterMode":
        self.flop_counts.clear()
        self.mod_tracker.__enter__()
        self.mode = _CountingMode(self)
        self.mode.__enter__()
        return self

    def __exit__(self, *args) -> None:
        self.mode.__exit__(*args)
        self.mode = None
        self.mod_tracker.__exit__()
        if self.display:
            print(self.get_table(self.depth))

    def _count(self, func, args: tuple, kwargs: dict, out) -> None:
        formula = self.flop_registry.get(func.overloadpacket)
        if formula is None:
            return
        args, kwargs = _as_torch_passes(func, args, kwargs)
        flops = formula(*args, **kwargs, out_val=out)
        for parent in set(self.mod_tracker.parents):
            self.flop_counts[parent][func.overloadpacket] += flops


def _as_torch_passes(func, args: tuple, kwargs: dict) -> tuple:
    """A dispatch mode here receives every argument positionally; torch passes the
    keyword-only ones (addmm's beta, alpha) by name, as the formulas expect."""
    arguments = func._schema.arguments
    n = sum(1 for a in arguments if not a.kwarg_only)
    named = {a.name: value for a, value in zip(arguments[n:], args[n:])}
    return args[:n], {**named, **kwargs}


class _CountingMode(TorchDispatchMode):
    def __init__(self, counter: FlopCounterMode) -> None:
        self.counter = counter

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        out = func(*args, **kwargs)
        self.counter._count(func, args, kwargs, out)
        return out
