"""``python -m tienlen serve|openapi|arena`` (same as the ``tienlen`` command)."""

from tienlen.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
