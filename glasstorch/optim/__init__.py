"""torch.optim: optimizers (`SGD`, `Adam`, `AdamW`, and the element-wise ones of
`_per_parameter`: `Adadelta`, `Adagrad`, `RMSprop`, ...) over the `Optimizer` base class,
and learning-rate schedules in `lr_scheduler`.

Each optimizer file holds the class and its update in two forms: glasstorch operators
(any dtype, differentiable) and, for the float32 tensors of a group, one step operator
per group (``aten::_multi_tensor_sgd_``, ``aten::_multi_tensor_adam_``, declared in
`aten/native/optim/steps.py`), both rounding as torch's CPU implementation does.
"""
import importlib

from .optimizer import Optimizer  # noqa: F401
from .sgd import SGD  # noqa: F401
from .adam import Adam  # noqa: F401
from .adamw import AdamW  # noqa: F401
from . import lr_scheduler  # noqa: F401
# LBFGS, swapping a state in, weight averaging. swa_utils builds on nn: it
# loads on first use, so that `import glasstorch.optim` does not import nn.
from .lbfgs import LBFGS  # noqa: F401
from ._stateless import swap_in_optimizer_params_and_state  # noqa: F401
# The element-wise optimizers: one file each over `_per_parameter`.
from .adadelta import Adadelta  # noqa: F401
from ._adafactor import Adafactor  # noqa: F401
from .adagrad import Adagrad  # noqa: F401
from .adamax import Adamax  # noqa: F401
from .asgd import ASGD  # noqa: F401
from ._muon import Muon  # noqa: F401
from .nadam import NAdam  # noqa: F401
from .radam import RAdam  # noqa: F401
from .rmsprop import RMSprop  # noqa: F401
from .rprop import Rprop  # noqa: F401
from .sparse_adam import SparseAdam  # noqa: F401

# Names of torch's not written yet say so (Note [Names glasstorch does not implement yet]).
from ..aten import torch_names as _torch_names  # noqa: E402


def __getattr__(name: str):
    if name == "swa_utils":
        return importlib.import_module(__name__ + ".swa_utils")
    raise _torch_names.missing_attribute(__name__, name)
