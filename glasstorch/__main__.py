"""``python -m glasstorch script.py [args]``: run a PyTorch script unchanged on glasstorch.

``import torch`` in the script (and in whatever it imports) gives glasstorch; see
Note [Answering import torch] in torch_alias.py.
"""
import runpy
import sys

from .torch_alias import install


def main() -> None:
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__.strip().splitlines()[0].strip("`"))
        raise SystemExit(0 if len(sys.argv) >= 2 else 2)
    install()
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")


main()
