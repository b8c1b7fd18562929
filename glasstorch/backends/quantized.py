"""torch.backends.quantized: the engine quantized operators would run on."""
from __future__ import annotations

import sys

from . import FlagModule

supported_engines = ["qnnpack", "onednn", "x86", "fbgemm"]


class _QuantizedModule(FlagModule):
    """The module, with `engine` checked against the supported engines."""

    def __setattr__(self, name: str, value) -> None:
        if name == "engine" and value not in supported_engines:
            raise RuntimeError(f"{value} is not a valid value for quantized engine")
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _QuantizedModule
engine = "x86"
