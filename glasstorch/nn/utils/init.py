"""torch.nn.utils.init: `skip_init`, a module built without running its initialization."""
from __future__ import annotations

import inspect

from ..modules.module import Module


def skip_init(module_cls: type, *args, **kwargs) -> Module:
    """Build ``module_cls(*args, **kwargs)`` with uninitialized parameters and buffers:
    the module is made on the meta device (no data, no initialization run) and then
    given empty storage on its device.

    Args:
        module_cls (type): a Module class whose constructor takes ``device``.
        args, kwargs: its constructor's arguments (``device`` defaults to ``"cpu"``).

    Returns:
        Module: the module, its tensors' values undefined.

    Example::

        >>> m = skip_init(nn.Linear, 5, 1)
        >>> m.weight.shape
        torch.Size([1, 5])
    """
    if not (isinstance(module_cls, type) and issubclass(module_cls, Module)):
        raise RuntimeError(f"Expected a Module; got {module_cls}")
    if "device" not in inspect.signature(module_cls).parameters:
        raise RuntimeError("Module must support a 'device' arg to skip initialization")
    device = kwargs.pop("device", "cpu")
    kwargs["device"] = "meta"
    return module_cls(*args, **kwargs).to_empty(device=device)
