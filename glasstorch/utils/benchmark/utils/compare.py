"""Compare: many Measurements as tables, one per label, printed as torch prints them.

Rows are (threads, env, sub-label or statement), columns the descriptions; each cell is
a median in the table's unit. Replicates of one task are merged first. Optional:
significant-figure trimming, colour (best per column or row), and variance warnings.
"""
from __future__ import annotations

import collections
import enum
import itertools
import math

from . import common

__all__ = ["Colorize", "Compare"]

BEST = "\033[92m"
GOOD = "\033[34m"
BAD = "\033[2m\033[91m"
VERY_BAD = "\033[31m"
BOLD = "\033[1m"
TERMINATE = "\033[0m"


class Colorize(enum.Enum):
    NONE = "none"
    COLUMNWISE = "columnwise"
    ROWWISE = "rowwise"


def _leading_digits(value: float) -> int:
    return math.ceil(common.log10_f32(value))


class _Column:
    """One description's cells: a shared number format wide enough for all of them."""

    def __init__(self, grouped: list, scale: float, trim: bool, highlight: bool) -> None:
        self.grouped = grouped
        flat = [m for m in itertools.chain.from_iterable(grouped)]
        self.trim = trim
        self.highlight = highlight and any(m.has_warnings for m in flat if m)
        digits = [_leading_digits(m.median / scale) if m else None for m in flat]
        unit_digits = max(d for d in digits if d is not None)
        decimals = min(max(m.significant_figures - d, 0) for d, m in zip(digits, flat)
                       if m is not None and d is not None) if trim else 1
        width = unit_digits + decimals + (1 if decimals else 0)
        self.template = f"{{:>{width}.{decimals}f}}{{:>{7 if self.highlight else 0}}}"

    def num_to_str(self, value: float | None, sigfigs: int, spread: float | None) -> str:
        if value is None:
            return " " * len(self.num_to_str(1, sigfigs, None))
        if self.trim:
            value = common.trim_sigfig(value, sigfigs)
        flag = f" (! {spread * 100:.0f}%)" if self.highlight and spread is not None else ""
        return self.template.format(value, flag)


def _color(segment: str, value: float, best: float) -> str:
    if value <= best * 1.01 or value <= best + 100e-9:
        return BEST + BOLD + segment + TERMINATE * 2
    if value <= best * 1.1:
        return GOOD + BOLD + segment + TERMINATE * 2
    if value >= best * 5:
        return VERY_BAD + BOLD + segment + TERMINATE * 2
    if value >= best * 2:
        return BAD + segment + TERMINATE * 2
    return segment


