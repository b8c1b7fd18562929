"""torch.onnx.ops: ONNX-specific operators for export; each refuses (no exporter here)."""
from ..export._missing import missing_function

symbolic = missing_function("torch.onnx.ops.symbolic")
symbolic_multi_out = missing_function("torch.onnx.ops.symbolic_multi_out")
rotary_embedding = missing_function("torch.onnx.ops.rotary_embedding")
attention = missing_function("torch.onnx.ops.attention")
aten_decompositions = missing_function("torch.onnx.ops.aten_decompositions")

__all__ = ["aten_decompositions", "symbolic", "symbolic_multi_out", "rotary_embedding",
           "attention"]
