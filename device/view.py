"""Engine state + the controller's table state -> the `TableView` every display draws."""

from __future__ import annotations

from dataclasses import dataclass

from device.correction import guesses
from engine.players import TurnOutcome
from engine.state import GameState, Phase
from hardware.view import FrameBox, OptionView, PlayerView, TableView
from hardware.view import Phase as ViewPhase

__all__ = ["Overlay", "table_view"]


@dataclass(frozen=True, slots=True)
class Overlay:
    """What the controller adds to the engine's state: the tray, prompts, messages, the menu.

    ``tray`` is what lies in the tray now (None for a tumbling die); ``rolling`` that dice are in
    the air; ``bust`` that the last throw lost the turn (shown until the next throw). While the
    dice are corrected, ``cursor`` is the die being set and ``struck`` the dice marked "not a die".
    ``likely`` is, parallel to ``tray``, the likeliest value of each die the reader could not read
    (None: no guess); only the dice of ``tray`` that are None, lying still and not struck show it.
    ``tray_label`` says whose dice lie in the tray when they are not the current player's;
    ``last_turn`` how the previous turn ended, shown through the next one. ``web`` is the web
    scoreboard's address and ``pair_code`` the code that gives a phone control (`device.web`).
    ``review`` the players' accuracy and biggest swing at the end of a game (`TableView.review`).
    ``keys`` the key beside each button word when the buttons are keys (`TableView.keys`).
    ``boxes`` the boxes of the dice of ``tray`` the reader saw (`TableView.boxes`).
    """

    tray: tuple[int | None, ...] = ()
    rolling: bool = False
    bust: bool = False
    selected: int = 0
    prompt: str = ""
    message: str = ""
    alert: bool = False
    remark: str = ""
    hint: str = ""
    menu: tuple[str, ...] = ()
    menu_selected: int = 0
    frame: int = 0
    computers: frozenset[str] = frozenset()
    cursor: int | None = None
    struck: frozenset[int] = frozenset()
    tray_label: str = ""
    last_turn: str = ""
    web: str = ""
    pair_code: str = ""
    likely: tuple[int | None, ...] = ()
    keys: tuple[tuple[str, str], ...] = ()
    review: tuple[tuple[str, str], ...] = ()
    boxes: tuple[FrameBox, ...] = ()


def table_view(state: GameState, overlay: Overlay) -> TableView:
    """The view of ``state`` with ``overlay``: players, dice, options, prompt and messages."""
    players = tuple(
        PlayerView(
            name=p.name,
            total=p.total,
            history=tuple(record.total for record in p.history),
            is_computer=p.name in overlay.computers,
            has_entered=p.has_entered or state.rules.entry_threshold == 0,
        )
        for p in state.players
    )
    correcting = overlay.cursor is not None and not overlay.menu
    options = () if correcting else tuple(OptionView(k.dice, k.score) for k in state.options)
    struck = overlay.struck if correcting else frozenset()
    dice, tray_label = _six_sided(overlay.tray), overlay.tray_label
    likely = () if overlay.rolling else _guesses(overlay.tray, overlay.likely, struck)
    boxes = overlay.boxes if len(overlay.boxes) <= len(dice) and not overlay.rolling else ()
    passed = state.passed
    if state.phase is Phase.PASS and passed is not None and not correcting:
        dice, likely, boxes = (None,) * passed.dice, (), ()
        count = "1 die" if passed.dice == 1 else f"{passed.dice} dice"
        tray_label = f"{passed.player} passes {count} worth {passed.points}"
    owner = next(  # the dice of a turn that ended: whose they are
        (i for i, p in enumerate(state.players) if tray_label == f"{p.name}'s throw"), None
    )
    winner = None
    if state.phase is Phase.OVER and state.winners:
        winner = state.players.index(state.winners[0])
    return TableView(
        title="dicekeeper",
        rules=state.rules.name,
        players=players,
        current=state.current,
        phase=_phase(state, overlay),
        dice=dice,
        likely=likely,
        tray_label=tray_label,
        last_turn=overlay.last_turn,
        kept=tuple(v for v in state.turn.set_aside if 1 <= v <= 6),
        turn_total=state.turn.total,
        options=options,
        selected=overlay.selected if 0 <= overlay.selected < len(options) else 0,
        prompt=overlay.prompt,
        message=overlay.message,
        alert=overlay.alert,
        remark=overlay.remark,
        winner=winner,
        hint=overlay.hint,
        review=overlay.review,
        target=state.rules.target,
        menu=overlay.menu,
        menu_selected=overlay.menu_selected if overlay.menu else 0,
        frame=overlay.frame,
        cursor=overlay.cursor if correcting else None,
        struck=struck,
        boxes=boxes,
        web=overlay.web,
        pair_code=overlay.pair_code,
        keys=overlay.keys,
        tray_owner=owner if owner != state.current else None,
    )


def _phase(state: GameState, overlay: Overlay) -> ViewPhase:
    if overlay.menu:
        return ViewPhase.MENU
    if overlay.cursor is not None:
        return ViewPhase.CORRECTING
    if state.phase is Phase.OVER:
        return ViewPhase.GAME_OVER
    if not state.players:
        return ViewPhase.SETUP
    if overlay.rolling:
        return ViewPhase.ROLLING
    if overlay.bust:
        return ViewPhase.BUST
    if state.phase in (Phase.KEEP, Phase.DECIDE):
        return ViewPhase.CHOOSING
    return ViewPhase.WAITING


def _six_sided(values: tuple[int | None, ...]) -> tuple[int | None, ...]:
    # The screens draw six-sided dice; the appliance only plays rule sets with six faces.
    return tuple(v if v is None or 1 <= v <= 6 else None for v in values)


def _guesses(
    tray: tuple[int | None, ...], likely: tuple[int | None, ...], struck: frozenset[int]
) -> tuple[int | None, ...]:
    """``likely`` fitted to ``tray`` (`device.correction.guesses`), with no guess for a die
    struck; () when no die has one."""
    fitted = tuple(
        None if index in struck else guess for index, guess in enumerate(guesses(tray, likely))
    )
    return fitted if any(g is not None for g in fitted) else ()


def last_turn_text(state: GameState) -> str:
    """One line about the turn that just ended ("Ann banks 350", "Bob busts"), or ""."""
    if state.last_turn is None:
        return ""
    name, record = state.last_turn
    if record.outcome is TurnOutcome.BUST:
        return f"{name} busts"
    if record.outcome is TurnOutcome.SKIPPED:
        return f"{name} skips the turn"
    return f"{name} banks {record.points} (total {record.total})"
