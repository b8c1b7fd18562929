"""The progress bar torch.hub shows while it copies a file: tqdm's when tqdm is
installed, else a small stand-in writing the percentage (or the byte count, when the
size is unknown) to stderr."""
from __future__ import annotations

import sys


class _FallbackBar:
    """tqdm's interface, as far as hub uses it: a counter printed on one stderr line."""

    def __init__(self, total=None, disable: bool = False, unit=None, *args, **kwargs) -> None:
        self.total, self.disable, self.n = total, disable, 0

    def update(self, n) -> None:
        if self.disable:
            return
        self.n += n
        shown = f"{self.n:.1f} bytes" if self.total is None else \
            f"{100 * self.n / float(self.total):.1f}%"
        sys.stderr.write(f"\r{shown}")
        sys.stderr.flush()

    def set_description(self, *args, **kwargs) -> None:
        """Accepted and ignored: the stand-in prints no description."""

    def write(self, s) -> None:
        sys.stderr.write(f"{s}\n")

    def close(self) -> None:
        self.disable = True

    def __enter__(self):
        return self

    def __exit__(self, *exc_info) -> None:
        if not self.disable:
            sys.stderr.write("\n")


try:
    from tqdm import tqdm
except ImportError:
    tqdm = _FallbackBar
