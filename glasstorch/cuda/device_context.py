"""torch.cuda.device and device_of: contexts making a CUDA device current (none here),
and how torch.cuda reads a device argument as an ordinal."""
from __future__ import annotations

from ..c10.device import device as _device


def _device_index(value, optional: bool = False):
    """The ordinal a device argument names, as torch.cuda reads it; None when `optional`
    and it names none."""
    given = _device(value) if isinstance(value, str) else value
    index = given
    if isinstance(given, _device):
        if given.type != "cuda":
            raise ValueError(f"Expected a cuda device, but got: {given}")
        index = given.index
    elif isinstance(given, device):
        return given.idx
    if index is None and not optional:
        raise ValueError("Expected a torch.device with a specified index or an integer, but "
                         f"got:{given}")
    return index


def _exchange_device(index) -> int:
    if index < 0:
        return -1
    raise RuntimeError("PyTorch was compiled without CUDA support")


class device:
    """A context manager making a CUDA device the current one.

    Args:
        device (torch.device or int): the device; a negative index does nothing.
    """

    def __init__(self, device) -> None:
        self.idx = _device_index(device, optional=True)
        self.prev_idx = -1

    def __enter__(self) -> None:
        self.prev_idx = _exchange_device(self.idx)

    def __exit__(self, *exc) -> bool:
        self.idx = _exchange_device(self.prev_idx)
        return False


class device_of(device):
    """The `device` context of a tensor's device (a CPU tensor: nothing changes)."""

    def __init__(self, obj) -> None:
        super().__init__(obj.get_device() if obj.is_cuda else -1)
