"""torch.backends.xnnpack: XNNPACK, used by mobile builds; off here."""
from __future__ import annotations

enabled = False
