"""A variational autoencoder (Kingma and Welling, 2014) in the style of pytorch/examples'
VAE: an MLP encoder giving a Normal posterior, a reparameterised sample, an MLP decoder
giving Bernoulli pixels, and the ELBO with its KL term from torch.distributions, trained
with Adam on a fixed set of random binary 8x8 images. A plain PyTorch script (only the
import names glasstorch); prints one line per step."""
import sys

import glasstorch as torch

nn = torch.nn
D = torch.distributions


class VAE(nn.Module):
    def __init__(self, pixels=64, hidden=32, latent=4):
        super().__init__()
        self.encoder = nn.Sequential(nn.Linear(pixels, hidden), nn.ReLU())
        self.mean = nn.Linear(hidden, latent)
        self.log_std = nn.Linear(hidden, latent)
        self.decoder = nn.Sequential(nn.Linear(latent, hidden), nn.ReLU(),
                                     nn.Linear(hidden, pixels))

    def forward(self, x):
        h = self.encoder(x)
        posterior = D.Normal(self.mean(h), self.log_std(h).exp())
        z = posterior.rsample()
        likelihood = D.Independent(D.Bernoulli(logits=self.decoder(z)), 1)
        return posterior, likelihood


def main(steps: int) -> None:
    torch.manual_seed(0)
    images = torch.bernoulli(torch.rand(32, 64) * 0.6 + 0.2)
    model = VAE()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2)
    prior = D.Normal(torch.zeros(4), torch.ones(4))
    for step in range(steps):
        posterior, likelihood = model(images)
        reconstruction = -likelihood.log_prob(images).mean()
        kl = D.kl_divergence(posterior, prior).sum(-1).mean()
        loss = reconstruction + kl
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        print(f"step {step} loss {loss.item():.6f} kl {kl.item():.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
