"""torch.utils.benchmark: time statements (Timer), read the results (Measurement), and
tabulate many of them (Compare), printed as torch prints them.

Not here: instruction counting under Valgrind (`Timer.collect_callgrind` refuses) and
the input fuzzers (Fuzzer, FuzzedTensor, ...).
"""
from timeit import default_timer as timer  # noqa: F401 (torch's name for the clock)

from .utils.common import (  # noqa: F401
    Measurement, TaskSpec, ordered_unique, select_unit, set_torch_threads, trim_sigfig,
    unit_to_english)
from .utils.compare import Colorize, Compare  # noqa: F401
from .utils.timer import Language, Timer  # noqa: F401
