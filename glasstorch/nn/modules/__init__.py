"""torch.nn's layers: `module.py` holds Module, each other file one family of layers."""
from .module import Module  # noqa: F401
from .container import ModuleDict, ModuleList, ParameterDict, ParameterList, Sequential  # noqa: F401
from .linear import Bilinear, Identity, LazyLinear, Linear  # noqa: F401
from .flatten import Flatten, Unflatten  # noqa: F401
from .loss import (BCELoss, BCEWithLogitsLoss, CrossEntropyLoss, HuberLoss, KLDivLoss, L1Loss,  # noqa: F401
                   MSELoss, NLLLoss, SmoothL1Loss, SoftMarginLoss)
from .loss import (CosineEmbeddingLoss, GaussianNLLLoss, HingeEmbeddingLoss,  # noqa: F401
                   MarginRankingLoss, MultiLabelMarginLoss, MultiLabelSoftMarginLoss,
                   MultiMarginLoss, NLLLoss2d, PoissonNLLLoss, TripletMarginLoss,
                   TripletMarginWithDistanceLoss)
from .loss_ctc import CTCLoss  # noqa: F401
from .linear_cross_entropy import LinearCrossEntropyLoss  # noqa: F401
from .adaptive import AdaptiveLogSoftmaxWithLoss  # noqa: F401
from .normalization import LayerNorm, RMSNorm  # noqa: F401
# batch, instance, group and local response normalization layers
from .normalization import CrossMapLRN2d, GroupNorm, LocalResponseNorm  # noqa: F401
from .batchnorm import *  # noqa: F401,F403
from .instancenorm import *  # noqa: F401,F403
from .distance import CosineSimilarity, PairwiseDistance  # noqa: F401
from .sparse import EmbeddingBag  # noqa: F401
from .sparse import Embedding  # noqa: F401
from .dropout import AlphaDropout, Dropout, Dropout1d, Dropout2d, Dropout3d, FeatureAlphaDropout  # noqa: F401
from .activation import *  # noqa: F401,F403
from .activation_random import *  # noqa: F401,F403
# attention and transformers
from .activation_attention import MultiheadAttention  # noqa: F401
from .transformer import (Transformer, TransformerDecoder, TransformerDecoderLayer,  # noqa: F401
                          TransformerEncoder, TransformerEncoderLayer)
from .resample import (ChannelShuffle, PixelShuffle, PixelUnshuffle, Upsample,  # noqa: F401
                       UpsamplingBilinear2d, UpsamplingNearest2d)
from .fold import Fold, Unfold  # noqa: F401
from . import lazy  # noqa: F401  (LazyModuleMixin, for lazy layers)
# convolution layers
from .conv import *  # noqa: F401,F403
# pooling and padding layers
from .pooling import *  # noqa: F401,F403
from .padding import *  # noqa: F401,F403
# recurrent layers and cells; the old Container
from .container import Container  # noqa: F401
from .rnn import GRU, LSTM, RNN, RNNBase  # noqa: F401
from .rnn_cells import GRUCell, LSTMCell, RNNCell, RNNCellBase  # noqa: F401
