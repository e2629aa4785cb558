"""Stage 3: keep only dice whose centre lies inside the throwing area (a polygon)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.params import Polygon


def is_inside(point: tuple[float, float], roi: Polygon | None) -> bool:
    """Whether ``point`` (x, y) lies inside or on the polygon ``roi`` (always True for None)."""
    if roi is None:
        return True
    if len(roi) < 3:
        return False
    contour = np.array(roi, dtype=np.float32).reshape(-1, 1, 2)
    return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0
