"""The buttons while the players correct the dice as read: `CorrectionFlow`, part of `Controller`.

A long press on STOP (CORRECT) opens a `Correction` of the throw just counted (until keeps are
chosen, the turn is banked or the dice are thrown again) or of a reading refused for unreadable,
extra or missing dice (a missed die is added as an unknown die to set); SELECT moves to the next
die, ROLL steps its value, STOP confirms and CORRECT again cancels. A confirmed correction is
stored with the throw and the game replays with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from device.correction import NOT_A_DIE, Correction, Point
from device.menu import MenuItem
from device.photos import PhotoKeeper
from device.prompts import dice_text
from device.view import Overlay
from engine.events import Event, Thrown
from engine.state import GameState
from hardware.buttons import Button

__all__ = ["CorrectionFlow"]


class CorrectionFlow:
    """The correction's button handling, mixed into `Controller` (which provides the rest)."""

    corrected_by: str
    _correction: Correction | None
    _refused: tuple[int | None, ...] | None
    _refused_likely: tuple[int | None, ...]
    _read: tuple[int | None, ...] | None
    _read_likely: tuple[int | None, ...]
    _drawn: bool
    _menu: tuple[MenuItem, ...]
    overlay: Overlay
    photos: PhotoKeeper | None

    @property
    def state(self) -> GameState:
        raise NotImplementedError

    def _say(self, message: str) -> None:
        raise NotImplementedError

    def _tell(self, message: str) -> None:
        raise NotImplementedError

    def _throw(
        self,
        name: str,
        values: tuple[int, ...],
        *events: Event,
        before: GameState | None = None,
    ) -> bool:
        raise NotImplementedError

    def _open_correction(self) -> None:
        state, player = self.state, self.state.current_player
        faces = state.rules.faces
        if self._menu:
            self._say("close the menu first (hold SELECT)")
        elif self._refused is not None and player is not None:
            self._correction = Correction.of(
                player.name,
                self._refused,
                replaces=False,
                faces=faces,
                likely=self._refused_likely,
            )
        elif state.open_throw is None:
            self._say("nothing to correct: the table has moved on since the last throw")
        elif self._drawn:
            self._say("nothing to correct: the computer's dice were drawn, not read")
        else:
            last = state.open_throw
            read = self._read if self._read is not None else last.dice
            likely = self._read_likely if self._read is not None else ()
            self._correction = Correction.of(
                last.player, read, replaces=True, faces=faces, start=last.dice, likely=likely
            )
        if self._correction is not None:
            self._tell(self._correction.status())

    def correct_to(
        self, values: Sequence[int | None], by: str, *, at: Sequence[Point | None] = ()
    ) -> None:
        """Correct the dice at once to ``values`` (`NOT_A_DIE`: not a die), as opening the
        correction, setting each die and confirming would; ``by`` is stored as who corrected.
        ``at`` gives, for each die or none, where the players pointed at a die the reader missed
        (the kept photo labels it there, `device.photos`)."""
        if self._correction is not None:
            self._say("the dice are being corrected at the table: finish there first")
            return
        self._open_correction()
        correction = self._correction
        if correction is None:
            return
        if len(values) != len(correction.values):
            self._correction = None
            self._say(
                f"{len(values)} values given for {dice_text(len(correction.values))}: "
                "one value a die, 0 for not a die"
            )
            return
        seen = len(self.overlay.boxes)
        for index, point in enumerate(at):
            if point is not None and (index < seen or values[index] == NOT_A_DIE):
                self._correction = None
                self._say(f"die {index + 1}: a point on the picture is for a die the reader missed")
                return
        self._confirm_correction(replace(correction, values=tuple(values)), by=by, at=at)
        if self._correction is not None:  # refused: the table is not left correcting
            self._correction = None

    def _correction_press(self, button: Button) -> None:
        correction = self._correction
        assert correction is not None
        if button is Button.SELECT:
            self._correction = correction.next_die()
        elif button is Button.ROLL:
            self._correction = correction.step()
        elif button is Button.STOP:
            self._confirm_correction(correction)
            return
        else:  # CORRECT again (or the menu): leave the dice as they were
            self._correction = None
            self._tell("correction cancelled: the dice stand as they were")
            return
        self._tell(self._correction.status())

    def _confirm_correction(
        self, correction: Correction, *, by: str = "", at: Sequence[Point | None] = ()
    ) -> None:
        state = self.state
        last = state.open_throw
        if correction.replaces and last is None:  # cannot happen: nothing advances meanwhile
            self._correction = None
            self._say("nothing to correct: the table has moved on since the last throw")
            return
        expected = len(last.dice) if correction.replaces and last else state.dice_to_throw
        problem = correction.problem(expected)
        if problem:
            self._say(problem)
            return
        self._correction = None
        if not correction.is_changed:
            self._tell("the dice stand as they were")
            return
        dice, name = correction.dice, correction.player
        stored = correction.event(by or self.corrected_by)
        if correction.replaces and last is not None:
            counted = self._throw(name, dice, stored, before=last.before)
        else:
            counted = self._throw(name, dice, Thrown(name, dice), stored)
        if counted:
            self._read, self._read_likely = correction.read, correction.likely
            self._drawn = False
            if self.photos is not None:
                self.photos.corrected(correction, self.state, at=at)
            said = self.overlay.message
            self._tell(f"corrected to {' '.join(map(str, dice))}" + (f": {said}" if said else ""))
