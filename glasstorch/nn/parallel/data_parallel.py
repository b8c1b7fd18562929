"""DataParallel on a machine without accelerators: the module runs as it is.

torch's DataParallel splits a batch over GPUs; with none (glasstorch's only device is
the CPU) torch keeps the module, sets ``device_ids`` to ``[]`` and its forward calls
the module directly. State dict keys gain the ``module.`` prefix of the submodule.
"""
from __future__ import annotations

from typing import Any, Sequence

from ..modules.module import Module


class DataParallel(Module):
    """Run `module` in parallel over devices' slices of the batch; on the CPU, directly.

    Args:
        module (Module): the module to run.
        device_ids (list, optional): the devices (ignored without accelerators).
        output_device (int or device, optional): where outputs gather (ignored likewise).
        dim (int): the batch dimension to split. Default: 0

    Example::

        >>> model = torch.nn.DataParallel(torch.nn.Linear(2, 3))
        >>> model(torch.ones(4, 2)).shape
        torch.Size([4, 3])
    """

    def __init__(self, module: Module, device_ids: Sequence | None = None,
                 output_device: Any = None, dim: int = 0) -> None:
        super().__init__()
        self.module = module
        self.device_ids: list = []      # no accelerator: torch stops here, as this does

    def forward(self, *inputs: Any, **kwargs: Any) -> Any:
        return self.module(*inputs, **kwargs)


def data_parallel(module: Module, inputs: Any, device_ids: Sequence | None = None,
                  output_device: Any = None, dim: int = 0, module_kwargs: Any = None) -> Any:
    """Run `module` over `inputs` split across devices: refused without an accelerator."""
    raise RuntimeError("device type could not be determined")
