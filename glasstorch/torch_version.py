"""torch.torch_version: TorchVersion, the version string that compares as a version.

``torch.__version__ >= "2.1"`` and ``torch.__version__ < (2, 13)`` compare releases, not
characters: a TorchVersion is a str that parses both sides as PEP 440 versions. An
operand that is no version at all ("parrot") falls back to plain string comparison, and
one of another type (None, a float) is a TypeError, as with any str.
"""
from __future__ import annotations

import functools
import math
import re
from collections.abc import Iterable

__all__ = ["TorchVersion"]

# PEP 440's public grammar, normalised forms and their spelling variants (compiled on the
# first comparison: `import glasstorch` makes a TorchVersion but compares none)
_GRAMMAR = r"""
    v?(?:(?P<epoch>[0-9]+)!)?(?P<release>[0-9]+(?:\.[0-9]+)*)
    (?:[-_.]?(?P<pre_l>alpha|a|beta|b|preview|pre|c|rc)[-_.]?(?P<pre_n>[0-9]+)?)?
    (?:-(?P<post_n1>[0-9]+)|[-_.]?(?P<post_l>post|rev|r)[-_.]?(?P<post_n2>[0-9]+)?)?
    (?:[-_.]?(?P<dev_l>dev)[-_.]?(?P<dev_n>[0-9]+)?)?
    (?:\+(?P<local>[a-z0-9]+(?:[-_.][a-z0-9]+)*))?
"""
_PRE_RANK = {"a": 0, "alpha": 0, "b": 1, "beta": 1, "c": 2, "rc": 2, "pre": 2, "preview": 2}


@functools.cache
def _pattern() -> re.Pattern:
    return re.compile(_GRAMMAR, re.VERBOSE | re.IGNORECASE)


class InvalidVersion(ValueError):
    """A string that is not a PEP 440 version."""


def version_key(text: str) -> tuple:
    """The sort key of the PEP 440 version `text`: epoch, release (trailing zeros
    dropped), pre-release, post-release, dev-release, local label.

    Raises:
        InvalidVersion: `text` is not a version.
    """
    match = _pattern().fullmatch(text.strip())
    if match is None:
        raise InvalidVersion(f"Invalid version: '{text}'")
    release = [int(part) for part in match["release"].split(".")]
    while len(release) > 1 and release[-1] == 0:
        release.pop()
    post = match["post_n1"] or match["post_n2"] or ("0" if match["post_l"] else None)
    dev = match["dev_n"] or ("0" if match["dev_l"] else None)
    if match["pre_l"]:
        pre = (_PRE_RANK[match["pre_l"].lower()], int(match["pre_n"] or 0))
    else:                               # 1.0.dev0 < 1.0a0 < 1.0; 1.0 has no pre-release
        pre = (-1, 0) if dev is not None and post is None else (3, 0)
    local = tuple((1, int(part), "") if part.isdigit() else (0, 0, part.lower())
                  for part in re.split(r"[-_.]", match["local"])) if match["local"] else ()
    return (int(match["epoch"] or 0), tuple(release), pre,
            -1 if post is None else int(post), math.inf if dev is None else int(dev), local)


def _operand_key(other) -> tuple:
    """`other` (a version string, or an iterable of parts such as ``(2, 13)``) as a key."""
    if isinstance(other, str):
        return version_key(other)
    if isinstance(other, Iterable):
        return version_key(".".join(str(part) for part in other))
    raise InvalidVersion(other)


def _comparison(name: str):
    def compare(self, other):
        try:
            mine, theirs = version_key(self), _operand_key(other)
        except InvalidVersion:          # not versions: compare as the strings they are
            return getattr(str, name)(self, other)
        return getattr(tuple, name)(mine, theirs)
    compare.__name__ = name
    return compare


class TorchVersion(str):
    """A version string (``torch.__version__``) that compares with strings and tuples
    as versions.

    Example::

        >>> torch.__version__ >= (2, 1)
        True
    """

    __slots__ = ()
    __gt__ = _comparison("__gt__")
    __ge__ = _comparison("__ge__")
    __lt__ = _comparison("__lt__")
    __le__ = _comparison("__le__")
    __eq__ = _comparison("__eq__")
    __hash__ = str.__hash__
    # no __ne__ of its own: torch's TorchVersion keeps str's, so `!=` compares characters
