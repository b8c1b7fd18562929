"""Every distributions test starts from torch's default validation (on): importing
torch._dynamo (another test file compiling with real torch) switches real torch's off
for the rest of the process."""
import pytest

try:
    import torch
except ImportError:
    torch = None


@pytest.fixture(autouse=True)
def torch_validates_by_default():
    if torch is None:
        yield
        return
    before = torch.distributions.Distribution._validate_args
    torch.distributions.Distribution.set_default_validate_args(True)
    yield
    torch.distributions.Distribution.set_default_validate_args(before)
