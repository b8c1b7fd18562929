"""torch.backends.cuda: cuBLAS, cuFFT and attention switches; kept, though no CUDA runs."""
from __future__ import annotations

import contextlib

_MATMUL_FLAGS = {"allow_tf32": False, "allow_fp16_reduced_precision_reduction": True,
                 "allow_bf16_reduced_precision_reduction": True,
                 "allow_fp16_accumulation": False, "fp32_precision": "none"}


class cuBLASModule:
    """`torch.backends.cuda.matmul`: cuBLAS's switches (``matmul.allow_tf32 = True``)."""

    def __init__(self) -> None:
        object.__setattr__(self, "_flags", dict(_MATMUL_FLAGS))

    def __getattr__(self, name: str):
        flags = object.__getattribute__(self, "_flags")
        if name not in flags:
            raise AttributeError(f"Unknown attribute {name}")
        return flags[name]

    def __setattr__(self, name: str, value) -> None:
        if name not in self._flags:
            raise AttributeError(f"Unknown attribute {name}")
        self._flags[name] = value
        if name == "allow_tf32":
            self._flags["fp32_precision"] = "tf32" if value else "ieee"


matmul = cuBLASModule()
_SDP = {"flash": True, "mem_efficient": True, "math": True, "cudnn": True}


def is_built() -> bool:
    """Whether this torch was built with CUDA: no."""
    return False


def _sdp_switch(kind: str):
    def enabled() -> bool:
        return _SDP[kind]

    def enable(enabled: bool) -> None:
        _SDP[kind] = enabled
    enabled.__name__ = f"{kind}_sdp_enabled"
    enable.__name__ = f"enable_{kind}_sdp"
    enabled.__doc__ = f"Whether scaled_dot_product_attention may use its {kind} kernel."
    enable.__doc__ = f"Allow or forbid scaled_dot_product_attention's {kind} kernel."
    return enabled, enable


flash_sdp_enabled, enable_flash_sdp = _sdp_switch("flash")
mem_efficient_sdp_enabled, enable_mem_efficient_sdp = _sdp_switch("mem_efficient")
math_sdp_enabled, enable_math_sdp = _sdp_switch("math")
cudnn_sdp_enabled, enable_cudnn_sdp = _sdp_switch("cudnn")


def is_flash_attention_available() -> bool:
    """Whether the flash attention kernel was built: no."""
    return False


@contextlib.contextmanager
def sdp_kernel(enable_flash: bool = True, enable_math: bool = True,
               enable_mem_efficient: bool = True, enable_cudnn: bool = True):
    """A context choosing the attention kernels allowed inside (deprecated in torch)."""
    saved = dict(_SDP)
    _SDP.update(flash=enable_flash, math=enable_math, mem_efficient=enable_mem_efficient,
                cudnn=enable_cudnn)
    try:
        yield
    finally:
        _SDP.update(saved)
