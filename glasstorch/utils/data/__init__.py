"""torch.utils.data: datasets, samplers, collation and the DataLoader.

    dataset.py      Dataset, IterableDataset and the ways to combine and split them
    sampler.py      the orders a loader visits indices in (torch's random draws)
    distributed.py  DistributedSampler
    dataloader.py   DataLoader
    _utils/         collation, fetching, the single-process and worker-process passes
"""
from . import _utils, datapipes, graph, graph_settings  # noqa: F401
from ._datapipes import (  # noqa: F401
    DataChunk, DFIterDataPipe, IterDataPipe, MapDataPipe, argument_validation,
    functional_datapipe, guaranteed_datapipes_determinism, non_deterministic,
    runtime_validation, runtime_validation_disabled)
from ._utils.loader_iter import _DatasetKind  # noqa: F401
from .dataloader import DataLoader, default_collate, default_convert, get_worker_info  # noqa: F401
from .dataset import (  # noqa: F401
    ChainDataset, ConcatDataset, Dataset, IterableDataset, StackDataset, Subset, TensorDataset,
    random_split)
from .distributed import DistributedSampler  # noqa: F401
from .sampler import (  # noqa: F401
    BatchSampler, RandomSampler, Sampler, SequentialSampler, SubsetRandomSampler,
    WeightedRandomSampler)

__all__ = ["BatchSampler", "ChainDataset", "ConcatDataset", "DFIterDataPipe", "DataChunk",
           "DataLoader", "Dataset", "DistributedSampler", "IterDataPipe", "IterableDataset",
           "MapDataPipe", "RandomSampler", "Sampler", "SequentialSampler", "StackDataset",
           "Subset", "SubsetRandomSampler", "TensorDataset", "WeightedRandomSampler",
           "_DatasetKind", "argument_validation", "default_collate", "default_convert",
           "functional_datapipe", "get_worker_info", "guaranteed_datapipes_determinism",
           "non_deterministic", "random_split", "runtime_validation",
           "runtime_validation_disabled"]
