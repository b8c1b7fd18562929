"""torch.quasirandom.SobolEngine against torch: the same points, plain and scrambled."""
import numpy as np
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def session(lib, *args):
    """Draws, a fast-forward, a reset and draws again: every state change of the engine."""
    engine = lib.quasirandom.SobolEngine(*args)
    out = [engine.draw(5), engine.draw(3, dtype=lib.float64)]
    engine.fast_forward(7)
    out.append(engine.draw(4))
    engine.reset()
    out += [engine.draw(1), engine.draw_base2(0), engine.draw_base2(1)]
    return out, engine


@pytest.mark.parametrize("args", [(1,), (3,), (40,), (1111,), (3, True, 7), (6, True, 0),
                                  (2, True, None)])
def test_points_as_torch(args):
    if args[1:] == (True, None):                # scrambled from the global generator
        torch.manual_seed(11)
        gt.manual_seed(11)
    theirs, their_engine = session(torch, *args)
    ours, engine = session(gt, *args)
    for a, b in zip(ours, theirs):
        assert str(a.dtype) == str(b.dtype)
        np.testing.assert_array_equal(a.numpy(), b.numpy())
    np.testing.assert_array_equal(engine.sobolstate.numpy(), their_engine.sobolstate.numpy())
    np.testing.assert_array_equal(engine.quasi.numpy(), their_engine.quasi.numpy())
    assert engine.num_generated == their_engine.num_generated
    assert repr(engine) == repr(their_engine)


def test_refusals_as_torch():
    for lib in (torch, gt):
        with pytest.raises(ValueError, match=r"Supported range of dimensionality for "
                                             r"SobolEngine is \[1, 21201\]"):
            lib.quasirandom.SobolEngine(0)
        engine = lib.quasirandom.SobolEngine(2)
        engine.draw(3)
        with pytest.raises(ValueError, match=r"3 points have been previously generated, "
                                             r"then: n=3\+2\*\*2=7"):
            engine.draw_base2(2)


def test_dimensions_beyond_the_table_say_so():
    with pytest.raises(NotImplementedError, match="more than 1111 dimensions"):
        gt.quasirandom.SobolEngine(1112)


def test_out_argument():
    out = gt.empty(0)
    result = gt.quasirandom.SobolEngine(2).draw(3, out=out)
    assert result is out and out.shape == (3, 2)
