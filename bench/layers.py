"""Where an operator's time goes: each layer of the call path, timed and counted.

    python bench/layers.py

For a few tiny calls (10 floats, one thread, nothing recorded) it times the call from
each layer inward, so that the difference between two columns is what the outer layer
adds:

  * binding      the public call (``a + b``): the Tensor method or torch function, its
                 argument parsing, then the operator's entry;
  * entry        ``op.call(*args)``: the express entry where the operator has one (Note
                 [Express entries] in aten/fast_paths.py), else the general entry;
  * general      ``op.general_entry(*args)``: the key set, the cached kernel for it,
                 the fast path tried first;
  * kernel       the cached fast path (or kernel) alone: checks, NumPy, the result
                 tensor's birth;
  * NumPy        the ufunc alone, allocating its result as the fast path's ufunc does;

and counts the Python frames the whole call enters (``sys.setprofile``'s "call"
events), which is the cost that does not depend on the machine. Times are the thread's
CPU time (the minimum over loops), which other processes on the machine disturb far
less than the wall clock. docs/architecture.md ("Where an operator's time goes") quotes
its output.
"""
from __future__ import annotations

import gc
import pathlib
import sys
import time
import timeit

ROOT = pathlib.Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

import glasstorch as torch  # noqa: E402


def per_call(function, number: int = 2000, repeats: int = 25) -> float:
    """Microseconds of the thread's CPU time per call: the minimum over `repeats` loops
    of `number` calls."""
    timer = timeit.Timer(function, timer=time.thread_time)
    return min(timer.repeat(number=number, repeat=repeats)) / number * 1e6


def frames(function) -> int:
    """The Python frames one warm call of `function` enters (its own not counted);
    tests/test_call_path_frames.py holds common calls to a budget with it."""
    count = [0]

    def profile(frame, event, arg):
        if event == "call":
            count[0] += 1
    function()
    gc.collect()            # a collection inside the call would count finalizers' frames
    gc.disable()
    previous = sys.getprofile()
    sys.setprofile(profile)
    try:
        function()
    finally:
        sys.setprofile(previous)
        gc.enable()
    return count[0] - 1


def cached_kernel(op, args: tuple):
    """The function the dispatcher's cache runs for `args`: the fast path when there
    is one, else the kernel (called with the keys below it)."""
    op.call(*args)                                   # fill the cache
    keyset = next(iter(op._cache))
    kernel, below, fast = op._cache[keyset]
    return (lambda: fast(*args)) if fast is not None else (lambda: kernel(op, below, args))


def layers(name: str, public, op, args: tuple, numpy) -> list:
    """The rows of one call: (layer, microseconds from this layer inward)."""
    rows = [("binding", per_call(public)), ("entry", per_call(lambda: op.call(*args))),
            ("general", per_call(lambda: op.general_entry(*args))),
            ("kernel", per_call(cached_kernel(op, args)))]
    if numpy is not None:
        rows.append(("NumPy", per_call(numpy)))
    return rows


def main() -> None:
    torch.set_num_threads(1)
    a, b, x = torch.rand(10), torch.rand(10), torch.rand(10)
    na, nb = a.numpy(), b.numpy()
    aten = torch.ops.aten
    calls = [
        ("a + b", lambda: a + b, aten.add.Tensor, (a, b, 1), lambda: np.add(na, nb)),
        ("x.exp()", lambda: x.exp(), aten.exp.default, (x,), lambda: np.exp(na)),
        ("x.sum()", lambda: x.sum(), aten.sum.default, (x, None), None),
        ("x.view(-1)", lambda: x.view(-1), aten.view.default, (x, [-1]), None),
    ]
    print(f"glasstorch {torch.__version__}, numpy {np.__version__}, Python "
          f"{sys.version.split()[0]}; microseconds of CPU time per call (min of 25 loops), "
          f"1 thread")
    print(f"{'call':<12}{'frames':>7}  " + "  ".join(
        f"{layer:>9}" for layer in ("binding", "entry", "general", "kernel", "NumPy")))
    for name, public, op, args, numpy in calls:
        rows = layers(name, public, op, args, numpy)
        cells = "  ".join(f"{us:>9.2f}" for _, us in rows)
        print(f"{name:<12}{frames(public):>7}  {cells}")


if __name__ == "__main__":
    main()
