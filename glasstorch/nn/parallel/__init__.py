"""torch.nn.parallel: DataParallel (on the CPU, the module itself) and
DistributedDataParallel (refused without a process group)."""
from .data_parallel import DataParallel, data_parallel  # noqa: F401
from .distributed import DistributedDataParallel  # noqa: F401


def _needs_accelerator(name: str, message: str, error: type = AssertionError):
    """A function of torch's that needs an accelerator, raising as torch does on the CPU."""
    def function(*args, **kwargs):
        raise error(message)
    function.__name__ = function.__qualname__ = name
    function.__doc__ = f"torch.nn.parallel.{name}: needs an accelerator; refused on the CPU."
    return function


replicate = _needs_accelerator("replicate", "Broadcast function not implemented for CPU tensors")
gather = _needs_accelerator("gather", "Gather function not implemented for CPU tensors")
scatter = _needs_accelerator("scatter", "Scatter function not implemented for CPU tensors")
parallel_apply = _needs_accelerator("parallel_apply",
                                    "Cannot access accelerator device when none is available.",
                                    RuntimeError)
