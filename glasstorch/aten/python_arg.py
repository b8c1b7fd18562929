"""Python values -> schema types: the converters the generated bindings call.

Each converter takes a value and the `Param` it is bound to, and returns the value
as the schema type wants it (a Python int for `int`, a tuple for `int[]`, a dtype
for `ScalarType`, ...), or raises `Mismatch` saying what was wrong, in the words of
torch's PythonArgParser ("argument 'dim' (position 2) must be int, not str"). Also
here: `apply_requires_grad`, the factories' Python-only ``requires_grad=`` keyword.
"""
from __future__ import annotations

import numbers

import numpy as np

from ..c10 import dtype as dtypes
from ..c10 import layout as layouts
from ..c10.device import device as Device, lazy_init_device
from ..c10.generator import Generator
from ..c10.layout import layout as Layout, memory_format as MemoryFormat
from ..c10.tensor_impl import TensorBase


# Note [NumPy argument names]
#     torch's argument parser lets NumPy's spelling of four parameter names stand for
#     torch's, in every function and method it binds: ``axis=`` for `dim`, ``keepdims=``
#     for `keepdim`, ``x=``, ``a=`` or ``x1=`` for `input`, ``x2=`` for `other`
#     (``torch.sum(a=t, axis=0, keepdims=True)``). A NumPy name is used only when the
#     parameter has no value yet and its own name was not given; otherwise it is an
#     unexpected keyword. `torch.ops.aten` binds schema names only, and so does
#     glasstorch. Only keyword calls pay for the look-up (binding.py).
NUMPY_NAMES = {"axis": "dim", "keepdims": "keepdim", "x": "input", "a": "input",
               "x1": "input", "x2": "other"}
NUMPY_NAMED = frozenset(NUMPY_NAMES.values())    # the parameters that have NumPy names


class Mismatch(Exception):
    """A signature does not accept the call; carries what to say if none does: the
    message, or the parameter and the value it refused (``Mismatch(param, value)``),
    worded only if asked for: trying one overload and failing is a common step of
    choosing between several (``x.clamp(0, 1)`` is not the Tensor overload)."""

    @property
    def message(self) -> str:
        if len(self.args) == 1:
            return self.args[0]
        param, value = self.args
        return (f"argument '{param.name}' (position {param.position + 1}) must be "
                f"{param.type_text}, not {_describe(value)}")

    def __str__(self) -> str:
        return self.message


# ----------------------------------------------------------------------------------
# Converters: value -> schema type, or Mismatch
# ----------------------------------------------------------------------------------
def _describe(value) -> str:
    if isinstance(value, TensorBase):
        return "Tensor"
    if isinstance(value, (tuple, list)):
        inner = ", ".join(_describe(v) for v in value)
        return f"{type(value).__name__} of [{inner}]" if value else type(value).__name__
    return type(value).__name__


def _fail(param, value):
    raise Mismatch(param, value)


def to_int(value, param):
    if isinstance(value, bool) or isinstance(value, np.bool_):
        _fail(param, value)
    if isinstance(value, int):
        return int(value)
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, TensorBase) and value.dim() == 0 and not value.is_floating_point() \
            and not value.is_complex() and value.dtype is not dtypes.bool:
        return int(value.item())
    _fail(param, value)


def to_int_list(value, param):
    if type(value) is tuple:
        for v in value:
            if type(v) is not int:
                break
        else:
            return value
    if isinstance(value, (tuple, list)):
        try:
            return tuple(v if type(v) is int else to_int(v, param) for v in value)
        except Mismatch:
            _fail(param, value)
    if param.type.size is not None and not isinstance(value, (bool, np.bool_)) and (
            isinstance(value, (int, np.integer)) or isinstance(value, TensorBase)):
        return (to_int(value, param),) * param.type.size
    _fail(param, value)


def to_float(value, param):
    if isinstance(value, (float, int, np.floating, np.integer)) and not isinstance(value, np.bool_):
        return float(value)
    if isinstance(value, TensorBase) and value.dim() == 0:
        return float(value.item())
    _fail(param, value)


def to_float_list(value, param):
    if isinstance(value, (tuple, list)):
        return tuple(to_float(v, param) for v in value)
    if param.type.size is not None:
        return (to_float(value, param),) * param.type.size
    _fail(param, value)


def to_bool(value, param):
    if isinstance(value, (bool, np.bool_)):
        return bool(value)
    if isinstance(value, TensorBase) and value.dim() == 0 and value.dtype is dtypes.bool:
        return bool(value.item())
    _fail(param, value)


def to_scalar(value, param):
    if isinstance(value, (bool, int, float, complex)):
        return value
    if isinstance(value, np.generic) and isinstance(value, (numbers.Number, np.bool_)):
        # torch reads NumPy integers as int and every other NumPy scalar (numpy.bool_
        # too) through float(): Note [NumPy scalars in promotion]
        return int(value) if isinstance(value, np.integer) else float(value)
    if isinstance(value, TensorBase) and value.numel() == 1 and value.dim() == 0:
        return value.item()
    _fail(param, value)


