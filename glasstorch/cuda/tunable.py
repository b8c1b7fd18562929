"""torch.cuda.tunable: TunableOp's settings; each is a compiled binding this build lacks."""
from __future__ import annotations

from ._unavailable import missing_binding

__all__ = ["enable", "is_enabled", "tuning_enable", "tuning_is_enabled",
           "record_untuned_enable", "record_untuned_is_enabled", "set_max_tuning_duration",
           "get_max_tuning_duration", "set_max_tuning_iterations", "get_max_tuning_iterations",
           "set_filename", "get_filename", "get_results", "get_validators", "read_file",
           "tune_gemm_in_file", "mgpu_tune_gemm_in_file", "set_rotating_buffer_size",
           "get_rotating_buffer_size", "set_numerical_check_tolerances"]


def _setting(name: str):
    def setting(*args, **kwargs):
        raise missing_binding(f"_cuda_tunableop_{name}")
    setting.__name__ = setting.__qualname__ = name
    setting.__doc__ = f"TunableOp's `{name}` (a CUDA binding, absent here)."
    return setting


enable = _setting("enable")
is_enabled = _setting("is_enabled")
tuning_enable = _setting("tuning_enable")
tuning_is_enabled = _setting("tuning_is_enabled")
record_untuned_enable = _setting("record_untuned_enable")
record_untuned_is_enabled = _setting("record_untuned_is_enabled")
set_max_tuning_duration = _setting("set_max_tuning_duration")
get_max_tuning_duration = _setting("get_max_tuning_duration")
set_max_tuning_iterations = _setting("set_max_tuning_iterations")
get_max_tuning_iterations = _setting("get_max_tuning_iterations")
set_filename = _setting("set_filename")
get_filename = _setting("get_filename")
get_results = _setting("get_results")
get_validators = _setting("get_validators")
read_file = _setting("read_file")
tune_gemm_in_file = _setting("tune_gemm_in_file")
mgpu_tune_gemm_in_file = _setting("mgpu_tune_gemm_in_file")
set_rotating_buffer_size = _setting("set_rotating_buffer_size")
get_rotating_buffer_size = _setting("get_rotating_buffer_size")
set_numerical_check_tolerances = _setting("set_numerical_check_tolerances")
