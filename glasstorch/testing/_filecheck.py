"""FileCheck: assert that a text (a printed graph, a log) holds strings in order.

LLVM's FileCheck, as torch.testing exposes it: each ``check*`` call appends one check,
and `run` walks the text once, left to right. A plain check moves past its match;
CHECK-NEXT and CHECK-SAME require the match on the following (the same) line;
CHECK-NOT strings must not occur between the surrounding positive matches; a run of
CHECK-DAG checks may match in any order; CHECK-COUNT matches a string `count` times
(and, with ``exactly``, no more before the next check).
"""
from __future__ import annotations

import dataclasses
import re


@dataclasses.dataclass(frozen=True)
class _Check:
    kind: str               # "CHECK", "CHECK-NEXT", "CHECK-SAME", "CHECK-NOT", ...
    pattern: str
    regex: bool = False


def _highlight(text: str, start: int, end: int) -> str:
    """`text` with a ``~~~ <--- HERE`` line under the characters [start, end)."""
    line_end = text.find("\n", start)
    line_end = len(text) if line_end == -1 else line_end
    column = start - (text.rfind("\n", 0, start) + 1)
    marker = " " * column + "~" * max(end - start, 1) + " <--- HERE"
    return text[:line_end] + "\n" + marker + text[line_end:]


class FileCheck:
    """Build checks with ``check*`` calls, then `run` them on a text.

    Example::

        >>> FileCheck().check("add").check_next("mul").check_not("sub").run("add\\nmul x")
    """

    def __init__(self) -> None:
        self._checks: list = []

    def _add(self, kind: str, pattern: str, regex: bool = False) -> "FileCheck":
        self._checks.append(_Check(kind, pattern, regex))
        return self

    def check(self, s: str) -> "FileCheck":
        return self._add("CHECK", s)

    def check_next(self, s: str) -> "FileCheck":
        return self._add("CHECK-NEXT", s)

    def check_same(self, s: str) -> "FileCheck":
        return self._add("CHECK-SAME", s)

    def check_not(self, s: str) -> "FileCheck":
        return self._add("CHECK-NOT", s)

    def check_dag(self, s: str) -> "FileCheck":
        return self._add("CHECK-DAG", s)

    def check_regex(self, s: str) -> "FileCheck":
        return self._add("CHECK-REGEX", s, regex=True)

    def check_source_highlighted(self, s: str) -> "FileCheck":
        return self._add("CHECK-SOURCE-HIGHLIGHTED", s)

    def check_count(self, s: str, count: int, exactly: bool = False) -> "FileCheck":
        """`s` found `count` times in a row (``exactly``: and not once more after)."""
        self._add(f"CHECK-COUNT-{count}", s)
        if exactly:
            self._add("CHECK-NOT", s)
        return self

    def run(self, test_string: str) -> None:
        """Run the checks on `test_string`; raise RuntimeError at the first that fails."""
        if not self._checks:
            raise RuntimeError("No checks have been added to this instance ofFilecheck! "
                               "Check for bad input.")
        _Run(str(test_string)).all(self._checks)


class _Run:
    """One pass over a text: the position reached and the CHECK-NOTs still pending."""

    def __init__(self, text: str) -> None:
        self.text, self.position, self.pending_not = text, 0, []

    def all(self, checks: list) -> None:
        index = 0
        while index < len(checks):
            check = checks[index]
            if check.kind == "CHECK-NOT":
                self.pending_not.append(check)
            elif check.kind == "CHECK-DAG":
                group = [check]
                while index + 1 < len(checks) and checks[index + 1].kind == "CHECK-DAG":
                    index += 1
                    group.append(checks[index])
                self.dag(group)
            else:
                self.positive(check)
            index += 1
        self.refuse_pending(len(self.text))

    def find(self, check: _Check, start: int) -> tuple:
        if check.regex:
            match = re.compile(check.pattern).search(self.text, start)
            return (match.start(), match.end()) if match else (-1, -1)
        found = self.text.find(check.pattern, start)
        return found, (found + len(check.pattern) if found != -1 else -1)

    def missing(self, check: _Check, start: int) -> RuntimeError:
        what = f'regex "{check.pattern}"' if check.regex else f'"{check.pattern}"'
        return RuntimeError(f"Expected to find {what} but did not find it\nSearched string:\n"
                            f"{self.text[start:]}\nFrom {check.kind}: {check.pattern}\n")

    def refuse_pending(self, end: int) -> None:
        """No pending CHECK-NOT string may occur between the position and `end`."""
        for check in self.pending_not:
            found, stop = self.find(check, self.position)
            if found != -1 and stop <= end:
                raise RuntimeError(f'Expected to not find "{check.pattern}" but found it\n'
                                   f"{_highlight(self.text, found, stop)}\n"
                                   f"From CHECK-NOT: {check.pattern}\n")
        self.pending_not = []

    def positive(self, check: _Check) -> None:
        repeats = int(check.kind.rsplit("-", 1)[1]) if check.kind.startswith("CHECK-COUNT") else 1
        start = self.position
        for _ in range(repeats):
            found, stop = self.find(check, start)
            if found == -1:
                raise self.missing(check, self.position)
            if repeats == 1:
                self.refuse_pending(found)
                self.check_lines(check, found)
            start = stop
        self.position = start

    def check_lines(self, check: _Check, found: int) -> None:
        """CHECK-NEXT: one line break before the match; CHECK-SAME: none."""
        allowed = {"CHECK-NEXT": 1, "CHECK-SAME": 0}.get(check.kind)
        if allowed is not None and self.text.count("\n", self.position, found) != allowed:
            raise RuntimeError('Expected to not find "\\n" but found it\n'
                               f"{self.text}\nFrom {check.kind}: {check.pattern}\n")

    def dag(self, group: list) -> None:
        ends = []
        for check in group:
            found, stop = self.find(check, self.position)
            if found == -1:
                raise self.missing(check, self.position)
            ends.append((found, stop))
        self.refuse_pending(min(found for found, _ in ends))
        self.position = max(stop for _, stop in ends)
