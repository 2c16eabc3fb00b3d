"""``python -m sfmlearn`` runs the command line, exactly like ``sfmlearn``."""

from .cli import main

raise SystemExit(main())
