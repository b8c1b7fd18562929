"""Kernels compute silently, as torch's do: NumPy's floating point warnings are muted.

`1 / 0`, `exp(1000)` or `log(-1)` give inf and nan in torch without a word. NumPy
would warn ("divide by zero encountered"), and under ``python -W error`` those
warnings would become exceptions inside glasstorch's kernels. NumPy keeps its error
mode in a context variable; setting it around a kernel costs two C calls, where
`np.errstate` as a context manager costs over a microsecond.

The machinery mutes, once, around every kernel it runs: the structured runners and
fast paths (`structured.py`) and the elementwise fast paths (`pointwise.py`); kernels
themselves never mute. The worker threads of the pool are glasstorch's own, so they
are muted once, when they start. The one other user is `cast_array`
(`native/creation/copy.py`), which also converts the data of `torch.tensor(...)`,
outside any kernel.
"""
from __future__ import annotations

import functools

import numpy as np

try:                                      # NumPy 2: the error mode is a context variable
    from numpy._core._ufunc_config import _extobj_contextvar
    from numpy._core.umath import _make_extobj

    _SILENT = _make_extobj(all="ignore")
    # Both are C callables: muting costs no Python frame on the hot path.
    mute = functools.partial(_extobj_contextvar.set, _SILENT)   # returns the token
    unmute = _extobj_contextvar.reset                            # takes the token
except ImportError:                       # any other NumPy: the public, slower way
    def mute():
        state = np.errstate(all="ignore")
        state.__enter__()
        return state

    def unmute(token) -> None:
        token.__exit__(None, None, None)


def mute_this_thread() -> None:
    """Mute NumPy's floating point errors for good in the calling (worker) thread."""
    np.seterr(all="ignore")
