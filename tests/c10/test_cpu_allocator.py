"""Note [Keeping freed memory]: big freed blocks come back without page faults."""
import platform
import resource

import numpy as np
import pytest

from glasstorch.c10 import cpu_allocator


def _batch_of_arrays() -> None:
    """Eight 4 MiB arrays alive at once, then all freed (a step's temporaries): without
    the raised thresholds glibc gives the 32 MiB back and the next batch faults."""
    arrays = [np.ones(1 << 20, np.float32) for _ in range(8)]
    del arrays


@pytest.mark.skipif(platform.system() != "Linux" or platform.libc_ver()[0] != "glibc",
                    reason="glibc's mallopt only")
def test_freed_blocks_are_reused_warm():
    assert cpu_allocator.KEEPS_FREED_MEMORY
    _batch_of_arrays()
    before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(5):
        _batch_of_arrays()                         # 40960 pages if mapped afresh
    assert resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before < 2000
