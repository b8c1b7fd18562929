"""torch.cuda.comm: the GPU collectives of `torch.nn.parallel.comm`, under their old home."""
import glasstorch as _torch

_comm = _torch.nn.parallel.comm
broadcast, broadcast_coalesced, gather = _comm.broadcast, _comm.broadcast_coalesced, _comm.gather
reduce_add, reduce_add_coalesced, scatter = (_comm.reduce_add, _comm.reduce_add_coalesced,
                                             _comm.scatter)

__all__ = ["broadcast", "broadcast_coalesced", "reduce_add", "reduce_add_coalesced", "scatter",
           "gather"]
