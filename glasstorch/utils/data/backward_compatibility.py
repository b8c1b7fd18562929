"""torch.utils.data.backward_compatibility: a deprecated no-op kept for old programs."""
import warnings


def worker_init_fn(worker_id: int) -> None:
    """Deprecated, does nothing: DataLoader shards DataPipes in every worker itself.

    Args:
        worker_id (int): the worker's id (unused).
    """
    warnings.warn("Usage of `backward_compatibility.worker_init_fn` is deprecated as "
                  "`DataLoader` automatically applies sharding in every worker",
                  FutureWarning, stacklevel=2)
