"""Which GPU compute capabilities torch's CUDA builds ship code for, as data.

torch.cuda keeps two tables a CUDA build consults when it meets a device: for each
compute capability (CC, written as ``major * 10 + minor``) that code can be compiled
for, the device CCs able to run that code (`DEVICE_REQUIREMENT`); and for each CUDA
release of torch, the CCs its wheels were compiled for on each host architecture
(`PYTORCH_RELEASES_CODE_CC`). A CPU build never meets a device, but keeps the tables.
"""
from __future__ import annotations


def _version(cc: int) -> str:
    return f"{cc // 10}.{cc % 10}"


class _CompatInterval:
    """The CCs from `start` up to the end of its major version, less `exclude`."""

    def __init__(self, start: int, exclude: set | None = None) -> None:
        self.major, self.minor = divmod(start, 10)
        self.exclude = set(exclude or ())

    def __contains__(self, cc: int) -> bool:
        return cc not in self.exclude and cc // 10 == self.major and cc % 10 >= self.minor

    def __str__(self) -> str:
        text = f">={self.major}.{self.minor},<{self.major + 1}.0"
        if self.exclude:
            text += " except {" + ", ".join(map(_version, self.exclude)) + "}"
        return text


class _CompatSet:
    """An explicit set of CCs (the integrated GPUs, whose code runs nowhere else)."""

    def __init__(self, values: set) -> None:
        self.values = values

    def __contains__(self, cc: int) -> bool:
        return cc in self.values

    def __str__(self) -> str:
        return "{" + ", ".join(map(_version, self.values)) + "}"


# the CC of compiled code -> the device CCs that run it
DEVICE_REQUIREMENT: dict = {
    50: _CompatInterval(50, {53}), 52: _CompatInterval(52, {53}), 53: _CompatSet({53}),
    60: _CompatInterval(60, {62}), 61: _CompatInterval(61, {62}), 62: _CompatSet({62}),
    70: _CompatInterval(70, {72}), 72: _CompatSet({72}), 75: _CompatInterval(75),
    80: _CompatInterval(80, {87}), 86: _CompatInterval(86, {87}), 87: _CompatSet({87}),
    89: _CompatInterval(89), 90: _CompatInterval(90),
    100: _CompatInterval(100, {101}), 101: _CompatSet({101, 110}), 103: _CompatInterval(103),
    110: _CompatInterval(110), 120: _CompatInterval(120), 121: _CompatInterval(121),
}

# torch's CUDA release -> host architecture -> the CCs its wheels carry code for
_RECENT = {"x86_64": {75, 80, 86, 90, 100, 120}, "aarch64": {80, 90, 100, 110, 120}}
PYTORCH_RELEASES_CODE_CC: dict = {
    "12.6": {"x86_64": {50, 60, 70, 75, 80, 86, 90}, "aarch64": {80, 90}},
    "12.9": {"x86_64": {75, 80, 86, 90, 100, 120}, "aarch64": {80, 90, 100, 120}},
    "13.0": {arch: set(ccs) for arch, ccs in _RECENT.items()},
    "13.2": {arch: set(ccs) for arch, ccs in _RECENT.items()},
}


class _ClassProperty:
    def __init__(self, getter: classmethod) -> None:
        self.getter = getter

    def __get__(self, instance, owner=None):
        return self.getter.__get__(instance, type(instance) if owner is None else owner)()


def classproperty(function):
    """Decorator: a read-only property of the class itself (read on the class or on an
    instance), as torch.cuda's legacy storage classes define theirs."""
    if not isinstance(function, (classmethod, staticmethod)):
        function = classmethod(function)
    return _ClassProperty(function)
