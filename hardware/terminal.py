"""The plain-text display for a machine with no screen: `render_text` and `TerminalDisplay`."""

from __future__ import annotations

import sys
from typing import IO

from hardware.backends import Closing
from hardware.view import Phase, TableView


def _face(view: TableView, index: int) -> str:
    """Die ``index`` as text: its value, ``?`` not known, ``?5`` not read but likeliest 5."""
    value = view.dice[index]
    if value is not None:
        return str(value)
    guess = view.guess(index)
    return "?" if guess is None else f"?{guess}"


def _dice_text(view: TableView) -> str:
    return " ".join(f"[{_face(view, index)}]" for index in range(len(view.dice)))


def _correcting_text(view: TableView) -> str:
    """The dice being corrected: ``>4<`` the die being set, ``[x]`` not a die, ``[?]`` unknown
    (``[?5]``: not read, likeliest 5)."""
    shown = []
    for index in range(len(view.dice)):
        face = "x" if index in view.struck else _face(view, index)
        shown.append(f">{face}<" if index == view.cursor else f"[{face}]")
    return "correct the dice: " + " ".join(shown)


def _review_lines(view: TableView) -> list[str]:
    """At the end of a game, a line per player: the accuracy of their decisions and their
    biggest swing, once the review is made."""
    lines = []
    for player, (accuracy, swing) in zip(view.players, view.review, strict=False):
        if accuracy:
            biggest = f", biggest swing {swing}" if swing else ""
            lines.append(f"    {player.name}: accuracy {accuracy}{biggest}")
    return lines


def render_text(view: TableView) -> str:
    """``view`` as a few lines of plain text (no trailing newline)."""
    heading = " · ".join(part for part in (view.title, view.rules) if part)
    lines = [f"== {heading} =="]
    web = [
        f"phones: {view.web}" if view.web else "",
        f"code {view.pair_code}" if view.pair_code else "",
    ]
    if any(web):
        lines.append("  ".join(part for part in web if part))
    width = max((len(p.name) for p in view.players), default=0) + 6
    for index, player in enumerate(view.players):
        marker = ">" if index == view.current else " "
        name = player.name + (" (cpu)" if player.is_computer else "")
        notes = []
        if not player.has_entered:
            notes.append("not on the board yet")
        if index == view.winner:
            notes.append("WINNER")
        lines.append(f"{marker} {name:<{width}} {player.total:>6}  {', '.join(notes)}".rstrip())
    if view.phase is Phase.MENU:
        lines.append("MENU")
        lines.extend(
            f"{'>' if i == view.menu_selected else ' '} {item}" for i, item in enumerate(view.menu)
        )
    else:
        current = view.current_player
        if current is not None and view.winner is None:
            kept = f"   kept {' '.join(map(str, view.kept))}" if view.kept else ""
            lines.append(f"{current.name}'s turn: {view.turn_total} this turn{kept}")
        if view.phase is Phase.CORRECTING:
            lines.append(_correcting_text(view))
        elif view.dice:
            rolling = "  (rolling)" if view.phase is Phase.ROLLING else ""
            whose = f" ({view.tray_label})" if view.tray_label else ""
            lines.append(f"dice{whose}: {_dice_text(view)}{rolling}")
        if view.options:
            lines.append(
                "keep: "
                + "   ".join(
                    f"{'>' if i == view.selected else ' '}{''.join(map(str, o.dice))} = {o.score}"
                    for i, o in enumerate(view.options)
                )
            )
    if view.phase is Phase.BUST:
        lines.append(f"BUST! {view.turn_total} points lost" if view.turn_total else "BUST!")
    winner = view.winner_player
    if winner is not None:
        lines.append(f"*** {winner.name} wins with {winner.total} ***")
        lines.extend(_review_lines(view))
    if view.remark:
        speaker = view.current_player.name if view.current_player else "computer"
        lines.append(f'{speaker}: "{view.remark}"')
    if view.last_turn and view.last_turn != view.message and view.winner is None:
        lines.append(f"last turn: {view.last_turn}")
    if view.message:
        message = view.with_keys(view.message)
        lines.append(f"! {message}" if view.alert else f"* {message}")
    lines.extend(f"  {check}" for check in view.checks)
    if view.hint:
        lines.append(f"hint: {view.hint}")
    if view.prompt:
        lines.append(view.with_keys(view.prompt))
    return "\n".join(lines)


class TerminalDisplay(Closing):
    """Prints each new view as text to ``stream`` (stdout), skipping views that print the same."""

    def __init__(self, *, stream: IO[str] | None = None) -> None:
        self._stream = sys.stdout if stream is None else stream
        self._last = ""
        self._is_closed = False

    def show(self, view: TableView) -> None:
        """Print ``view`` if its text changed."""
        if self._is_closed:
            return
        text = render_text(view)
        if text != self._last:
            self._last = text
            self._stream.write(text + "\n\n")
            self._stream.flush()

    def close(self) -> None:
        """Stop printing (idempotent; the stream stays open: it is not ours)."""
        self._is_closed = True
