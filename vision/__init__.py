"""Dice reading: camera frames (numpy BGR arrays) in, dice readings out. OpenCV + numpy, no I/O.

Also holds the synthetic tray renderer that the simulated camera uses.
"""

from vision.errors import InvalidFrame
from vision.params import ReaderParams
from vision.reader import read
from vision.types import Box, DieReading, Frame, Reading

__all__ = ["Box", "DieReading", "Frame", "InvalidFrame", "ReaderParams", "Reading", "read"]
