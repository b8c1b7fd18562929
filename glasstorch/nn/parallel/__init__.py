"""torch.nn.parallel: DataParallel (on the CPU, the module itself),
DistributedDataParallel (gradients averaged across processes, over torch.distributed),
and the multi-GPU pieces DataParallel is made of (`scatter`, `gather`, `replicate`,
`parallel_apply`, `comm`), which check their arguments and refuse tensors as torch's CPU
build does."""
from .data_parallel import DataParallel, data_parallel  # noqa: F401
from .distributed import DistributedDataParallel  # noqa: F401
from . import comm  # noqa: F401
from .parallel_apply import parallel_apply  # noqa: F401
from .replicate import replicate  # noqa: F401
from .scatter_gather import gather, scatter  # noqa: F401
