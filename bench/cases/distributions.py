"""torch.distributions: the calls of a policy-gradient step and of a VAE's ELBO, and the
element-by-element samplers (gamma, binomial) whose draw counts depend on the draws.

A Categorical over (4096, 16) logits: sample and log_prob (REINFORCE); a Normal
posterior over (4096, 32): rsample, log_prob and its KL to a standard normal (a VAE);
Gamma and Binomial draws of 10,000 elements (each element sampled in turn, as ATen's
serial kernels do; the NumPy column is NumPy's own samplers, other algorithms).
"""
from bench import case

GROUP = "distributions: policy gradient, VAE, rejection samplers"


def _setup(torch, np):
    torch.manual_seed(0)
    D = torch.distributions
    logits = torch.randn(4096, 16, requires_grad=True)
    loc, scale = torch.randn(4096, 32), torch.rand(4096, 32) + 0.5
    return {"torch": torch, "D": D, "np": np, "logits": logits,
            "posterior": D.Normal(loc, scale), "prior": D.Normal(0.0, 1.0),
            "alpha": torch.full((10_000,), 2.5), "count": torch.full((10_000,), 40.0),
            "prob": torch.full((10_000,), 0.3), "rng": np.random.default_rng(0)}


case("m = D.Categorical(logits=logits); m.log_prob(m.sample()).sum().backward()",
     group=GROUP, name="Categorical sample+log_prob+backward (4096,16)")(_setup)
case("z = posterior.rsample(); posterior.log_prob(z); D.kl_divergence(posterior, prior)",
     group=GROUP, name="Normal rsample+log_prob+kl (4096,32)")(_setup)
case("torch._standard_gamma(alpha)", group=GROUP, name="_standard_gamma (10000,)",
     numpy="rng.standard_gamma(2.5, 10_000)")(_setup)
case("torch.binomial(count, prob)", group=GROUP, name="binomial (10000,)",
     numpy="rng.binomial(40, 0.3, 10_000)")(_setup)
