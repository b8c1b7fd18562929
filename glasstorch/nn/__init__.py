"""torch.nn: modules, parameters, initialisation and the functional interface.

Layout (as torch's): `parameter.py` (Parameter, Buffer), `modules/` (Module and one file
per layer family), `functional.py` (torch.nn.functional: bindings of the operators
declared with ``python_module="nn"`` plus the Python functions of `_functional/`),
`init.py` (initialisers), `utils/` (gradient clipping, parameter vectors), `parallel/`
(DataParallel, DistributedDataParallel).
"""
from .parameter import (Buffer, Parameter, UninitializedBuffer,  # noqa: F401
                        UninitializedParameter)
from . import functional  # noqa: F401
from .modules import *  # noqa: F401,F403
from . import parallel  # noqa: F401
from .parallel import DataParallel  # noqa: F401
from . import init  # noqa: F401
from . import utils  # noqa: F401
from . import grad  # noqa: F401  (convolution: the gradient functions)
from . import attention  # noqa: F401  (which kernels scaled_dot_product_attention may use)

# Names of torch's not written yet say so (Note [Names glasstorch does not implement yet]).
from ..aten import torch_names as _torch_names  # noqa: E402


def __getattr__(name: str):
    raise _torch_names.missing_attribute(__name__, name)
