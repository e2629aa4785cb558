"""Allows `python -m device`."""

import sys

from device.cli import main

sys.exit(main())
