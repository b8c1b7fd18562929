"""`torch.device`: where a tensor's storage lives, plus the default-device context, and
what glasstorch knows of each device type, as data (`DEVICE_TYPES`)."""
from __future__ import annotations

import threading
from collections import namedtuple

from . import dtype as dtypes

# Every device type torch's device strings name (its c10::DeviceType), in its order.
_KNOWN_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia",
                "privateuseone")


class device:
    """A device type with an optional index, e.g. `device('cpu')`, `device('cuda', 1)`.

    Args:
        type: a device string such as ``'cpu'``, ``'meta'`` or ``'cpu:0'``, or a device.
        index: the device ordinal, when `type` carries none.

    Example::

        >>> torch.device('cpu:0')
        device(type='cpu', index=0)

    Used as a context manager, a device becomes the default for factory functions.
    """

    __slots__ = ("type", "index")

    def __new__(cls, type, index=None):
        if isinstance(type, device):
            if index is not None:
                raise TypeError("device(): argument 'type' must be str, not torch.device")
            return type
        if isinstance(type, int) and not isinstance(type, bool) and index is None:
            # A bare ordinal means "the accelerator with this index"; there is none here.
            raise RuntimeError("Cannot access accelerator device when none is available.")
        if not isinstance(type, str):
            raise TypeError(f"device() received an invalid combination of arguments - got "
                            f"({_type_name(type)}), but expected one of:\n"
                            " * (torch.device device)\n * (str type, int index = -1)\n")
        name, _, ordinal = type.partition(":")
        if ordinal:
            if index is not None:
                raise RuntimeError(f"type (string) must not include an index because index "
                                   f"was passed explicitly: {type}")
            if not ordinal.isdigit():
                raise RuntimeError(f"Invalid device string: '{type}'")
            index = int(ordinal)
        if name != name.strip():
            raise RuntimeError(f"Invalid device string: '{type}'")
        if name not in _KNOWN_TYPES:
            raise RuntimeError(
                "Expected one of cpu, cuda, ipu, xpu, mkldnn, opengl, opencl, ideep, hip, ve, "
                "fpga, maia, xla, lazy, vulkan, mps, meta, hpu, mtia, privateuseone device "
                f"type at start of device string: {type}")
        if index is not None and index < 0:
            raise RuntimeError(f"Device index must not be negative")
        self = object.__new__(cls)
        self.type = name
        self.index = index
        return self

    def __repr__(self) -> str:
        if self.index is None:
            return f"device(type='{self.type}')"
        return f"device(type='{self.type}', index={self.index})"

    def __str__(self) -> str:
        return self.type if self.index is None else f"{self.type}:{self.index}"

    def __eq__(self, other) -> bool:
        if not isinstance(other, device):      # torch compares devices only with devices
            return NotImplemented
        return self.type == other.type and self.index == other.index

    def __hash__(self) -> int:
        return hash((self.type, self.index))

    def __reduce__(self):
        return (device, (self.type,) if self.index is None else (self.type, self.index))

    def __enter__(self) -> "device":
        _default.stack.append(_default.device)
        _default.device = self
        return self

    def __exit__(self, *exc) -> None:
        _default.device = _default.stack.pop()


def _type_name(value) -> str:
    return type(value).__name__


class _DefaultDevice(threading.local):
    """The default device of this thread, and the ones `with device(...)` blocks replaced."""

    def __init__(self) -> None:
        self.device = None
        self.stack = []


_default = _DefaultDevice()
CPU = device("cpu")
META = device("meta")


def get_default_device() -> device:
    """The device factories use when none is given (`cpu` unless changed)."""
    return _default.device or CPU


def set_default_device(value) -> None:
    """Make `value` (a device, a string, or None for cpu) the factories' default."""
    _default.device = None if value is None else as_device(value)


def as_device(value) -> device:
    """Turn a device-like argument (device, str, int) into a `device`."""
    if type(value) is device:
        return value
    return device(value)


_DEVICE_TYPE_FIELDS = "backend legacy_module legacy_dtypes holds_data host"


