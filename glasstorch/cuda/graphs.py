"""torch.cuda.graphs, without CUDA: capture needs a CUDA stream, so everything refuses."""
from __future__ import annotations

from ._unavailable import DummyBase, dummy_class

__all__ = ["is_current_stream_capturing", "graph_pool_handle", "CUDAGraph", "graph",
           "make_graphed_callables"]


def is_current_stream_capturing() -> bool:
    """Whether the current CUDA stream is capturing a graph (the binding is a placeholder)."""
    raise dummy_class("_cuda_isCurrentStreamCapturing")


def graph_pool_handle():
    """A handle to a memory pool graphs may share (the binding is a placeholder)."""
    raise dummy_class("_graph_pool_handle")


class CUDAGraph(DummyBase):
    """A captured CUDA graph, replayable as one launch."""


class graph:
    """A context capturing the CUDA work inside it into a `CUDAGraph`."""

    def __init__(self, cuda_graph, pool=None, stream=None, capture_error_mode: str = "global"):
        from .streams import Stream
        Stream()


def make_graphed_callables(callables, sample_args, num_warmup_iters: int = 3,
                           allow_unused_input: bool = False, pool=None):
    """Graphed versions of callables (modules or functions), captured with `graph`."""
    CUDAGraph()
