"""torch._dynamo.config: the compiler's settings, kept so that programs may set them.

glasstorch compiles nothing (Note [Compiling runs eagerly] in eval_frame.py), so no
setting changes what runs; each one still holds torch's default and takes a new value,
and a name torch does not have is refused as torch refuses it.
"""
import sys
import types

_DEFAULTS = {
    "suppress_errors": False,
    "verbose": False,
    "cache_size_limit": 8,
    "recompile_limit": 8,
    "accumulated_cache_size_limit": 256,
    "accumulated_recompile_limit": 256,
    "capture_scalar_outputs": False,
    "capture_dynamic_output_shape_ops": False,
    "automatic_dynamic_shapes": True,
    "assume_static_by_default": True,
    "optimize_ddp": True,
    "inline_inbuilt_nn_modules": True,
    "specialize_int": False,
    "specialize_float": False,
    "error_on_recompile": False,
    "guard_nn_modules": True,
    "force_parameter_static_shapes": True,
    "dynamic_shapes": True,
    "replay_record_enabled": False,
    "raise_on_ctx_manager_usage": True,
    "allow_rnn": False,
    "skip_nnmodule_hook_guards": True,
    "log_compilation_metrics": True,
    "compiled_autograd": False,
}


class _Config(types.ModuleType):
    """A module whose attributes are the settings: unknown names are refused both ways."""

    def __getattr__(self, name: str):
        raise AttributeError(f"torch._dynamo.config.{name} does not exist")

    def __setattr__(self, name: str, value) -> None:
        if name not in _DEFAULTS and not name.startswith("__"):
            raise AttributeError(f"torch._dynamo.config.{name} does not exist")
        super().__setattr__(name, value)


for _name, _value in _DEFAULTS.items():
    globals()[_name] = _value
sys.modules[__name__].__class__ = _Config
