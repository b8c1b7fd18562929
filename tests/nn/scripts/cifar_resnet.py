"""A small CIFAR-style ResNet (BasicBlock with batch norm, a strided shortcut, adaptive
average pooling, SGD with MultiStepLR) trained on a fixed set of random 32x32 images: a
plain PyTorch script (only the import names glasstorch). Prints one loss per step; the
tests run it with glasstorch and with torch and compare the curves. It trains in float64:
in float32 the last-bit differences of the two libraries' kernels grow about tenfold a
step here (batch statistics of random images, momentum), so the curves part after a few
steps; in float64 they print the same digits."""
import sys

import glasstorch as torch

nn = torch.nn
F = torch.nn.functional


class BasicBlock(nn.Module):
    expansion = 1

    def __init__(self, in_planes, planes, stride=1):
        super().__init__()
        self.conv1 = nn.Conv2d(in_planes, planes, 3, stride=stride, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(planes)
        self.conv2 = nn.Conv2d(planes, planes, 3, stride=1, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(planes)
        self.shortcut = nn.Sequential()
        if stride != 1 or in_planes != planes:
            self.shortcut = nn.Sequential(
                nn.Conv2d(in_planes, planes, 1, stride=stride, bias=False),
                nn.BatchNorm2d(planes))

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.bn2(self.conv2(out))
        return F.relu(out + self.shortcut(x))


class ResNet(nn.Module):
    def __init__(self, widths=(8, 16, 32), num_classes=10):
        super().__init__()
        self.conv1 = nn.Conv2d(3, widths[0], 3, stride=1, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(widths[0])
        layers, in_planes = [], widths[0]
        for index, planes in enumerate(widths):
            stride = 1 if index == 0 else 2
            layers += [BasicBlock(in_planes, planes, stride), BasicBlock(planes, planes)]
            in_planes = planes
        self.layers = nn.Sequential(*layers)
        self.pool = nn.AdaptiveAvgPool2d((1, 1))
        self.linear = nn.Linear(widths[-1], num_classes)

    def forward(self, x):
        out = F.relu(self.bn1(self.conv1(x)))
        out = self.pool(self.layers(out))
        return self.linear(torch.flatten(out, 1))


def main(steps: int) -> None:
    torch.set_default_dtype(torch.float64)
    torch.manual_seed(0)
    images = torch.randn(64, 3, 32, 32)
    labels = torch.randint(0, 10, (64,))
    model = ResNet()
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, weight_decay=5e-4)
    scheduler = torch.optim.lr_scheduler.MultiStepLR(optimizer, milestones=[20, 40], gamma=0.1)
    criterion = nn.CrossEntropyLoss()
    for step in range(steps):
        batch = torch.randperm(64)[:16]
        optimizer.zero_grad()
        loss = criterion(model(images[batch]), labels[batch])
        loss.backward()
        optimizer.step()
        scheduler.step()
        print(f"step {step} loss {loss.item():.7f}")
    model.eval()
    with torch.no_grad():
        correct = (model(images).argmax(dim=1) == labels).sum().item()
    print(f"correct {correct} running_mean {model.bn1.running_mean.sum().item():.6f}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
