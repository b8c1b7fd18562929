"""torch.signal.windows: the window functions of signal processing, in SciPy's naming
(``sym=True``: the symmetric window, for filter design; False: the periodic one, for
spectral analysis)."""
from .windows import (bartlett, blackman, cosine, exponential, gaussian, general_cosine,
                      general_hamming, hamming, hann, kaiser, nuttall)

__all__ = ["bartlett", "blackman", "cosine", "exponential", "gaussian", "general_cosine",
           "general_hamming", "hamming", "hann", "kaiser", "nuttall"]
