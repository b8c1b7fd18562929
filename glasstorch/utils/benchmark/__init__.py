"""torch.utils.benchmark: time statements (Timer), read the results (Measurement), and
tabulate many of them (Compare), printed as torch prints them."""
from .utils.common import Measurement, TaskSpec, select_unit, trim_sigfig  # noqa: F401
from .utils.compare import Colorize, Compare  # noqa: F401
from .utils.timer import Language, Timer  # noqa: F401
