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
    (through its `openblas_set_num_threads`, in the library NumPy loaded and in any
    other OpenBLAS already loaded), and a large product is cut into slabs of the result
    (rows, columns or batches), one per thread of `torch.get_num_threads()`, which the
    calling thread and the pool's workers take as they come free (Note [Sharing items
    as they come]), each multiplied by BLAS on one thread (BLAS releases the GIL).
    Every element is still one BLAS dot product over all of `k`; its last bits may
    depend on the cut (OpenBLAS's float64 kernels at ragged sizes), as they already
    depended on OpenBLAS's own thread count (neither matches torch's MKL to the bit),
    so the slabs are cut where `parallel_for` cuts a range. Where no OpenBLAS is found
    (another BLAS), products are left whole to it.
"""
from __future__ import annotations

import ctypes

import numpy as np

from ...parallel import chunks, get_num_threads, parallel_share

# multiply-adds a thread's slab must have for the pool to pay: handing slabs out costs tens
# of microseconds, which a product of a few million multiply-adds per thread does not earn
# back (a linear layer's (64, 128) @ (128, 256) measured 45 us whole, 75 us cut in two)
WORK_PER_THREAD = 1 << 22
_SETTERS = ("scipy_openblas_set_num_threads64_", "scipy_openblas_set_num_threads",
            "openblas_set_num_threads64_", "openblas_set_num_threads")


def _loaded_openblas() -> list:
    """The OpenBLAS libraries loaded in the process (ctypes handles; Linux's map of the
    process names the shared libraries loaded) that have a thread-count setter, NumPy's
    first: a library in NumPy's own folder of bundled libraries (``numpy.libs``), else
    the first by path, so the choice does not vary from run to run."""
    try:
        with open("/proc/self/maps") as maps:
            paths = {line.split()[-1] for line in maps if "openblas" in line.lower()}
    except OSError:
        return []
    libraries = []
    for path in sorted(paths, key=lambda path: ("numpy" not in path, path)):
        try:
            library = ctypes.CDLL(path)
        except OSError:
            continue
        if any(getattr(library, name, None) is not None for name in _SETTERS):
            libraries.append(library)
    return libraries


def _own_the_cores():
    """Set every OpenBLAS loaded to one thread (SciPy's too, when it was imported before
    glasstorch); NumPy's, or None where there is none."""
    libraries = _loaded_openblas()
    for library in libraries:
        setter = next(getattr(library, name) for name in _SETTERS
                      if getattr(library, name, None) is not None)
        setter(1)
    return libraries[0] if libraries else None


OPENBLAS = _own_the_cores()
_SHARED_OUT = OPENBLAS is not None


def _worth_cutting(out: np.ndarray, a: np.ndarray, b: np.ndarray) -> bool:
    """Whether a product is large enough for the pool, and of a form that can be cut."""
    if not _SHARED_OUT or get_num_threads() == 1 or not out.ndim == a.ndim == b.ndim:
        return False
    if out.size * a.shape[-1] <= get_num_threads() * WORK_PER_THREAD:
        return False
    if out.ndim == 3 and not a.shape[0] == b.shape[0] == out.shape[0]:     # broadcast
        return False
    return out.ndim in (2, 3) and not (np.may_share_memory(out, a)
                                       or np.may_share_memory(out, b))


def matmul_into(out: np.ndarray, a: np.ndarray, b: np.ndarray, row=None) -> None:
    """``np.matmul(a, b, out=out)`` for matrices or batches of them (``(n, k) @ (k, p)``
    or ``(B, n, k) @ (B, k, p)``), cut into slabs shared over the pool's threads when it
    is large (Note [One owner for the cores]). `row`, a ``(p,)`` array of `out`'s dtype
    (a bias), is then added to every row of a matrix product, slab by slab while the
    slab is in cache."""
    if not _worth_cutting(out, a, b):
        np.matmul(a, b, out=out)
        if row is not None:
            np.add(out, row, out=out)
        return
    if out.ndim == 3:
        bounds = _bounds(out.shape[0], 1)
        parallel_share(len(bounds) - 1, lambda i: np.matmul(
            a[bounds[i]:bounds[i + 1]], b[bounds[i]:bounds[i + 1]],
            out=out[bounds[i]:bounds[i + 1]]))
        return
    by_rows = out.shape[0] >= out.shape[1]
    bounds = _bounds(out.shape[0 if by_rows else 1], 8)

    def slab(i: int) -> None:
        start, stop = bounds[i], bounds[i + 1]
        part = np.s_[start:stop] if by_rows else np.s_[:, start:stop]
        np.matmul(a[start:stop] if by_rows else a, b if by_rows else b[:, start:stop],
                  out=out[part])
        if row is not None:
            np.add(out[part], row if by_rows else row[start:stop], out=out[part])
    parallel_share(len(bounds) - 1, slab)


def _bounds(length: int, grain: int) -> list:
    """Where the slabs of a `length` long dimension start (and the last one stops): one
    per thread, none shorter than `grain`, as `parallel_for` cuts a range (so a product
    is cut where it always was, and its bits do not change). Thinner slabs, more of
    them, would leave a late worker a smaller share, but each packs the whole of the
    other operand again: two slabs measured faster than three or four on two threads."""
    return [start for start, _ in chunks(0, length, grain)] + [length]
