"""What the table says: the prompt line for each moment, and the messages for a refused throw."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from device.menu import MenuItem
from engine.rules import Rules
from engine.scoring import score_throw
from engine.state import GameState, Phase

__all__ = [
    "CORRECTING_PROMPT",
    "bust_message",
    "count_message",
    "dice_text",
    "prompt_for",
    "unreadable_message",
]

CORRECTING_PROMPT = "SELECT: next die  ROLL: change  STOP: done  hold STOP: cancel"


def prompt_for(
    state: GameState,
    awaiting: bool,
    computers: Mapping[str, str],
    menu: Sequence[MenuItem],
    *,
    correcting: bool = False,
    virtual: bool = True,
    simulated: bool = False,
    rolled: bool = False,
) -> str:
    """What to do now, in one short line.

    ``virtual``: computer players' dice are drawn on the screen (else a person throws them);
    ``simulated``: the camera is simulated and throws every die itself, a person's once they
    pressed ROLL (``rolled``).
    """
    if menu:
        return "SELECT: next  ROLL: choose  STOP: close"
    if correcting:
        return CORRECTING_PROMPT
    if state.phase is Phase.OVER:
        return "ROLL: new game"
    player = state.current_player
    if player is None:
        return "hold SELECT for the menu: add players"
    n = state.dice_to_throw
    if state.phase is Phase.THROW or (state.phase is Phase.DECIDE and awaiting):
        if player.name in computers and virtual:
            return f"{player.name} (computer) throws {dice_text(n)} on the screen"
        if simulated and player.name not in computers and not rolled:
            return f"ROLL: {player.name} throws {dice_text(n)}"
        if simulated:
            return f"the simulated camera throws {dice_text(n)} for {player.name}"
        if player.name in computers:
            return f"throw {dice_text(n)} for {player.name} (computer)"
        return f"{player.name}: throw {dice_text(n)}"
    if state.phase is Phase.KEEP:
        return "SELECT: next keep  ROLL: keep+throw  STOP: keep+bank"
    if state.phase is Phase.DECIDE:
        return f"ROLL: throw {n}  STOP: bank {state.turn.total}"
    passed = state.passed
    if passed is not None:
        fresh = state.rules.dice
        return f"ROLL: take {dice_text(passed.dice)} +{passed.points}  STOP: throw {fresh} fresh"
    return ""


def dice_text(n: int) -> str:
    return "1 die" if n == 1 else f"{n} dice"


def count_message(expected: int, seen: int) -> str:
    """Why a reading of ``seen`` dice was refused when ``expected`` were thrown, and the ways out:
    too many, take the kept dice out; too few, throw all again or hold STOP to set the dice the
    reader missed."""
    if seen > expected:
        fix = "take the kept dice out of the tray"
    else:
        missing = "the missing one" if expected - seen == 1 else "the missing ones"
        fix = f"throw all {expected}, or hold STOP to set {missing}"
    return f"expected {dice_text(expected)}, I see {seen} — {fix}"


def unreadable_message(count: int) -> str:
    if count == 1:
        return "1 die could not be read — hold STOP to set it or throw it again (cocked or covered)"
    return (
        f"{count} dice could not be read — hold STOP to set them or throw them again (cocked or "
        "covered)"
    )


def bust_message(rules: Rules, name: str, values: tuple[int, ...], lost: int) -> str:
    """Why ``name``'s throw of ``values`` lost the turn: a wipe-out (the whole score goes too),
    nothing scores, or a first throw that scores but not the entry minimum ("a first throw must
    score 300 to enter")."""
    dice = " ".join(map(str, values))
    if rules.holds(tuple(values), rules.wipe_out):
        said = f"{name} busts with {dice}: that loses the whole score"
        return said + (f" and the turn's {lost}" if lost else "")
    if score_throw(rules, values).best_keep is not None:
        reason = f"a first throw must score {rules.entry_threshold} to enter"
    else:
        reason = "nothing scores"
    return f"{name} busts with {dice}: {reason}" + (f", {lost} lost" if lost else "")
