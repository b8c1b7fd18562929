"""torch.cuda's compute-capability tables and classproperty, against torch's."""
import pytest

import glasstorch as gt

torch = pytest.importorskip("torch")


def test_device_requirement_prints_and_answers_as_torchs():
    ours, theirs = gt.cuda.DEVICE_REQUIREMENT, torch.cuda.DEVICE_REQUIREMENT
    assert list(ours) == list(theirs)
    for code_cc in ours:
        assert str(ours[code_cc]) == str(theirs[code_cc])
        for device_cc in range(40, 130):
            assert (device_cc in ours[code_cc]) == (device_cc in theirs[code_cc])


def test_release_table_is_torchs():
    assert gt.cuda.PYTORCH_RELEASES_CODE_CC == torch.cuda.PYTORCH_RELEASES_CODE_CC


def test_classproperty_reads_on_class_and_instance():
    answers = []
    for lib in (gt, torch):
        class Holder:
            @lib.cuda.classproperty
            def kind(cls):
                return cls.__name__
        answers.append((Holder.kind, Holder().kind))
    assert answers[0] == answers[1] == ("Holder", "Holder")
