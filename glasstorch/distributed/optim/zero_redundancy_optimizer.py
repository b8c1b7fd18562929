"""ZeroRedundancyOptimizer: each rank keeps the optimizer state of its share of the
parameters only, steps that share, and broadcasts the updated share to the others."""
from __future__ import annotations

from typing import Any, Callable

import glasstorch as torch
from glasstorch import distributed as dist
from glasstorch.optim import Optimizer


class ZeroRedundancyOptimizer(Optimizer):
    """Wrap `optimizer_class` so that its state is sharded across the ranks of
    `process_group`: rank k steps only the parameters assigned to it (the assignment
    balances their sizes) and then sends them to every rank.

    Args:
        params: the parameters (a list of tensors) every rank passes alike.
        optimizer_class (type): the local optimizer, e.g. ``torch.optim.Adam``.
        process_group (ProcessGroup, optional): the ranks sharing the state.
        parameters_as_bucket_view (bool): accepted, as torch has it.
        overlap_with_ddp (bool): only False is supported.
        **defaults: the local optimizer's arguments (``lr=...``).

    Example::

        >>> optimizer = ZeroRedundancyOptimizer(model.parameters(), torch.optim.Adam, lr=1e-3)
        >>> loss.backward(); optimizer.step()
    """

    def __init__(self, params: Any, optimizer_class: type, process_group: Any = None,
                 parameters_as_bucket_view: bool = False, overlap_with_ddp: bool = False,
                 **defaults: Any) -> None:
        parameters = list(params)
        if overlap_with_ddp:
            raise ValueError("overlap_with_ddp=True is not supported by glasstorch")
        self.process_group = process_group or dist.group.WORLD
        self.global_rank = dist.get_rank()
        self.world_size = dist.get_world_size(self.process_group)
        self.rank = dist.get_rank(self.process_group)
        self._owner = _partition(parameters, self.world_size)
        self._all_params = parameters
        super().__init__(parameters, defaults)
        mine = [p for p in parameters if self._owner[id(p)] == self.rank]
        self.optim = optimizer_class(mine or [torch.zeros(0, requires_grad=True)], **defaults)
        self._optimizer_class = optimizer_class

    def step(self, closure: Callable | None = None) -> Any:
        """Step this rank's share, then broadcast every share from its owner."""
        loss = self.optim.step(closure)
        ranks = dist.get_process_group_ranks(self.process_group)
        with torch.no_grad():
            for parameter in self._all_params:
                dist.broadcast(parameter.detach(), ranks[self._owner[id(parameter)]],
                               group=self.process_group)
        return loss

    def consolidate_state_dict(self, to: int = 0) -> None:
        """Gather every rank's optimizer state at rank `to` (for `state_dict`)."""
        shards: list = [None] * self.world_size if self.global_rank == to else None
        dist.gather_object(self.optim.state_dict(), shards, dst=to, group=self.process_group)
        self._shards = shards

    def state_dict(self) -> dict:
        """The consolidated state: every rank's local optimizer state, in rank order."""
        if getattr(self, "_shards", None) is None:
            raise RuntimeError("Optimizer state has not been consolidated on this rank. "
                               "Please call `consolidate_state_dict(to=0)` on all ranks "
                               "beforehand and call `state_dict()` only on the rank the "
                               "state was consolidated to.")
        return {"shards": self._shards}


def _partition(parameters: list, world_size: int) -> dict:
    """Owner rank of each parameter: largest first, to the least loaded rank."""
    loads, owner = [0] * world_size, {}
    for parameter in sorted(parameters, key=lambda p: -p.numel()):
        rank = loads.index(min(loads))
        owner[id(parameter)] = rank
        loads[rank] += parameter.numel()
    return owner