class DeviceType(namedtuple("DeviceType", _DEVICE_TYPE_FIELDS)):
    """What the operators need to know of a device type: data, so that code never asks
    for a device by name and a new device is one row of `DEVICE_TYPES`.

    Attributes:
        backend: ATen's name of its backend, in type strings (``CPUBoolType``).
        legacy_module: the module of torch's legacy tensor types (``torch.FloatTensor``).
        legacy_dtypes: the dtypes whose ATen type string is that legacy name.
        holds_data: its storages hold elements (a meta storage holds only a size).
        host: it is the CPU, where Python reads values (`tensor_split`'s indices).
    """

    __slots__ = ()


_LEGACY_DTYPES = (dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
                  dtypes.float16, dtypes.float32, dtypes.float64)
DEVICE_TYPES = {
    "cpu": DeviceType("CPU", "torch", _LEGACY_DTYPES, holds_data=True, host=True),
    "meta": DeviceType("Meta", "torch.meta", (), holds_data=False, host=False),
}


def device_type(value: device) -> DeviceType:
    """The `DeviceType` row of a device."""
    return DEVICE_TYPES[value.type]


# Note [Devices this build lacks]
# A CPU-only torch knows every device type by name but runs only `cpu` and `meta`. How
# it refuses the others depends on the type. Where the device has a Python module that
# initialises it lazily (cuda, xpu, mtia, and the hpu / privateuseone modules a plug-in
# would provide), the argument parser runs that initialisation as soon as a factory or
# `to` meets the device, and the module's refusal is the error (`NOT_COMPILED`). The
# others reach the dispatcher: a factory finds no kernel for the device's backend
# (`NotImplementedError`, naming the operator and `BACKEND_NAMES`' entry), a copy to the
# device finds no device guard (`not_linked`).
_MTIA_HINT = ("Torch not compiled with MTIA enabled. Ensure you have `import "
              "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and "
              "include `//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!")
NOT_COMPILED = {
    "cuda": (AssertionError, "Torch not compiled with CUDA enabled"),
    "xpu": (AssertionError, "Torch not compiled with XPU enabled"),
    "mtia": (AssertionError, _MTIA_HINT),
    "hpu": (ModuleNotFoundError, "No module named 'torch.hpu'"),
    "privateuseone": (ModuleNotFoundError, "No module named 'torch.privateuseone'"),
}
# What a CPU-only build says when asked for CUDA's half of ATen (a CUDA legacy type,
# memory pinned for CUDA).
NO_ATEN_CUDA = (
    "Cannot initialize CUDA without ATen_cuda library. PyTorch splits its backend into two "
    "shared libraries: a CPU library and a CUDA library; this error has occurred because you "
    "are trying to use some CUDA functionality, but the CUDA library has not been loaded by "
    "the dynamic linker for some reason.  The CUDA library MUST be loaded, EVEN IF you don't "
    "directly use any symbols from the CUDA library! One common culprit is a lack of "
    "-Wl,--no-as-needed in your link arguments; many dynamic linkers will delete dynamic "
    "library dependencies if you don't depend on any of their symbols.  You can check if "
    "this has occurred by using ldd on your binary to see if there is a dependency on "
    "*_cuda.so library.")
BACKEND_NAMES = {"mps": "MPS", "ipu": "IPU", "xla": "XLA", "vulkan": "Vulkan", "maia": "MAIA",
                 "hip": "HIP", "ve": "VE", "fpga": "FPGA", "lazy": "Lazy"}


def lazy_init_device(value) -> None:
    """Refuse a device with a lazily initialised module this build lacks, as torch's
    argument parser does when it meets one (Note [Devices this build lacks])."""
    refusal = NOT_COMPILED.get(value.type)
    if refusal is not None:
        raise refusal[0](refusal[1])


def not_linked(value) -> RuntimeError:
    """The error of a copy to a device type this build has no guard for."""
    return RuntimeError(f"PyTorch is not linked with support for {value.type} devices")


def check_copy_target(value) -> None:
    """Refuse a copy to a device this build lacks (`Tensor.to`, `torch.tensor`)."""
    lazy_init_device(value)
    if value.type not in DEVICE_TYPES:
        raise not_linked(value)
