"""``python -m bench``: the same as ``python bench/run.py``."""
from .run import main

raise SystemExit(main())
