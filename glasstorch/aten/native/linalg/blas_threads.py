"""Matrix products shared out over glasstorch's thread pool, with OpenBLAS on one thread.

Note [One owner for the cores]
    NumPy's OpenBLAS starts threads of its own for any gemm above its threshold
    (``M * N * K`` over 4 * 65536), and those threads spin while they wait for work.
    On a busy machine, where another process holds one of the cores, a spinning
    thread keeps the product's other half waiting for its time slice: the weight
    gradients of a linear layer ((128, 2048) @ (2048, 512)) measured 40 ms each
    instead of 3 on a loaded 2-core machine. And glasstorch's own pool threads calling a
    threaded OpenBLAS oversubscribe the cores (Note [Attention in blocks]).
    So glasstorch owns the cores as torch does: OpenBLAS is told to use one thread
    (through its `openblas_set_num_threads`, found in the library NumPy loaded), and a
    large product is cut into as many slabs of the result as `torch.get_num_threads()`
    allows (rows, columns or batches), each multiplied by BLAS on one pool thread
    (BLAS releases the GIL). Every element is still one BLAS dot product over all of
    `k`; its last bits may depend on the cut, as they already depended on OpenBLAS's own
    thread count (neither matches torch's MKL to the bit). Where no OpenBLAS is found
    (another BLAS), products are left whole to it.
"""
from __future__ import annotations

import ctypes

import numpy as np

from ...parallel import get_num_threads, parallel_for

# multiply-adds a thread's slab must have for the pool to pay: handing slabs out costs tens
# of microseconds, which a product of a few million multiply-adds per thread does not earn
# back (a linear layer's (64, 128) @ (128, 256) measured 45 us whole, 75 us cut in two)
_WORK_PER_THREAD = 1 << 22
_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
            "openblas_set_num_threads64_", "openblas_set_num_threads")


def _numpy_openblas():
    """The OpenBLAS library NumPy loaded (a ctypes handle; Linux's map of the process
    names the shared libraries loaded), one with a thread-count setter; None if none."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
    except OSError:
        return None
    for path in paths:
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        if any(getattr(library, name, None) is not None for name in _SETTERS):
            return library
    return None


def _serialize_openblas() -> bool:
    """Set NumPy's OpenBLAS to one thread; whether one was found."""
    if OPENBLAS is None:
        return False
    setter = next(getattr(OPENBLAS, name) for name in _SETTERS
                  if getattr(OPENBLAS, name, None) is not None)
    setter(1)
    return True


OPENBLAS = _numpy_openblas()
_SHARED_OUT = _serialize_openblas()


def _worth_cutting(out: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether a product is large enough for the pool, and of a form that can be cut."""
    if not _SHARED_OUT or get_num_threads() == 1 or not out.ndim == a.ndim == b.ndim:
        return False
    if out.size * a.shape[-1] <= get_num_threads() * _WORK_PER_THREAD:
        return False
    if out.ndim == 3 and not a.shape[0] == b.shape[0] == out.shape[0]:     # broadcast
        return False
    return out.ndim in (2, 3) and not (np.may_share_memory(out, a)
                                       or np.may_share_memory(out, b))


def matmul_into(out: np.ndarray, a: np.ndarray, b: np.ndarray, row=None) -> None:
    """``np.matmul(a, b, out=out)`` for matrices or batches of them (``(n, k) @ (k, p)``
    or ``(B, n, k) @ (B, k, p)``), cut over the pool's threads when it is large
    (Note [One owner for the cores]). `row`, a ``(p,)`` array of `out`'s dtype (a
    bias), is then added to every row of a matrix product, slab by slab while the slab
    is in cache."""
    if not _worth_cutting(out, a, b):
        np.matmul(a, b, out=out)
        if row is not None:
            np.add(out, row, out=out)
        return
    if out.ndim == 3:
        parallel_for(0, out.shape[0], 1,
                     lambda start, stop: np.matmul(a[start:stop], b[start:stop],
                                                   out=out[start:stop]))
        return
    by_rows = out.shape[0] >= out.shape[1]

    def slab(start: int, stop: int) -> None:
        part = np.s_[start:stop] if by_rows else np.s_[:, start:stop]
        np.matmul(a[start:stop] if by_rows else a, b if by_rows else b[:, start:stop],
                  out=out[part])
        if row is not None:
            np.add(out[part], row if by_rows else row[start:stop], out=out[part])
    parallel_for(0, out.shape[0 if by_rows else 1], 8, slab)
