"""Dice reading: camera frames (numpy BGR arrays) in, dice readings out. OpenCV + numpy, no I/O.

``read(frame, params)`` runs the reader's stages, one module each: `vision.validate` (is this a
frame?), `vision.quick` (the fast path: a die detector, `vision.detect`, and a small CNN,
`vision.classify`, read the frame when sure of every die), else `vision.blobs` and `vision.pips`
(pip candidates in grey and red), `vision.faces` (pips grouped into faces by fitting the 3×3 pip
grid, which separates touching dice), `vision.ones` (lone pips that are ones), `vision.sides`
(side faces of the same die dropped), `vision.unread` (dice seen but not readable: value None);
their faces and the detector's proposals (`vision.candidates`) go to `vision.judge`, which keeps
what is likely a die and a value only when it is likely right; `vision.roi` (the throwing area).
`vision.annotate` draws a reading for people.

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