def to_scalar_list(value, param):
    """A Scalar[] argument: a sequence of numbers. Tensors (even 0-dim ones) are left
    to a Tensor[] overload, as torch's parser does (``torch.gradient(x, spacing=(t,))``)."""
    if isinstance(value, (tuple, list)) and not any(isinstance(v, TensorBase) for v in value):
        try:
            return [to_scalar(v, param) for v in value]
        except Mismatch:
            pass
    _fail(param, value)


def to_tensor(value, param):
    if isinstance(value, TensorBase):
        return value
    _fail(param, value)


def to_tensor_or_number(value, param):
    """A Tensor argument of an elementwise operator: a tensor, or a number standing for one."""
    if isinstance(value, TensorBase):
        return value
    if isinstance(value, (bool, int, float, complex)) or (
            isinstance(value, np.generic) and isinstance(value, (numbers.Number, np.bool_))):
        return value
    _fail(param, value)


def to_tensor_list(value, param):
    if isinstance(value, (tuple, list)) and all(isinstance(v, TensorBase) or
                                                 (v is None and param.type.element_optional)
                                                 for v in value):
        return list(value)
    _fail(param, value)


_PYTHON_TYPE_DTYPES = {float: dtypes.float64, int: dtypes.int64, bool: dtypes.bool,
                       complex: dtypes.complex128}


def to_dtype(value, param):
    if type(value) is dtypes.dtype:
        return value
    if value in _PYTHON_TYPE_DTYPES:
        return _PYTHON_TYPE_DTYPES[value]
    _fail(param, value)


def to_device(value, param):
    if type(value) is not Device:
        if not isinstance(value, (str, int)) or isinstance(value, bool):
            _fail(param, value)
        value = Device(value) if isinstance(value, str) else Device("cpu") if value >= 0 \
            else Device(value)
    lazy_init_device(value)         # Note [Devices this build lacks]
    return value


def to_layout(value, param):
    if type(value) is Layout:
        return value
    _fail(param, value)


def to_memory_format(value, param):
    if type(value) is MemoryFormat:
        return value
    _fail(param, value)


def to_str(value, param):
    if isinstance(value, str):
        return value
    _fail(param, value)


def to_any(value, param):
    return value


def to_generator(value, param):
    if isinstance(value, Generator):
        return value
    _fail(param, value)


_CONVERTERS = {
    "Tensor": to_tensor, "int": to_int, "SymInt": to_int, "float": to_float,
    "SymFloat": to_float, "bool": to_bool, "SymBool": to_bool, "Scalar": to_scalar,
    "ScalarType": to_dtype, "Device": to_device, "Layout": to_layout,
    "MemoryFormat": to_memory_format, "str": to_str, "Dimname": to_str,
    "Generator": to_generator, "complex": to_scalar,
}
_LIST_CONVERTERS = {"int": to_int_list, "SymInt": to_int_list, "Tensor": to_tensor_list,
                    "float": to_float_list, "Dimname": to_any, "Scalar": to_scalar_list,
                    "bool": to_any}
_TYPE_TEXT = {"Tensor": "Tensor", "int": "int", "SymInt": "int", "float": "float",
              "bool": "bool", "Scalar": "Number", "ScalarType": "torch.dtype",
              "Device": "torch.device", "Layout": "torch.layout",
              "MemoryFormat": "torch.memory_format", "str": "str", "Generator":
              "torch.Generator", "Dimname": "name", "SymFloat": "float", "complex": "complex"}
_SYMBOLIC = {"contiguous_format": layouts.contiguous_format,
             "preserve_format": layouts.preserve_format,
             "channels_last": layouts.channels_last, "strided": layouts.strided,
             "long": dtypes.int64, "int": dtypes.int32, "float": dtypes.float32,
             "double": dtypes.float64, "Mean": 1, "Sum": 2, "None_": 0}


def python_default(arg, schema_names: bool):
    """The default a binding gives schema argument `arg`: symbolic spellings resolved,
    and the reduction torch's Python bindings give (`schema_names`: torch.ops.aten's).

    Note [The reduction default of the bindings]
        ATen declares the losses' ``int reduction=Mean`` (1, as ``torch.ops.aten`` calls
        default it), but torch's Python argument parser reads the default's spelling
        ``at::Reduction::Mean`` as the number 0: ``torch.kl_div(x, y)`` returns the
        losses unreduced. `torch.nn.functional` always passes the reduction, so only
        direct calls of the bindings see it; they see torch's 0 here too.
    """
    default = arg.default
    if isinstance(default, str) and default in _SYMBOLIC and arg.type.base != "str":
        default = _SYMBOLIC[default]
    if arg.name == "reduction" and arg.type.base == "int" and not schema_names:
        default = 0
    return default


def apply_requires_grad(result: TensorBase, requires_grad: bool) -> TensorBase:
    """A factory's result, made to require grad if asked (``torch.zeros(2,
    requires_grad=True)``, ``torch.tensor(...)``), with the factories' wording of the
    refusal (torch's autograd-meta check, not the attribute's)."""
    if requires_grad:
        if not (result._dtype.is_floating_point or result._dtype.is_complex):
            raise RuntimeError("Only Tensors of floating point and complex dtype can require "
                               "gradients")
        result.requires_grad = True
    return result