class _Table:
    """The table of one label."""

    def __init__(self, results: list, colorize: Colorize, trim: bool, highlight: bool) -> None:
        if len({r.label for r in results}) != 1:
            raise AssertionError("All results must share the same label")
        self.results, self.colorize, self.highlight = results, colorize, highlight
        self.label = results[0].label
        self.unit, self.scale = common.select_unit(min(r.median for r in results))
        self.row_keys = common.ordered_unique(self._row_key(r) for r in results)
        self.row_keys.sort(key=lambda key: key[:2])     # stable: statements keep their order
        self.column_keys = common.ordered_unique(r.description for r in results)
        self.cells = [[None] * len(self.column_keys) for _ in self.row_keys]
        rows = {key: i for i, key in enumerate(self.row_keys)}
        columns = {key: i for i, key in enumerate(self.column_keys)}
        for r in results:
            self.cells[rows[self._row_key(r)]][columns[r.description]] = r
        self.groups = [[row for key, row in zip(self.row_keys, self.cells) if key[0] == threads]
                       for threads in common.ordered_unique(k[0] for k in self.row_keys)]
        self.columns = [_Column([tuple(row[j] for row in g) for g in self.groups], self.scale,
                                trim, highlight) for j in range(len(self.column_keys))]

    @staticmethod
    def _row_key(m: common.Measurement) -> tuple:
        return m.num_threads, m.env, m.as_row_name

    def _row_strings(self, row: list, show_env: bool, env_width: int) -> list:
        first = next(m for m in row if m is not None)
        env = (f"({first.env})" if show_env else "").ljust(env_width + 4)
        cells = [column.num_to_str(None, 1, None) if m is None else column.num_to_str(
            m.median / self.scale, m.significant_figures,
            m.iqr / m.median if m.has_warnings else None) for m, column in zip(row, self.columns)]
        return ["  " + env + first.as_row_name, *cells]

    def _best(self, row: list, group: int) -> list:
        if self.colorize == Colorize.ROWWISE:
            return [min(m.median for m in row if m is not None)] * len(row)
        if self.colorize == Colorize.COLUMNWISE:
            return [min((m.median for m in column.grouped[group] if m is not None), default=None)
                    for column in self.columns]
        return [-1] * len(row)

    def render(self) -> str:
        envs = {r.env for r in self.results}
        env_width = max(len(e) for e in envs) if len(envs) > 1 else 0
        strings, separators, prior = [["", *self.column_keys]], [], (None, None)
        for key, row in zip(self.row_keys, self.cells):
            new_threads = key[0] != prior[0]
            show_env = len(envs) > 1 and (new_threads or key[1] != prior[1])
            strings.append(self._row_strings(row, show_env, env_width))
            separators.append(key[0] if new_threads else None)
            prior = key[:2]
        width = max(len(s) for s in strings)
        strings = [s + [""] * (width - len(s)) for s in strings]
        widths = [max(len(cell) for cell in column) for column in zip(*strings)]
        header = "  |  ".join(c.center(w) for c, w in zip(strings[0], widths))
        lines = [header]
        group = -1
        for string, row, threads in zip(strings[1:], self.cells, separators):
            if threads is not None:
                group += 1
                lines.append(f"{threads} threads: ".ljust(len(header), "-"))
            lines.append("  |  ".join(self._finish(string, widths, row, group)))
        warned = self.highlight and any(r.has_warnings for r in self.results)
        note = ("(! XX%) Measurement has high variance, where XX is the IQR / median * 100.\n"
                if warned else "")
        title = f" {self.label or ''} ".center(len(header) - 2, "-")
        return (f"[{title}]\n" + "\n".join(lines) + "\n\n"
                f"Times are in {common.unit_to_english(self.unit)}s ({self.unit}).\n{note}")

    def _finish(self, string: list, widths: list, row: list, group: int) -> list:
        cells = [string[0].ljust(widths[0])]
        for text, width, m, best in zip(string[1:], widths[1:], row, self._best(row, group)):
            text = text.center(width)
            if self.colorize != Colorize.NONE and m is not None and best is not None:
                text = _color(text, m.median, best)
            cells.append(text)
        return cells


class Compare:
    """Tables of many Measurements: one per label, rows by sub-label, columns by description.

    Args:
        results (list of Measurement): the measurements to show.

    Example::

        >>> Compare([m1, m2]).print()
    """

    def __init__(self, results: list) -> None:
        self._results: list = []
        self.extend_results(results)
        self._trim_significant_figures = False
        self._colorize = Colorize.NONE
        self._highlight_warnings = False

    def __str__(self) -> str:
        return "\n".join(self._render())

    def extend_results(self, results: list) -> None:
        """Add more Measurements (anything else is refused)."""
        for r in results:
            if not isinstance(r, common.Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} instead.")
        self._results.extend(results)

    def trim_significant_figures(self) -> None:
        """Print each cell with only the figures its spread supports."""
        self._trim_significant_figures = True

    def colorize(self, rowwise: bool = False) -> None:
        """Colour the cells relative to the best of their column (or row)."""
        self._colorize = Colorize.ROWWISE if rowwise else Colorize.COLUMNWISE

    def highlight_warnings(self) -> None:
        """Mark cells whose measurement has a large spread."""
        self._highlight_warnings = True

    def print(self) -> None:
        """Print the tables."""
        print(str(self))

    def _render(self) -> list:
        by_label: dict = collections.defaultdict(list)
        for r in common.Measurement.merge(self._results):
            by_label[r.label].append(r)
        return [_Table(group, self._colorize, self._trim_significant_figures,
                       self._highlight_warnings).render() for group in by_label.values()]


