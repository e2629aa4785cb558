"""Dice reading: camera frames (numpy BGR arrays) in, dice readings out. OpenCV + numpy, no I/O.

``read(frame, params)`` runs the reader's stages, one module each: `vision.validate` (is this a
frame?), `vision.blobs` and `vision.pips` (pip candidates in grey and red), `vision.faces` (pips
grouped into faces by fitting the 3×3 pip grid, which separates touching dice), `vision.ones`
(lone pips that are ones), `vision.sides` (side faces of the same die dropped), `vision.unread`
(dice seen but not readable: value None), `vision.verify` (every die re-read, `vision.looks`, and
missed dice found around stray pips and where the frame stands out from the tray,
`vision.search` and `vision.standout`, by a small CNN, `vision.classify`), `vision.roi` (the
throwing area). `vision.annotate` draws a reading for people.

Also holds the synthetic tray renderer that the simulated camera uses.
"""

from vision.errors import InvalidFrame, InvalidParams
from vision.params import ReaderParams
from vision.reader import read
from vision.types import Box, DieReading, Frame, Reading

__all__ = [
    "Box",
    "DieReading",
    "Frame",
    "InvalidFrame",
    "InvalidParams",
    "ReaderParams",
    "Reading",
    "read",
]
