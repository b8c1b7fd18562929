"""Small Module subclasses written once against either library, for the Module tests:
``layers(lib)`` with lib = glasstorch or torch gives the same classes in both, so a
scenario builds the same model on each side."""
import functools
from types import SimpleNamespace


@functools.cache
def layers(lib):
    """Small Module subclasses written against `lib` (glasstorch or torch)."""
    nn = lib.nn

    class Affine(nn.Module):
        def __init__(self, n_in, n_out, bias=True):
            super().__init__()
            self.weight = nn.Parameter(lib.arange(n_in * n_out * 1.0).reshape(n_out, n_in) / 8)
            if bias:
                self.bias = nn.Parameter(lib.zeros(n_out))
            else:
                self.register_parameter("bias", None)

        def forward(self, x):
            y = x @ self.weight.t()
            return y if self.bias is None else y + self.bias

        def extra_repr(self):
            return f"in_features={self.weight.shape[1]}, out_features={self.weight.shape[0]}"

    class Norm(nn.Module):
        _version = 2

        def __init__(self, n):
            super().__init__()
            self.scale = nn.Parameter(lib.ones(n))
            self.register_buffer("running_mean", lib.zeros(n))
            self.register_buffer("scratch", lib.zeros(2), persistent=False)
            self.steps = nn.Buffer(lib.tensor(0))

        def forward(self, x):
            return x * self.scale

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.embed = Affine(3, 4)
            self.norm = Norm(4)
            self.blocks = nn.Sequential(Affine(4, 4), Affine(4, 4, bias=False))
            self.head = Affine(4, 2)
            self.empty = None

        def forward(self, x):
            return self.head(self.blocks(self.norm(self.embed(x))))

    return SimpleNamespace(Affine=Affine, Norm=Norm, Net=Net)


def names(pairs):
    return [name for name, _ in pairs]


def shared_net(lib):
    """A Net whose head is also registered as `tied`, and whose embedding weight is also
    the head's `weight2`: sharing that iteration and the state dict must handle."""
    net = layers(lib).Net()
    net.tied = net.head
    net.head.weight2 = net.embed.weight
    return net
