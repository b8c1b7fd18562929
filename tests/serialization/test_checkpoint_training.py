"""A training loop that checkpoints model + optimizer + scheduler halfway, resumes from
the file, and ends where the uninterrupted run ends, in glasstorch and in torch, and
across the two (each resuming from the other's checkpoint)."""
import numpy as np
import pytest

import glasstorch as gt

STEPS, HALF = 8, 4


def batches():
    rng = np.random.default_rng(0)
    return [(rng.standard_normal((16, 5)).astype(np.float32),
             rng.standard_normal((16, 2)).astype(np.float32)) for _ in range(STEPS)]


def build(library, initial=None):
    """A model, its AdamW optimizer and a StepLR schedule, in `library`."""
    model = library.nn.Sequential(library.nn.Linear(5, 8), library.nn.Tanh(),
                                  library.nn.Linear(8, 2))
    if initial is not None:
        with library.no_grad():
            for param, values in zip(model.parameters(), initial):
                param.copy_(library.from_numpy(values.copy()))
    optimizer = library.optim.AdamW(model.parameters(), lr=0.05, weight_decay=0.01)
    scheduler = library.optim.lr_scheduler.StepLR(optimizer, step_size=2, gamma=0.5)
    return model, optimizer, scheduler


def train(library, parts, steps):
    model, optimizer, scheduler = parts
    for inputs, targets in steps:
        optimizer.zero_grad()
        loss = ((model(library.from_numpy(inputs)) - library.from_numpy(targets)) ** 2).mean()
        loss.backward()
        optimizer.step()
        scheduler.step()


def checkpoint(parts, epoch: int) -> dict:
    model, optimizer, scheduler = parts
    return {"model": model.state_dict(), "optimizer": optimizer.state_dict(),
            "scheduler": scheduler.state_dict(), "epoch": epoch}


def resume(library, path, initial):
    parts = build(library, initial)
    state = library.load(path)
    parts[0].load_state_dict(state["model"])
    parts[1].load_state_dict(state["optimizer"])
    parts[2].load_state_dict(state["scheduler"])
    assert state["epoch"] == HALF
    return parts


def weights(parts) -> list:
    return [p.detach().numpy().copy() for p in parts[0].parameters()]


def initial_weights():
    gt.manual_seed(0)
    return weights(build(gt))


def test_resumed_run_ends_where_the_uninterrupted_one_does(tmp_path):
    data, initial = batches(), initial_weights()
    whole = build(gt, initial)
    train(gt, whole, data)
    first = build(gt, initial)
    train(gt, first, data[:HALF])
    gt.save(checkpoint(first, HALF), tmp_path / "ckpt.pt")
    resumed = resume(gt, tmp_path / "ckpt.pt", initial)
    train(gt, resumed, data[HALF:])
    for mine, reference in zip(weights(resumed), weights(whole)):
        np.testing.assert_array_equal(mine, reference)
    assert resumed[2].get_last_lr() == whole[2].get_last_lr()


def test_checkpoints_cross_between_glasstorch_and_torch(tmp_path):
    torch = pytest.importorskip("torch")
    data, initial = batches(), initial_weights()
    reference = build(torch, initial)
    train(torch, reference, data)
    mine = build(gt, initial)
    train(gt, mine, data)
    for glass, ref in zip(weights(mine), weights(reference)):
        np.testing.assert_allclose(glass, ref, rtol=1e-5, atol=1e-6)

    torch_half = build(torch, initial)
    train(torch, torch_half, data[:HALF])
    torch.save(checkpoint(torch_half, HALF), tmp_path / "from_torch.pt")
    glass_resumed = resume(gt, tmp_path / "from_torch.pt", initial)
    train(gt, glass_resumed, data[HALF:])

    glass_half = build(gt, initial)
    train(gt, glass_half, data[:HALF])
    gt.save(checkpoint(glass_half, HALF), tmp_path / "from_glasstorch.pt")
    torch_resumed = resume(torch, tmp_path / "from_glasstorch.pt", initial)
    train(torch, torch_resumed, data[HALF:])

    for a, b, ref in zip(weights(glass_resumed), weights(torch_resumed), weights(reference)):
        np.testing.assert_allclose(a, ref, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(b, ref, rtol=1e-5, atol=1e-6)
