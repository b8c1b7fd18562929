"""torch.onnx: importable, with its public names; `export` raises NotImplementedError.

Writing ONNX needs a captured graph (a later issue: see glasstorch/export/_missing.py).
"""
from __future__ import annotations

from ..export._missing import missing_class, missing_function
from . import errors, ops  # noqa: F401
from .errors import OnnxExporterError  # noqa: F401

producer_name = "pytorch"
producer_version = "2.13.0"


export = missing_function("torch.onnx.export")
register_custom_op_symbolic = missing_function("torch.onnx.register_custom_op_symbolic")
unregister_custom_op_symbolic = missing_function("torch.onnx.unregister_custom_op_symbolic")
select_model_mode_for_export = missing_function("torch.onnx.select_model_mode_for_export")
ONNXProgram = missing_class("torch.onnx.ONNXProgram")
ExportableModule = missing_class("torch.onnx.ExportableModule")
InputObserver = missing_class("torch.onnx.InputObserver")


def is_in_onnx_export() -> bool:
    """Whether an ONNX export is running: never, here."""
    return False
