"""torch.utils.serialization: the settings of `torch.save` and `torch.load` (`config`)."""
from . import config  # noqa: F401
