"""The deprecated multi-tensor forms of the collectives, and torch.distributed.breakpoint."""
from __future__ import annotations

import pdb
from typing import Any

from . import c10d
from .c10d_types import ReduceOp
from .collectives import all_gather, all_gather_into_tensor, all_reduce, barrier
from .exchanges import reduce_scatter_tensor

all_gather_single = all_gather_into_tensor
reduce_scatter_single = reduce_scatter_tensor


def all_reduce_coalesced(tensors: list, op: Any = ReduceOp.SUM, group: Any = None,
                         async_op: bool = False) -> Any:
    """`all_reduce` of each tensor of `tensors` (in place); the last one's Work."""
    works = [all_reduce(tensor, op, group, async_op) for tensor in tensors]
    return works[-1] if works else None


def all_gather_coalesced(output_tensor_lists: list, input_tensor_list: list,
                         group: Any = None, async_op: bool = False) -> Any:
    """`all_gather` of each input tensor into the matching output list."""
    outputs = [[lst[i] for lst in output_tensor_lists] for i in range(len(input_tensor_list))]
    works = [all_gather(out, tensor, group, async_op)
             for out, tensor in zip(outputs, input_tensor_list)]
    return works[-1] if works else None


def breakpoint(rank: int = 0, skip: int = 0, timeout_s: int = 3600) -> None:
    """Stop rank `rank` in the debugger while the other ranks wait at a barrier."""
    c10d._get_default_group()
    if c10d.get_rank() == rank:
        pdb.set_trace()
    barrier()
