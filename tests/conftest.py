"""Set-up shared by every test folder: SDL without a screen, gpiozero's mock pins."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from hypothesis import settings

# Property tests draw the same examples on every run, so a test that passed cannot fail at random
# in CI; `HYPOTHESIS_PROFILE=explore` draws new ones to look for counterexamples.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))

# Tests never open a real window, even on a desktop.
os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


@pytest.fixture
def mock_factory() -> Iterator[object]:
    """gpiozero's MockFactory as the default pin factory for the test."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    saved = Device.pin_factory
    factory = MockFactory()
    Device.pin_factory = factory
    yield factory
    factory.reset()
    Device.pin_factory = saved
