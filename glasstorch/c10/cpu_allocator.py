"""How the C library hands out tensor memory: freed blocks are kept for reuse.

Note [Keeping freed memory]
    Every kernel result is a fresh NumPy array, and NumPy takes its memory from the C
    library's `malloc`. glibc serves a block over its mmap threshold (128 KiB at
    first) with a new mapping and gives it back to the OS on `free`, and also gives
    back the free top of its heap beyond a trim threshold. Either way the next block
    of that size arrives as untouched pages, and the kernel's first write to each 4 KiB
    page is a page fault that zeroes it: a training step of the README's GPT (arrays of
    1 to 4 MiB) took about 8900 faults, 30 ms of system time, per step. Raising the
    two thresholds (32 MiB for mappings, glibc's own ceiling for its adaptive
    threshold; 256 MiB of free heap kept) lets those blocks be reused warm, as
    torch's caching allocators do. It is done once, at import, through glibc's
    `mallopt`; elsewhere (another C library) nothing changes.
"""
from __future__ import annotations

import ctypes

_M_TRIM_THRESHOLD = -1            # mallopt's parameter numbers (glibc's malloc.h)
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20
TRIM_THRESHOLD = 256 << 20


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds; whether glibc's `mallopt` was found."""
    try:           # the symbols the process already has (find_library would run ldconfig)
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)
                and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))


KEEPS_FREED_MEMORY = keep_freed_memory()
