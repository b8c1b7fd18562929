"""Write glasstorch/_dynamo/inductor_options.txt: the options torch.compile accepts.

Run with torch installed (``python tools/inductor_options.py``); glasstorch keeps the
file and never imports torch. torch.compile(options=...) checks each key against the
inductor configuration and the value against the key's declared type; the file holds,
in torch's order, one line per option: its name, the declared type when torch checks
it (a plain class; "-" for the generic annotations torch does not check), and the type
of its default (which torch's message names).
"""
import pathlib
import typing

import torch
import torch._inductor.config as config

OUTPUT = pathlib.Path(__file__).resolve().parent.parent / "glasstorch" / "_dynamo" / "inductor_options.txt"


def main() -> None:
    lines = []
    for name, default in config.get_config_copy().items():
        declared = config.get_type(name)
        checked = declared.__name__ if typing.get_origin(declared) is None and isinstance(declared, type) else "-"
        lines.append(f"{name}\t{checked}\t{type(default).__name__}")
    OUTPUT.write_text("# written by tools/inductor_options.py from torch "
                      f"{torch.__version__}: name, checked type, default's type\n"
                      + "\n".join(lines) + "\n")
    print(f"{len(lines)} options -> {OUTPUT}")


if __name__ == "__main__":
    main()
