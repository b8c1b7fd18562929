"""torch.testing: `assert_close` (torch's tolerance table and messages), `make_tensor`
(torch's value ranges and seeded values) and `FileCheck` (ordered string checks)."""
from __future__ import annotations

import warnings
from typing import Any

import glasstorch as torch
from ._comparison import assert_close
from ._creation import make_tensor
from ._filecheck import FileCheck
from ._tolerances import default_tolerances

__all__ = ["assert_close", "make_tensor", "assert_allclose", "FileCheck"]

# assert_allclose's looser table (it predates assert_close)
_ALLCLOSE_PRECISIONS = {torch.float16: (1e-3, 1e-3), torch.float32: (1e-4, 1e-5),
                        torch.float64: (1e-5, 1e-8)}


def assert_allclose(actual: Any, expected: Any, rtol: float | None = None,
                    atol: float | None = None, equal_nan: bool = True, msg: str = "") -> None:
    """Deprecated form of `assert_close`: looser defaults, NaN equal, dtypes promoted."""
    warnings.warn("`torch.testing.assert_allclose()` is deprecated since 1.12 and will be "
                  "removed in a future release. Please use `torch.testing.assert_close()` "
                  "instead. You can find detailed upgrade instructions in "
                  "https://github.com/pytorch/pytorch/issues/61844.", FutureWarning, stacklevel=2)
    if not isinstance(actual, torch.Tensor):
        actual = torch.tensor(actual)
    if not isinstance(expected, torch.Tensor):
        expected = torch.tensor(expected, dtype=actual.dtype)
    if rtol is None and atol is None:
        rtol, atol = default_tolerances(actual, expected, dtype_precisions=_ALLCLOSE_PRECISIONS)
    assert_close(actual, expected, rtol=rtol, atol=atol, equal_nan=equal_nan, check_device=True,
                 check_dtype=False, check_stride=False, msg=msg or None)
