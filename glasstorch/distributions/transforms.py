"""torch.distributions.transforms: every transform, gathered from the modules that
define them (`transform_base`, `transforms_elementwise`, `transforms_structured`). `_InverseTransform` is importable
from here too, as libraries built on torch (Pyro) import it."""
from .transform_base import (ComposeTransform, IndependentTransform, ReshapeTransform,
                             Transform, _InverseTransform, identity_transform)  # noqa: F401
from .transforms_elementwise import (AbsTransform, AffineTransform,
                                     CumulativeDistributionTransform, ExpTransform,
                                     PowerTransform, SigmoidTransform, SoftplusTransform,
                                     TanhTransform)
from .transforms_structured import (CatTransform, CorrCholeskyTransform,
                                    LowerCholeskyTransform, PositiveDefiniteTransform,
                                    SoftmaxTransform, StackTransform, StickBreakingTransform)

__all__ = ["AbsTransform", "AffineTransform", "CatTransform", "ComposeTransform",
           "CorrCholeskyTransform", "CumulativeDistributionTransform", "ExpTransform",
           "IndependentTransform", "LowerCholeskyTransform", "PositiveDefiniteTransform",
           "PowerTransform", "ReshapeTransform", "SigmoidTransform", "SoftplusTransform",
           "TanhTransform", "SoftmaxTransform", "StackTransform", "StickBreakingTransform",
           "Transform", "identity_transform"]
