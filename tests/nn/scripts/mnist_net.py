"""The network of pytorch/examples' MNIST program (two convolutions, max pooling,
dropout, Adadelta, StepLR), trained on a fixed set of random 28x28 digits: a plain PyTorch
script (only the import names glasstorch). Prints one loss per step; the tests run it with
glasstorch and with torch and compare the curves."""
import sys

import glasstorch as torch

nn = torch.nn
F = torch.nn.functional


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 32, 3, 1)
        self.conv2 = nn.Conv2d(32, 64, 3, 1)
        self.dropout1 = nn.Dropout(0.25)
        self.dropout2 = nn.Dropout(0.5)
        self.fc1 = nn.Linear(9216, 128)
        self.fc2 = nn.Linear(128, 10)

    def forward(self, x):
        x = F.relu(self.conv1(x))
        x = F.relu(self.conv2(x))
        x = F.max_pool2d(x, 2)
        x = self.dropout1(x)
        x = torch.flatten(x, 1)
        x = F.relu(self.fc1(x))
        x = self.dropout2(x)
        return F.log_softmax(self.fc2(x), dim=1)


def main(steps: int) -> None:
    torch.manual_seed(1)
    images = torch.rand(64, 1, 28, 28)
    labels = torch.randint(0, 10, (64,))
    model = Net()
    optimizer = torch.optim.Adadelta(model.parameters(), lr=1.0)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, step_size=1, gamma=0.7)
    for step in range(steps):
        batch = torch.randperm(64)[:16]
        optimizer.zero_grad()
        loss = F.nll_loss(model(images[batch]), labels[batch])
        loss.backward()
        optimizer.step()
        if step % 10 == 9:           # an "epoch"
            scheduler.step()
        print(f"step {step} loss {loss.item():.7f}")
    model.eval()
    with torch.no_grad():
        correct = (model(images).argmax(dim=1) == labels).sum().item()
    print(f"correct {correct}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
