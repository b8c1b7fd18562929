"""A small typed training script: `test_stubs.py` runs mypy on it (never imported by pytest)."""
import glasstorch as torch
from glasstorch import nn


def batch(size: int) -> tuple[torch.Tensor, torch.Tensor]:
    inputs = torch.randn(size, 4)
    targets = inputs.sum(dim=1, keepdim=True).mul(0.5)
    return inputs, targets


def train(steps: int) -> float:
    model = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    loss = torch.zeros(())
    for _ in range(steps):
        inputs, targets = batch(16)
        optimizer.zero_grad()
        loss = nn.functional.mse_loss(model(inputs), targets)
        loss.backward()
        optimizer.step()
    with torch.no_grad():
        scaled: torch.Tensor = torch.add(loss, 1.0, alpha=2).view(1).clamp(min=0)
    rows: int = scaled.shape[0]
    norm: torch.Tensor = torch.linalg.vector_norm(nn.functional.gelu(scaled), dim=0)
    return loss.item() + rows - 1 + 0 * norm.item()


if __name__ == "__main__":
    print(train(20))
