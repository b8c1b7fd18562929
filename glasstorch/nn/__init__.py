"""torch.nn: for now only its functional interface, `torch.nn.functional`."""
from . import functional  # noqa: F401
