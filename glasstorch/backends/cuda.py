"""torch.backends.cuda: cuBLAS, cuFFT and attention switches; kept, though no CUDA runs."""
from __future__ import annotations

import contextlib
import enum

from ..aten.context import GLOBAL_CONTEXT
from ..c10.device import NO_ATEN_CUDA, NOT_COMPILED as _REFUSALS

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
NOT_COMPILED = _REFUSALS["cuda"][1]
_SDP = GLOBAL_CONTEXT.sdp_enabled       # read by scaled_dot_product_attention's choice


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


class _LinalgBackend(int, enum.Enum):
    """The linear algebra library CUDA operators prefer."""

    Default = 0
    Cusolver = 1
    Magma = 2


class _BlasBackend(int, enum.Enum):
    """The BLAS library CUDA matrix products prefer."""

    Default = 0
    Cublas = 1
    Cublaslt = 2
    Ck = 3


class _ROCmFABackend(int, enum.Enum):
    """The flash attention library ROCm builds prefer."""

    Default = 0
    AOTriton = 1
    Ck = 2


class SDPBackend(int, enum.Enum):
    """The kernels scaled_dot_product_attention may choose from."""

    ERROR = -1
    MATH = 0
    FLASH_ATTENTION = 1
    EFFICIENT_ATTENTION = 2
    CUDNN_ATTENTION = 3
    OVERRIDEABLE = 4


_PREFERRED = {"linalg": _LinalgBackend.Default, "blas": _BlasBackend.Cublas,
              "rocm_fa": _ROCmFABackend.Default, "reduction_math_sdp": False}
_NOT_COMPILED_WITH = "Cannot set preferred backend to {0} if PyTorch has not been compiled with {0}."


def _prefer(kind: str, backend, choices: dict, missing: dict, names: str):
    """Set (when `backend` is given) and return the preferred library of `kind`."""
    if isinstance(backend, str):
        if backend in missing:
            raise RuntimeError(_NOT_COMPILED_WITH.format(missing[backend]))
        if backend not in choices:
            raise RuntimeError(f"Unknown input value. Choose from: {names}.")
        backend = choices[backend]
    if backend is not None:
        _PREFERRED[kind] = backend
    return _PREFERRED[kind]


def preferred_linalg_library(backend=None):
    """The linear algebra library CUDA operators prefer (setting it needs CUDA's)."""
    return _prefer("linalg", backend, {"default": _LinalgBackend.Default},
                   {"cusolver": "cuSOLVER", "magma": "MAGMA"}, "default, cusolver, magma")


def preferred_blas_library(backend=None):
    """The BLAS library CUDA matrix products prefer."""
    return _prefer("blas", backend, {"default": _BlasBackend.Cublas, "cublas": _BlasBackend.Cublas,
                                     "hipblas": _BlasBackend.Cublas, "ck": _BlasBackend.Ck},
                   {"cublaslt": "cuBLASLt", "hipblaslt": "cuBLASLt"},
                   "default, cublas, hipblas, cublaslt, hipblaslt, ck")


def preferred_rocm_fa_library(backend=None):
    """The flash attention library ROCm builds prefer."""
    return _prefer("rocm_fa", backend, {"default": _ROCmFABackend.Default}, {}, "default")


def allow_fp16_bf16_reduction_math_sdp(enabled: bool) -> None:
    """Let the math attention kernel reduce in float16/bfloat16."""
    _PREFERRED["reduction_math_sdp"] = enabled


def fp16_bf16_reduction_math_sdp_allowed() -> bool:
    """Whether the math attention kernel may reduce in float16/bfloat16."""
    return _PREFERRED["reduction_math_sdp"]


def is_ck_sdpa_available() -> bool:
    """Whether the CK attention kernels were built: no."""
    return False


class SDPAParams:
    """The arguments of a scaled_dot_product_attention call, for the `can_use_*` checks."""

    def __init__(self, query, key, value, attn_mask, dropout, is_causal, enable_gqa) -> None:
        self.query, self.key, self.value, self.attn_mask = query, key, value, attn_mask
        self.dropout, self.is_causal, self.enable_gqa = dropout, is_causal, enable_gqa


def _can_use(name: str, kernel: str):
    def can_use(params, debug: bool = False) -> bool:
        if not isinstance(params, SDPAParams):
            raise TypeError(f"_can_use_{kernel}_attention(): incompatible function arguments. "
                            f"The following argument types are supported:\n    1. (arg0: "
                            f"torch._C._SDPAParams, arg1: bool) -> bool")
        return False
    can_use.__name__ = can_use.__qualname__ = name
    can_use.__doc__ = f"Whether the {kernel} attention kernel could run these params: no CUDA."
    return can_use


can_use_flash_attention = _can_use("can_use_flash_attention", "flash")
can_use_efficient_attention = _can_use("can_use_efficient_attention", "mem_efficient")
can_use_cudnn_attention = _can_use("can_use_cudnn_attention", "cudnn")


def _workspace_size(name: str, binding: str):
    def size() -> int:
        raise AttributeError(f"module 'torch._C' has no attribute '{binding}'")
    size.__name__ = size.__qualname__ = name
    size.__doc__ = "The cuBLAS workspace size in bytes (a CUDA binding, absent here)."
    return size


cublas_workspace_size = _workspace_size("cublas_workspace_size", "_cuda_getCublasWorkspaceSize")
blas_workspace_size = _workspace_size("blas_workspace_size", "_cuda_getCublasWorkspaceSize")
cublaslt_workspace_size = _workspace_size("cublaslt_workspace_size",
                                          "_cuda_getCublasLtWorkspaceSize")


class cuFFTPlanCacheAttrContextProp:
    """An attribute of a cuFFT plan cache, read and set through CUDA (absent here)."""

    def __get__(self, obj, objtype=None):
        if obj is None:
            return self
        raise AssertionError(NOT_COMPILED)

    def __set__(self, obj, value) -> None:
        raise AssertionError(NOT_COMPILED)


class cuFFTPlanCache:
    """The cuFFT plan cache of one CUDA device."""

    size = cuFFTPlanCacheAttrContextProp()
    max_size = cuFFTPlanCacheAttrContextProp()

    def __init__(self, device_index: int) -> None:
        self.device_index = device_index

    def clear(self) -> None:
        """Empty the cache (needs CUDA's half of ATen)."""
        raise RuntimeError(NO_ATEN_CUDA.replace("initialize CUDA", "access cuFFT plan cache"))


class cuFFTPlanCacheManager:
    """`torch.backends.cuda.cufft_plan_cache`: the plan caches of the CUDA devices (none),
    indexed by device; its own attributes are the current device's."""

    def __getitem__(self, device):
        index = device if isinstance(device, int) else getattr(device, "index", device)
        raise RuntimeError(f"cufft_plan_cache: expected 0 <= device index < 0, but got device "
                           f"with index {index}")

    def __getattr__(self, name: str):
        raise AssertionError(NOT_COMPILED)

    def __setattr__(self, name: str, value) -> None:
        raise AssertionError(NOT_COMPILED)


cufft_plan_cache = cuFFTPlanCacheManager()
