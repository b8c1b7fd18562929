"""Run one expression against a torch module and describe what happened, so that a
differential test compares glasstorch's answer or refusal with torch's in one assert."""
from __future__ import annotations

import warnings


def outcome(expression: str, torch_module, **names) -> tuple:
    """("ok", repr of the value) or (exception type name, message) of `expression`, with
    `torch` bound to `torch_module` (and any other `names`); warnings are silenced (tests
    check them apart)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = eval(expression, {"torch": torch_module, **names})
        except Exception as error:              # noqa: BLE001 (any refusal is an outcome)
            return type(error).__name__, _first_sentences(str(error))
    return "ok", _describe(value)


def _first_sentences(message: str) -> str:
    """A message's first line, less what torch's dispatcher adds after its first sentence
    (a pointer for mobile builds and its list of registered backends); a module named in
    it is named as torch names its own (`glasstorch.backends` reads `torch.backends`)."""
    first = message.split("\n")[0].split(" If you are a Facebook employee")[0]
    return first.replace("module 'glasstorch.", "module 'torch.")


def _describe(value) -> str:
    """A value's text, with the parts that differ between the libraries left out."""
    if value is None or isinstance(value, (bool, int, float, str, tuple, list, dict)):
        return repr(value)
    if type(value).__name__ == "dtype" or type(value).__name__ == "device":
        return str(value)
    return type(value).__name__
