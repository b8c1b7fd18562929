"""glasstorch benchmarks: one registry of cases, timed against NumPy and torch.

A case is a setup function and a statement. The setup is called once per torch-like
library (glasstorch, and real torch when it is importable) and returns the names the
statement uses; the same statement then runs on both, since glasstorch speaks torch's
API. The NumPy column runs the case's NumPy statement against the same names.

    @case("x.view(-1)", numpy="a.reshape(-1)", group="small-tensor overhead")
    def view_flat(torch, np):
        return {"x": torch.zeros(3, 4), "a": np.zeros((3, 4), np.float32)}

Cases live in `bench/cases/<topic>.py`; every module there is imported by the runner,
so adding a benchmark means adding one decorated function. Run them with
``python bench/run.py`` (or ``python -m bench``); ``--help`` lists the options.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    """One benchmark: what to time (`stmt`, `numpy`) and how to build its inputs (`setup`)."""

    name: str
    stmt: str                 # run on glasstorch and torch
    numpy: str | None         # the NumPy equivalent; None when there is none
    setup: object             # setup(torch_like_module, numpy) -> dict of names
    group: str


CASES: dict = {}              # name -> Case, in registration order


def case(stmt: str, *, numpy: str | None = None, group: str = "misc", name: str | None = None):
    """Register the decorated setup function as a benchmark case.

    Args:
        stmt: the statement to time on glasstorch and torch (``"x.view(-1)"``).
        numpy: the NumPy statement doing the same work, or None.
        group: the heading the case is listed under.
        name: the label in the table; `stmt` by default.
    """
    def register(setup):
        label = name or stmt
        if label in CASES:
            raise ValueError(f"benchmark case {label!r} is registered twice")
        CASES[label] = Case(label, stmt, numpy, setup, group)
        return setup
    return register
