"""torch.nn.utils: helpers around a model's parameters and their gradients.

`clip_grad.py` holds gradient clipping (by total norm or by value) and the total norm
itself; `convert_parameters.py` flattens parameters into one vector and back.
"""
from .clip_grad import (  # noqa: F401
    clip_grad_norm, clip_grad_norm_, clip_grad_value_, clip_grads_with_norm_, get_total_norm)
from .convert_parameters import parameters_to_vector, vector_to_parameters  # noqa: F401
from . import stateless  # noqa: F401  (torch.nn.utils.stateless; torch.func builds on it)
