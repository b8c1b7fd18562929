"""An MLP classifier trained on three interleaved spirals: a plain PyTorch script (only
the import names glasstorch). Prints one loss per step; the tests run it with glasstorch
and with torch and compare the curves."""
import math
import sys

import glasstorch as torch

nn = torch.nn


def spirals(points_per_class: int, classes: int = 3):
    radius = torch.linspace(0.0, 1.0, points_per_class)
    xs, ys = [], []
    for c in range(classes):
        angle = torch.linspace(c * 4.0, (c + 1) * 4.0, points_per_class)
        angle = angle + 0.2 * torch.randn(points_per_class)
        xs.append(torch.stack([radius * torch.sin(angle), radius * torch.cos(angle)], dim=1))
        ys.append(torch.full((points_per_class,), c, dtype=torch.long))
    return torch.cat(xs), torch.cat(ys)


def main(steps: int) -> None:
    torch.manual_seed(0)
    x, y = spirals(100)
    model = nn.Sequential(nn.Linear(2, 64), nn.ReLU(), nn.Linear(64, 64), nn.Tanh(),
                          nn.Dropout(0.1), nn.Linear(64, 3))
    loss_fn = nn.CrossEntropyLoss(label_smoothing=0.05)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9, nesterov=True,
                                weight_decay=1e-4)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=20, gamma=0.5)
    for step in range(steps):
        batch = torch.randperm(len(x))[:64]
        optimizer.zero_grad()
        loss = loss_fn(model(x[batch]), y[batch])
        loss.backward()
        optimizer.step()
        scheduler.step()
        print(f"step {step} loss {loss.item():.7f}")
    model.eval()
    with torch.no_grad():
        accuracy = (model(x).argmax(dim=1) == y).float().mean().item()
    print(f"accuracy {accuracy:.4f} lr {math.log10(scheduler.get_last_lr()[0]):.4f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
