#!/usr/bin/env bash
# The reader's tests (tests/vision and the table's adaptation, tests/device/test_adapt.py: the
# networks, adapt, the judge, the fast path) in the venv VENV with each OpenCV given in turn, then
# the venv's own OpenCV put back. OpenCV is the dependency whose releases change the networks'
# engines; the rest of the suite runs on the lock, the oldest and the newest sets.
#   ci/test-opencv.sh VENV VERSION [VERSION ...]
set -euo pipefail
cd "$(dirname "$0")/.."
venv="$1"
shift
pip=("$venv/bin/python" -m pip --quiet --disable-pip-version-check)
own="$("$venv/bin/python" -c 'from importlib import metadata; print(metadata.version("opencv-python-headless"))')"
status=0
for opencv in "$@"; do
    "${pip[@]}" install --no-deps "opencv-python-headless==$opencv"
    "$venv/bin/python" -c 'import cv2, numpy; print("test-opencv: OpenCV", cv2.__version__, "numpy", numpy.__version__)'
    "$venv/bin/python" -m pytest -p no:cacheprovider tests/vision tests/device/test_adapt.py || status=1
done
"${pip[@]}" install --no-deps "opencv-python-headless==$own"
exit "$status"
