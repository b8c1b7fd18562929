"""Random streams: 1M float32 draws after a seed, and a shuffle.

glasstorch draws torch's exact numbers (aten/native/random/bits.py): the raw words
come from NumPy's MT19937 (the same engine, seeded as ATen seeds it), then the
transformations run as NumPy array operations. The NumPy column is NumPy's own
generator doing the same job (`Generator.random` / `standard_normal` in float32,
`permutation`), a floor for the engine plus one transformation; glasstorch's normal
costs more because torch's Box-Muller on blocks of 16 (Cephes polynomials with fused
multiply-adds, emulated exactly) has many more steps than NumPy's ziggurat.
"""
from bench import case

GROUP = "random: 1M float32 draws after manual_seed"


def _seeded(torch, np):
    torch.manual_seed(0)
    return {"torch": torch, "np": np, "rng": np.random.default_rng(0)}


case("torch.rand(2 ** 20)", numpy="rng.random(2 ** 20, dtype=np.float32)", group=GROUP,
     name="rand [1M float32]")(_seeded)
case("torch.randn(2 ** 20)", numpy="rng.standard_normal(2 ** 20, dtype=np.float32)",
     group=GROUP, name="randn [1M float32]")(_seeded)
case("torch.randn(2 ** 20, dtype=torch.float64)", numpy="rng.standard_normal(2 ** 20)",
     group=GROUP, name="randn [1M float64]")(_seeded)
case("torch.randint(0, 1000, (2 ** 20,))", numpy="rng.integers(0, 1000, 2 ** 20)",
     group=GROUP, name="randint [1M int64]")(_seeded)
case("torch.randperm(60000)", numpy="rng.permutation(60000)", group=GROUP,
     name="randperm [60000]")(_seeded)
