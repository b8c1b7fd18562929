"""torch.export: importable, with every public name; using one raises NotImplementedError.

(Graph capture is a later issue: see _missing.py.)
"""
from ._missing import missing_class, missing_function

export = missing_function("torch.export.export")
draft_export = missing_function("torch.export.draft_export")
save = missing_function("torch.export.save")
load = missing_function("torch.export.load")
unflatten = missing_function("torch.export.unflatten")
register_dataclass = missing_function("torch.export.register_dataclass")
default_decompositions = missing_function("torch.export.default_decompositions")
dims = missing_function("torch.export.dims")
Dim = missing_function("torch.export.Dim")
ExportedProgram = missing_class("torch.export.ExportedProgram")
ExportGraphSignature = missing_class("torch.export.ExportGraphSignature")
ExportBackwardSignature = missing_class("torch.export.ExportBackwardSignature")
ModuleCallEntry = missing_class("torch.export.ModuleCallEntry")
ModuleCallSignature = missing_class("torch.export.ModuleCallSignature")
ShapesCollection = missing_class("torch.export.ShapesCollection")
AdditionalInputs = missing_class("torch.export.AdditionalInputs")
FlatArgsAdapter = missing_class("torch.export.FlatArgsAdapter")
UnflattenedModule = missing_class("torch.export.UnflattenedModule")
CustomDecompTable = missing_class("torch.export.CustomDecompTable", dict)
Constraint = missing_class("torch.export.Constraint")
