#!/usr/bin/env bash
# The test suite against the oldest supported dependencies (ci/constraints-oldest.txt), in a venv
# of its own (.venv-oldest, kept between runs), with OpenCV 4.8; then the reader's tests
# (ci/test-opencv.sh) with OpenCV 4.11, the newest that Bookworm's numpy 1.24 allows.
#   ci/test-oldest.sh [PYTEST ARGS...]      (PYTHON=python3.11 to choose the interpreter)
set -euo pipefail
cd "$(dirname "$0")/.."
venv=.venv-oldest
constraints=ci/constraints-oldest.txt
opencv_newer=4.11.0.86
python="${PYTHON:-python3}"

stamp="$venv/.installed-$(cat pyproject.toml "$constraints" | sha256sum | cut -c1-16)"
if [ ! -e "$stamp" ]; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
        --constraint "$constraints" -e '.[dev]'
    touch "$stamp"
fi

"$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
    "opencv-python-headless==$(grep -oP '^opencv-python-headless==\K.*' "$constraints")"
PYGAME_HIDE_SUPPORT_PROMPT=1 "$venv/bin/python" -c 'import cv2, numpy, PIL, pygame
print("test-oldest: numpy", numpy.__version__, "OpenCV", cv2.__version__, "Pillow",
      PIL.__version__, "pygame-ce", pygame.version.ver)'
status=0
"$venv/bin/python" -m pytest -p no:cacheprovider "$@" || status=1
ci/test-opencv.sh "$venv" "$opencv_newer" || status=1
exit "$status"
