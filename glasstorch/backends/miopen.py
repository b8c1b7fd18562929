"""torch.backends.miopen: AMD's MIOpen switches, kept though no ROCm build runs here."""
from __future__ import annotations

immediate = False
