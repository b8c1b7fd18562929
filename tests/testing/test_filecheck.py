"""torch.testing.FileCheck against torch: which check sequences pass on a text, and for
those that fail the error's first line (what was expected) and last line (which check)."""
import pytest

import glasstorch as gt

TEXT = "graph(%x):\n  %a = add(%x)\n  %b = mul(%a)\n  return (%b)"
CASES = {
    "in order": lambda F: F().check("add").check("mul").check("return").run(TEXT),
    "out of order": lambda F: F().check("mul").check("add").run(TEXT),
    "missing": lambda F: F().check("sub").run(TEXT),
    "not between": lambda F: F().check("add").check_not("mul").check("return").run(TEXT),
    "not after": lambda F: F().check("add").check_not("mul").run(TEXT),
    "not before a match": lambda F: F().check_not("return").check("mul").run(TEXT),
    "not absent": lambda F: F().check("add").check_not("sub").run(TEXT),
    "next line": lambda F: F().check("add").check_next("mul").run(TEXT),
    "next too far": lambda F: F().check("add").check_next("return").run(TEXT),
    "same line": lambda F: F().check("%a").check_same("add").run(TEXT),
    "same fails": lambda F: F().check("add").check_same("mul").run(TEXT),
    "count": lambda F: F().check_count("%", 6).run(TEXT),
    "count short": lambda F: F().check_count("add", 2).run(TEXT),
    "count exactly": lambda F: F().check_count("%", 2, exactly=True).run(TEXT),
    "count exactly then check": lambda F: F().check_count("add", 1, exactly=True).check("return").run(TEXT),
    "regex": lambda F: F().check_regex(r"a.d\(").check_regex("m[u]l").run(TEXT),
    "regex missing": lambda F: F().check_regex("a.d").check_regex("zz+").run(TEXT),
    "dag any order": lambda F: F().check_dag("mul").check_dag("add").check("return").run(TEXT),
    "dag missing": lambda F: F().check_dag("mul").check_dag("sub").run(TEXT),
    "no checks": lambda F: F().run(TEXT),
    "not only": lambda F: F().check_not("x").run("abc"),
    "not only found": lambda F: F().check_not("b").run("abc"),
}


def _outcome(F, case):
    try:
        case(F)
    except Exception as e:          # noqa: BLE001 (the test compares any error)
        lines = str(e).strip().splitlines()
        return type(e).__name__, lines[0], lines[-1]
    return None


@pytest.mark.parametrize("name", sorted(CASES))
def test_outcome_matches_torch(name):
    torch = pytest.importorskip("torch")
    assert _outcome(gt.testing.FileCheck, CASES[name]) == \
        _outcome(torch.testing.FileCheck, CASES[name])


def test_check_not_points_at_the_match_as_torch():
    torch = pytest.importorskip("torch")
    messages = []
    for F in (gt.testing.FileCheck, torch.testing.FileCheck):
        with pytest.raises(RuntimeError) as caught:
            F().check("add").check_not("mul").run(TEXT)
        messages.append(str(caught.value))
    assert messages[0] == messages[1]
