"""A regression MLP fed by torch.utils.data: a plain PyTorch script (only the import
names glasstorch). The data is split with random_split, shuffled by a DataLoader each
epoch and validated through worker processes; the tests run it with glasstorch and with
torch, so every batch (and so every loss) must be the same."""
import sys

import glasstorch as torch

nn = torch.nn
data = torch.utils.data


def validate(model, loader, count: int) -> float:
    with torch.no_grad():
        return sum(nn.functional.mse_loss(model(inputs), targets, reduction="sum").item()
                   for inputs, targets in loader) / count


def main(steps: int) -> None:
    torch.manual_seed(0)
    x = torch.randn(200, 4)
    y = (x @ torch.tensor([1.0, -2.0, 0.5, 3.0]) + 0.1 * torch.randn(200)).unsqueeze(1)
    train, val = data.random_split(data.TensorDataset(x, y), [0.8, 0.2])
    loader = data.DataLoader(train, batch_size=16, shuffle=True, drop_last=True)
    val_loader = data.DataLoader(val, batch_size=32, num_workers=2, persistent_workers=True)
    model = nn.Sequential(nn.Linear(4, 32), nn.Tanh(), nn.Linear(32, 1))
    optimizer = torch.optim.Adam(model.parameters(), lr=0.01)
    step = 0
    while step < steps:
        for index, (inputs, targets) in enumerate(loader):
            optimizer.zero_grad()
            loss = nn.functional.mse_loss(model(inputs), targets)
            loss.backward()
            optimizer.step()
            line = f"step {step} loss {loss.item():.7f}"
            step += 1
            if index == len(loader) - 1 or step == steps:      # an epoch ends: validate
                line += f" val {validate(model, val_loader, len(val)):.7f}"
            print(line)
            if step == steps:
                break


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
