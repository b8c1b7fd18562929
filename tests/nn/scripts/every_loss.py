"""Every loss of torch.nn in one training loop: a plain PyTorch script (only the import
names glasstorch). A small network predicts several heads; each step sums all the losses
and takes an Adam step. Prints each loss per step; the tests compare with torch."""
import sys

import glasstorch as torch

nn = torch.nn
F = torch.nn.functional


class Heads(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(8, 32), nn.SiLU(), nn.LayerNorm(32))
        self.regress = nn.Linear(32, 4)
        self.classify = nn.Linear(32, 5)
        self.spatial = nn.Linear(32, 5 * 3)

    def forward(self, x):
        h = self.body(x)
        return self.regress(h), self.classify(h), self.spatial(h).view(-1, 5, 3)


def losses(model, x, data):
    reg, cls, spatial = model(x)
    weight = torch.tensor([1.0, 2.0, 0.5, 1.0, 1.5])
    return {
        "mse": nn.MSELoss()(reg, data["reg"]),
        "l1": nn.L1Loss(reduction="sum")(reg, data["reg"]) / 100,
        "smooth_l1": nn.SmoothL1Loss(beta=0.5)(reg, data["reg"]),
        "huber": nn.HuberLoss(delta=0.7)(reg, data["reg"]),
        "ce": nn.CrossEntropyLoss(weight=weight, ignore_index=2, label_smoothing=0.1)(
            cls, data["cls"]),
        "ce_probs": nn.CrossEntropyLoss()(cls, data["probs"]),
        "nll_kdim": nn.NLLLoss()(F.log_softmax(spatial, dim=1), data["spatial"]),
        "bce": nn.BCELoss()(torch.sigmoid(reg), data["bits"]),
        "bce_logits": nn.BCEWithLogitsLoss(pos_weight=torch.tensor([1.0, 2.0, 3.0, 0.5]))(
            reg, data["bits"]),
        "kl": nn.KLDivLoss(reduction="batchmean")(F.log_softmax(cls, dim=1), data["probs"]),
        "kl_log": nn.KLDivLoss(reduction="sum", log_target=True)(
            F.log_softmax(cls, dim=1), data["probs"].log()) / 100,
    }


def main(steps: int) -> None:
    torch.manual_seed(0)
    n = 48
    x = torch.randn(n, 8)
    data = {"reg": torch.randn(n, 4), "cls": torch.randint(0, 5, (n,)),
            "probs": F.softmax(torch.randn(n, 5), dim=1), "spatial": torch.randint(0, 5, (n, 3)),
            "bits": torch.randint(0, 2, (n, 4)).float()}
    model = Heads()
    optimizer = torch.optim.Adam(model.parameters(), lr=1e-2, amsgrad=True)
    for step in range(steps):
        optimizer.zero_grad()
        parts = losses(model, x, data)
        total = sum(parts.values())
        total.backward()
        optimizer.step()
        print(f"step {step} " + " ".join(f"{k} {v.item():.7f}" for k, v in parts.items()))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
