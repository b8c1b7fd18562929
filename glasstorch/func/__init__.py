"""`torch.func`: composable function transforms (JAX-style) over glasstorch operators.

`vmap` runs a function of one sample on a batch through the FuncTorchBatched dispatch
key; `grad`, `vjp`, `jvp`, `jacrev`, `jacfwd` and `hessian` differentiate functions,
composing with `vmap` and with each other; `functional_call` runs a module with the
parameters and buffers it is given.
"""
from .._functorch.batched_tensor import debug_unwrap
from .._functorch.eager_transforms import (functionalize, grad, grad_and_value, jvp, linearize,
                                           vjp)
from .._functorch.jacobians import hessian, jacfwd, jacrev
from .._functorch.module_state import (functional_call, replace_all_batch_norm_modules_,
                                      stack_module_state)
from .._functorch.vmap import vmap

__all__ = ["vmap", "grad", "grad_and_value", "vjp", "jvp", "linearize", "jacrev", "jacfwd",
           "hessian", "functional_call", "stack_module_state", "replace_all_batch_norm_modules_",
           "functionalize", "debug_unwrap"]
