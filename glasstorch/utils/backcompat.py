"""torch.utils.backcompat: switches for warnings about behaviours that changed long ago
(broadcasting, keepdim); both off, and glasstorch never emits them."""


class Warning:
    """An on/off switch, read and set as ``.enabled``."""

    def __init__(self, setter, getter) -> None:
        self.setter, self.getter = setter, getter

    def set_enabled(self, value: bool) -> None:
        self.setter(value)

    def get_enabled(self) -> bool:
        return self.getter()

    enabled = property(get_enabled, set_enabled)


_flags = {"broadcast": False, "keepdim": False}


def _switch(name: str) -> Warning:
    return Warning(lambda value: _flags.__setitem__(name, bool(value)), lambda: _flags[name])


broadcast_warning = _switch("broadcast")
keepdim_warning = _switch("keepdim")
