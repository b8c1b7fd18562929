"""torch.onnx.errors: the exporter's exception and warning types."""


class OnnxExporterError(RuntimeError):
    """Raised when an ONNX export fails."""


class OnnxExporterWarning(UserWarning):
    """Warned by the ONNX exporter."""


class SymbolicValueError(OnnxExporterError):
    """An ONNX symbolic function met a value it cannot express."""


class UnsupportedOperatorError(OnnxExporterError):
    """An operator has no ONNX translation."""


__all__ = ["OnnxExporterWarning", "SymbolicValueError", "UnsupportedOperatorError"]
