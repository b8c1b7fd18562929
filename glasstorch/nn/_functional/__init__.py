"""The Python functions of torch.nn.functional, one file per topic.

`nn/functional.py` re-exports every name in their ``__all__``; the operators they call are
declared in `aten/native/` (with ``python_module="nn"`` when torch puts them in
``torch._C._nn``).
"""
