"""``python -m hookgrad``: the ``hookgrad`` command (``python -m hookgrad run script.py``)."""
from .cli import main

if __name__ == '__main__':
    raise SystemExit(main())
