"""The only package that touches devices: cameras, buttons and displays, each behind a Protocol.

Open a backend by name: `open_camera`, `open_buttons`, `open_display` / `open_displays`.
Screens draw a `TableView` (hardware.view), which the device fills from the engine's state.
"""

from hardware.buttons import Button, ButtonEvent, Buttons, open_buttons
from hardware.camera import Camera, Frame, open_camera
from hardware.display import Display, MultiDisplay, open_display, open_displays
from hardware.errors import (
    BackendMissing,
    ButtonsUnavailable,
    CameraUnavailable,
    DisplayUnavailable,
    InvalidBackendOption,
    InvalidOption,
    ReplayEnded,
    UnknownBackend,
)
from hardware.view import OptionView, Phase, PlayerView, TableView

__all__ = [
    "BackendMissing",
    "Button",
    "ButtonEvent",
    "Buttons",
    "ButtonsUnavailable",
    "Camera",
    "CameraUnavailable",
    "Display",
    "DisplayUnavailable",
    "Frame",
    "InvalidBackendOption",
    "InvalidOption",
    "MultiDisplay",
    "OptionView",
    "Phase",
    "PlayerView",
    "ReplayEnded",
    "TableView",
    "UnknownBackend",
    "open_buttons",
    "open_camera",
    "open_display",
    "open_displays",
]
