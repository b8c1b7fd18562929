"""torch.utils: helpers around the core (dispatch modes for now)."""

# Names of torch's not written yet say so (Note [Names glasstorch does not implement yet]).
from ..aten import torch_names as _torch_names  # noqa: E402


def __getattr__(name: str):
    raise _torch_names.missing_attribute(__name__, name)
