"""torch.cuda.jiterator: elementwise CUDA kernels compiled from C++ strings at run time.
It has no public names; its private builders need CUDA, which this build lacks."""
from __future__ import annotations

__all__: list = []
