"""The table state machine: buttons and the camera in, engine events out, the view to the displays.

`Controller.step(now)` is one pass of the main loop with an injected clock: it handles the button
presses since the last step, reads one camera frame when a throw is expected, lets a computer
player act when its time has come, and shows the table. Nothing here sleeps.

At the table: the screen asks the current player to throw; the camera sees the dice settle; the
number of dice must be the number the rules expect (else "expected 3 dice, I see 4 — take the kept
dice out of the tray") and every die must be readable (else those dice are thrown again). Then
SELECT cycles the legal keeps (best first), ROLL keeps the selection and asks for the rest to be
thrown, STOP banks. Under passing rules ROLL takes the passed dice and STOP throws fresh. A long
press on SELECT opens the menu (`device.menu`). A long press on STOP (CORRECT) corrects the dice as
read (`device.correction`; its buttons in `device.correction_flow`): the throw just counted,
until keeps are chosen, the turn is banked or the dice are thrown again, or a reading refused for
unreadable, extra or missing dice (a die the reader missed is added as an unknown die to set).
Every change goes through `Session.apply`, which stores the events before the screen shows them; a
refused request or a full disk leaves a message and changes nothing.

With the simulated camera a person's throw waits for ROLL (the press is the hand that throws);
computer players' throws go by themselves. A player added during a turn waits in `joining` and
takes a seat when the next round (or game) starts.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from device.adaptation import TableAdapter
from device.calibration_flow import CalibrationFlow
from device.computer import find_computer, personalities
from device.correction import NOT_A_DIE, Correction
from device.correction_flow import CorrectionFlow
from device.hints import Advisor
from device.menu import Action, MenuItem, finished_count, history_items, main_menu, submenu
from device.photos import PhotoKeeper
from device.prompts import (
    bust_message,
    count_message,
    dice_text,
    prompt_for,
    unreadable_message,
)
from device.review import TableReview
from device.session import Seat, Session, rules_for
from device.store import StoreError
from device.view import Overlay, last_turn_text, table_view
from device.watcher import ThrowWatcher
from engine.dice import Throw
from engine.errors import DicekeeperError, IllegalRequest, InvalidThrow, WrongPhase
from engine.events import (
    Banked,
    Event,
    Kept,
    PassDeclined,
    PassTaken,
    PlayerAdded,
    PlayerRemoved,
    Thrown,
)
from engine.players import TurnOutcome
from engine.rules import Rules, rules_names
from engine.state import GameState, Phase, apply
from engine.strategy_core import Strategy
from hardware.buttons import Button, Buttons
from hardware.display import Display
from hardware.simulated_camera import SimulatedCamera
from hardware.view import FrameBox, TableView
from vision.params import ReaderParams
from vision.settle import SettleState
from vision.types import Reading

__all__ = ["Controller", "TableSettings"]

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class TableSettings:
    """How the table behaves: who the menu offers, computer throws, and computer pacing (s)."""

    people: tuple[str, ...] = ()
    computers: tuple[str, ...] = ("expert",)
    computers_throw_virtual: bool = True
    think_seconds: float = 1.0
    roll_seconds: float = 1.0
    target: int = 0
    hints: bool = False


class Controller(CorrectionFlow):
    """The appliance: one `Session`, a `ThrowWatcher`, the buttons and the displays."""

    def __init__(
        self,
        session: Session,
        *,
        watcher: ThrowWatcher,
        buttons: Buttons,
        display: Display,
        settings: TableSettings = TableSettings(),
        rng: random.Random | None = None,
        find_strategy: Callable[[str], Strategy] = find_computer,
        on_event: Callable[[Event], None] | None = None,
    ) -> None:
        self.session = session
        self.watcher = watcher
        self.buttons = buttons
        self.display = display
        self.settings = settings
        self.rng = rng or random.Random()
        self._find_strategy = find_strategy
        self.on_event = on_event
        """Called with each event once it is stored and applied (e.g. to log or measure)."""
        self._strategies: dict[str, Strategy] = {}
        self.overlay = Overlay(
            message=session.notice or session.store.notice,
            tray=_tray_on_resume(session.state),
            keys=tuple(getattr(buttons, "keys", ())),  # keyboard keys: shown beside the words
        )
        self.is_shut_down = False
        self.wants_power_off = False
        """The menu's "Shut down" was chosen (not just the quit key)."""
        self._awaiting_throw = self._resumes_throw()  # DECIDE: ROLL chosen, rest to be thrown
        self._rolled = False  # a person pressed ROLL: the simulated camera throws for them
        self.joining: list[Seat] = []
        """Players who asked to join during a turn: seated at the start of the next round."""
        self._expecting: tuple[int, int] | None = None  # (event count, dice) the watcher waits for
        self._roll_until: float | None = None  # a virtual throw is tumbling until then
        self._act_at: float | None = None  # when the computer player decides
        self._menu: tuple[MenuItem, ...] = ()
        self._events = 0  # counts accepted requests, so a new throw re-arms the watcher
        self._camera_trouble = False  # the message shows a camera error
        self.last_view: TableView | None = None
        self.hints = settings.hints
        """Whether people get a hint line (what `expert` would do); switched in the menu."""
        self._advisor = Advisor("expert", find=find_strategy)
        self.display_error = ""
        """The last display failure (logged once; the other displays carry on)."""
        self.on_refused: Callable[[Reading], None] | None = None
        """Called with each settled reading refused (wrong count or unreadable dice)."""
        self.corrected_by = str(getattr(buttons, "source", "buttons"))
        """Who corrects through these buttons, as stored in the correction ("buttons", ...)."""
        self._correction: Correction | None = None  # the dice being corrected
        self._refused: tuple[int | None, ...] | None = None  # a refused reading one may correct
        self._refused_likely: tuple[int | None, ...] = ()  # its unread dice's likeliest values
        self._read: tuple[int | None, ...] | None = None  # the reading of the throw just counted
        self._read_likely: tuple[int | None, ...] = ()  # its unread dice's likeliest values
        self._drawn = False  # the throw just counted was drawn (a virtual throw), not read
        self.photos: PhotoKeeper | None = None
        """Keeps the frames of the read throws that counted as labelled photos (`device.photos`)."""
        self.adapter: TableAdapter | None = None
        """Adapts the reader to the kept photos from the menu (`device.adaptation`)."""
        self.reviewer: TableReview | None = None
        """The review at the table: the players' accuracy at the end of a game and, with
        ``[review] after_turn``, a "best was ..." after each turn (`device.review`)."""
        self.inbox: Callable[[float], None] | None = None
        """Called at each step, after the buttons, to apply requests from elsewhere (the web)."""
        self.refusals = 0
        """Counts the problems shown (`_say`), so a request can tell it was refused."""
        self._calibration: CalibrationFlow | None = None  # the menu's "Calibrate camera"
        self.on_calibrated: Callable[[ReaderParams], None] | None = None
        """Called with the reader's parameters once the menu's calibration is saved."""

    # --- the loop ----------------------------------------------------------------------------

    def step(self, now: float) -> TableView:
        """One pass: buttons, camera or computer player, then show the table. Returns the view."""
        for event in self.buttons.poll():
            self.press(event.button, now)
        if self.inbox is not None:
            self.inbox(now)
        if self._calibration is not None:
            self._calibrate(now)
        elif (
            not self._menu
            and self._correction is None
            and not self.session.is_over
            and self.state.players
        ):
            self._seat_joining()
            self._advance(now)
        if self.adapter is not None and (news := self.adapter.news()):
            self._tell(news)  # shown in this step's view, after the game's own news
        view = self.view()
        try:
            self.display.show(view)
        except DicekeeperError as exc:  # e.g. the OLED stopped answering: carry on without it
            if str(exc) != self.display_error:
                self.display_error = str(exc)
                log.warning("a display failed: %s", exc)
        self.last_view = view
        if self.photos is not None:
            self.photos.check(self.state)
            if self.adapter is not None:
                self.adapter.kept(self.photos.kept)
        return view

    @property
    def state(self) -> GameState:
        """The engine's state of the current game."""
        return self.session.state

    @property
    def waits_for_roll(self) -> bool:
        """Whether a person's throw waits for ROLL (with the simulated camera, ROLL is the hand
        that throws)."""
        state, player = self.state, self.state.current_player
        if player is None or self.session.is_over or self.session.is_computer(player.name):
            return False
        wants_throw = state.phase is Phase.THROW or (
            state.phase is Phase.DECIDE and self._awaiting_throw
        )
        return wants_throw and self._waits_for_roll()

    @property
    def is_correcting(self) -> bool:
        """Whether the players are correcting the dice as read."""
        return self._correction is not None

    def view(self) -> TableView:
        """The table as the displays show it now."""
        calibration = self._calibration
        overlay = replace(
            self.overlay,
            prompt=calibration.prompt if calibration is not None else self._prompt(),
            menu=tuple(item.label for item in self._menu),
            computers=frozenset(self.session.computers),
            hint=self._hint(),
            review=self._review_rows(),
        )
        correction = self._correction
        if correction is not None:
            tray = tuple(
                read if value == NOT_A_DIE else value
                for value, read in zip(correction.values, correction.read, strict=True)
            )
            overlay = replace(
                overlay,
                tray=tray,
                cursor=correction.cursor,
                struck=correction.struck,
                likely=correction.likely,
            )
        view = table_view(self.state, overlay)
        if calibration is not None:  # the camera's live view, then the result to accept
            view = replace(view, picture=calibration.picture, checks=calibration.checks)
        return view

    def _review_rows(self) -> tuple[tuple[str, str], ...]:
        """At the end of a game, each player's accuracy and biggest swing, once reviewed."""
        if self.reviewer is None or not self.session.is_over:
            return ()
        return self.reviewer.rows(self.session)

    def _hint(self) -> str:
        player = self.state.current_player
        if not self.hints or self._menu or player is None:
            return ""
        if self.session.is_computer(player.name):
            return ""
        return self._advisor.hint(self.state)

    # --- buttons -----------------------------------------------------------------------------

    def press(self, button: Button, now: float) -> None:
        """Handle one button press (QUIT ends the loop like the menu's shut down)."""
        if button is Button.QUIT:
            self.is_shut_down = True
        elif button is Button.HELP:
            self._tell(str(getattr(self.buttons, "help", "")))
        elif self._calibration is not None:
            self._calibration.press(button)
        elif self._correction is not None:
            self._correction_press(button)
        elif button is Button.CORRECT:
            self._open_correction()
        elif button is Button.MENU:
            self._toggle_menu()
        elif self._menu:
            self._menu_press(button)
        else:
            self._play_press(button, now)

    def _play_press(self, button: Button, now: float) -> None:
        state, player = self.state, self.state.current_player
        if self.overlay.alert:  # a new press: the last problem is old news (a new one says so)
            self._say("")
        if state.phase is Phase.OVER:
            if button is Button.ROLL:
                self._new_game(self.session.rules, self.session.seats())
            else:
                self._say("the game is over: ROLL starts a new one")
            return
        if player is None:
            self._say("no players: add some with the menu (hold SELECT)")
            return
        if self.session.is_computer(player.name):
            self._say(f"it is {player.name}'s turn (computer): please wait")
            return
        phase = state.phase
        if button is Button.SELECT:
            if phase is Phase.KEEP and state.options:
                count = len(state.options)
                self._show(selected=(self.overlay.selected + 1) % count)
            else:
                self._say("nothing to choose now")
        elif button is Button.ROLL:
            if phase is Phase.KEEP:
                self._keep_then(None)
            elif phase is Phase.DECIDE and not self._awaiting_throw:
                self._awaiting_throw = self._rolled = True
                self._say("")
            elif phase is Phase.PASS:
                self._rolled = self._apply(PassTaken(player.name))
            elif self._waits_for_roll():  # the simulated camera throws when asked, as a hand
                self._rolled = True
            else:
                self._say(f"throw {dice_text(state.dice_to_throw)} into the tray")
        elif button is Button.STOP:
            if phase is Phase.KEEP:
                self._keep_then("bank")
            elif phase is Phase.DECIDE:
                self._apply(Banked(player.name, state.turn.total))
            elif phase is Phase.PASS:
                self._rolled = self._apply(PassDeclined(player.name))  # STOP: throw fresh
            else:
                self._say("nothing to bank yet: throw the dice first")

    def select_keep(self, index: int, now: float) -> None:
        """Highlight the keep ``index`` as SELECT would (ROLL or STOP then sets it aside)."""
        if self.state.phase is Phase.KEEP and 0 <= index < len(self.state.options):
            player = self.state.current_player
            if player is not None and self.session.is_computer(player.name):
                self._say(f"it is {player.name}'s turn (computer): please wait")
            else:
                if self.overlay.alert:  # the last problem is old news
                    self._say("")
                self._show(selected=index)
        elif self.state.phase is Phase.KEEP and self.state.options:
            self._say(f"there is no keep {index}: choose 0 to {len(self.state.options) - 1}")
        else:
            self._play_press(Button.SELECT, now)

    def _keep_then(self, then: str | None) -> None:
        """Set aside the selected keep; then bank (``"bank"``) or throw the rest (None)."""
        state = self.state
        name = state.current_player.name if state.current_player else ""
        option = state.options[min(self.overlay.selected, len(state.options) - 1)]
        events: list[Event] = [Kept(name, option.dice)]
        if then == "bank":
            try:
                after = apply(state, events[0])
            except IllegalRequest as exc:
                self._say(str(exc))
                return
            events.append(Banked(name, after.turn.total))
        if self._apply(*events) and then is None:
            self._awaiting_throw = self._rolled = True

    # --- advancing without a button ----------------------------------------------------------

    def _advance(self, now: float) -> None:
        state, player = self.state, self.state.current_player
        if player is None:
            return
        is_computer = self.session.is_computer(player.name)
        wants_throw = state.phase is Phase.THROW or (
            state.phase is Phase.DECIDE and self._awaiting_throw
        )
        if wants_throw and is_computer and self.settings.computers_throw_virtual:
            self._virtual_throw(player.name, now)
        elif wants_throw and not is_computer and self._waits_for_roll():
            self._show(rolling=False)  # a person's throw: the simulated camera waits for ROLL
        elif wants_throw:
            self._watch(player.name, now)
        elif is_computer:
            self._computer_decides(player.name, now)

    def _watch(self, name: str, now: float) -> None:
        n = self.state.dice_to_throw
        if self._expecting != (self._events, n):
            self._expecting = (self._events, n)
            self._guard(lambda: self.watcher.expect(n))
        try:
            seen = self.watcher.poll(now)
        except DicekeeperError as exc:  # no camera, the replay ended, a bad frame...
            self._say(str(exc))
            self._camera_trouble = True
            return
        if self._camera_trouble:  # frames again: the camera's message no longer applies
            self._camera_trouble = False
            self._say("")
        if seen.settled is None:
            rolling = seen.sight is SettleState.MOVING
            self._show(tray=(None,) * n if rolling else self.overlay.tray, rolling=rolling)
            return
        reading = seen.settled
        values, likely = reading.values, tuple(die.likely for die in reading.dice)
        boxes = frame_boxes(reading, seen.size)
        if self.photos is not None:
            self.photos.settled(reading)
        if len(values) == n and None not in values:
            self._refused, self._refused_likely = None, ()
        else:  # too many, too few or unreadable dice: the players may correct it (hold STOP)
            missing = (None,) * (n - len(values))  # a die the reader missed: unknown, no guess
            self._refused, self._refused_likely = (*values, *missing), (*likely, *missing)
        if len(values) != n:
            self._refuse(n, count_message(n, len(values)), reading, boxes)
        elif None in values:
            self._refuse(n, unreadable_message(values.count(None)), reading, boxes)
        elif self._throw(name, tuple(v for v in values if v is not None)):
            self._read, self._read_likely, self._drawn = values, likely, False
            self._show(boxes=boxes)
            if self.photos is not None:
                self.photos.counted(self.state)
        else:
            self.watcher.retry()  # e.g. the disk was full: offer the same dice again

    def _refuse(self, n: int, message: str, reading: Reading, boxes: tuple[FrameBox, ...]) -> None:
        self._say(message)
        tray = self._refused if self._refused is not None else ()  # with the missed dice as "?"
        likely = self._refused_likely if self._refused is not None else ()
        self._show(rolling=False, bust=False, tray=tray, likely=likely, boxes=boxes)
        if self.on_refused is not None:
            self.on_refused(reading)
        player = self.state.current_player
        if self._is_simulated and player is not None and not self.session.is_computer(player.name):
            self._rolled = False  # a person throws again with ROLL
            self._expecting = None
            return
        self._guard(lambda: self.watcher.expect(n))

    def _virtual_throw(self, name: str, now: float) -> None:
        n = self.state.dice_to_throw
        if self._roll_until is None:
            self._roll_until = now + self.settings.roll_seconds
        if now < self._roll_until:
            self._show(tray=(None,) * n, rolling=True, frame=self.overlay.frame + 1)
            return
        self._roll_until = None
        if self._throw(name, Throw.random(self.rng, n, faces=self.state.rules.faces).values):
            self._read, self._read_likely, self._drawn = None, (), True

    def _throw(
        self,
        name: str,
        values: tuple[int, ...],
        *events: Event,
        before: GameState | None = None,
    ) -> bool:
        """Count a throw of ``values`` (as ``events``, default its `Thrown`) and show it; ``before``
        is the state before the throw (default: now)."""
        before = self.state if before is None else before
        if not self._apply(*(events or (Thrown(name, values),))):
            return False
        ended = self.state.last_turn
        bust = (
            ended is not None and ended != before.last_turn and ended[1].outcome is TurnOutcome.BUST
        )
        owner = f"{name}'s throw" if ended != before.last_turn else ""
        self._show(tray=values, rolling=False, bust=bust, selected=0, remark="", tray_label=owner)
        if bust:
            said = self._after_turn(bust_message(self.state.rules, name, values, before.turn.total))
            self._tell(said)
            self._show(last_turn=said)
            if self.session.is_over:
                winners = " and ".join(p.name for p in self.state.winners)
                self._tell(f"{name} busts. {winners} won! ROLL starts a new game")
        return True

    def _computer_decides(self, name: str, now: float) -> None:
        if self._act_at is None:
            self._act_at = now + self.settings.think_seconds
        if now < self._act_at:
            return
        self._act_at = None
        strategy = self._strategy(name)
        state = self.state
        remark = ""
        try:
            said = strategy.remark(state)
            remark = said or ""
            if state.phase is Phase.KEEP:
                keep = strategy.choose_keep(state)
                self._show(selected=_index(state, keep.dice))
                self._apply(Kept(name, keep.dice))
            elif state.phase is Phase.DECIDE:
                if strategy.wants_to_roll(state) or not state.can_bank:
                    self._awaiting_throw = True
                else:
                    self._apply(Banked(name, state.turn.total))
            elif state.phase is Phase.PASS:
                taken = strategy.wants_pass(state)
                self._apply(PassTaken(name) if taken else PassDeclined(name))
        except DicekeeperError as exc:
            self._say(f"{name} (computer) could not decide: {exc}")
        still = self.state.current_player
        # The remark belongs to this player's turn: none once the turn has passed on.
        self._show(remark=remark if still is not None and still.name == name else "")

    def _strategy(self, name: str) -> Strategy:
        if name not in self._strategies:
            self._strategies[name] = self._find_strategy(self.session.computers[name])
        return self._strategies[name]

    # --- the menu ----------------------------------------------------------------------------

    @property
    def in_menu(self) -> bool:
        """Whether the menu is open."""
        return bool(self._menu)

    def close_menu(self) -> None:
        """Close the menu if it is open (as STOP in the menu)."""
        self._menu = ()
        self._show(menu_selected=0)

    def choose(self, item: MenuItem) -> None:
        """Do what choosing the menu item ``item`` does (the menu need not be open)."""
        self._choose(item)

    def _toggle_menu(self) -> None:
        if self._menu:
            self._menu = ()
            self._show(menu_selected=0)
        else:
            self._open_menu()

    def _open_menu(self) -> None:
        state = self.state
        self._menu = main_menu(
            seated=[p.name for p in state.players],
            joining=[seat.name for seat in self.joining],
            people=self.settings.people,
            computers=tuple(dict.fromkeys((*self.settings.computers, *personalities()))),
            rules=state.rules.name,
            rule_sets=[r for r in rules_names() if rules_for(r).faces == 6],
            hints=self.hints,
            adapt=self.adapter is not None,
        )
        self._show(menu_selected=0)

    def _menu_press(self, button: Button) -> None:
        if button is Button.SELECT:
            self._show(menu_selected=(self.overlay.menu_selected + 1) % len(self._menu))
        elif button is Button.STOP:
            self._menu = ()
        elif button is Button.ROLL:
            self._choose(self._menu[self.overlay.menu_selected])

    def _choose(self, item: MenuItem) -> None:
        seats = self.session.seats()
        self._menu = ()
        self._show(menu_selected=0)
        if item.action is Action.OPEN:
            self._menu = submenu(item)
        elif item.action is Action.BACK:
            self._open_menu()
        elif item.action is Action.ADD:
            self._add(Seat(item.name, item.strategy))
        elif item.action is Action.REMOVE:
            computers = {k: v for k, v in self.session.computers.items() if k != item.name}
            if self._apply(PlayerRemoved(item.name), computers=computers):
                self._tell(f"{item.name} left")
        elif item.action is Action.RULES:
            self._new_game(rules_for(item.name, self.settings.target), seats)
        elif item.action is Action.NEW_GAME:
            self._new_game(self.session.rules, seats)
        elif item.action is Action.HISTORY:
            try:
                store = self.session.store
                self._menu = history_items(store.history(), finished_count(store))
            except StoreError as exc:
                self._say(str(exc))
        elif item.action is Action.HINTS:
            self.hints = not self.hints
        elif item.action is Action.SHUT_DOWN:
            self.is_shut_down = self.wants_power_off = True
            self._tell("shutting down")
        elif item.action is Action.ADAPT and self.adapter is not None:
            self._tell(self.adapter.start())
        elif item.action is Action.CALIBRATE:
            self._calibration = CalibrationFlow(self.watcher.camera, self.session.store.path.parent)
            self._tell(self._calibration.message)

    def _add(self, seat: Seat) -> None:
        """Seat ``seat`` now when the game is between turns, else at the start of the next round
        (the engine seats players only between turns)."""
        taken = [p.name for p in self.state.players] + [s.name for s in self.joining]
        if seat.name.casefold() in (name.casefold() for name in taken):
            self._say(f"there is already a player called {seat.name!r}")
            return
        try:
            apply(self.state, PlayerAdded(seat.name))
        except WrongPhase:
            if self.state.final_round_by is not None:
                self._say(f"cannot add the player {seat.name!r} during the final round")
                return
            self.joining.append(seat)
            self._tell(f"{seat.name} joins at the start of the next round")
            return
        except IllegalRequest:
            pass  # said by `_seat` as the engine words it
        self._seat(seat)

    def _seat(self, seat: Seat) -> bool:
        computers = dict(self.session.computers)
        if seat.strategy is not None:
            computers[seat.name] = seat.strategy
        if self._apply(PlayerAdded(seat.name), computers=computers):
            self._tell(f"{seat.name} joined")
            return True
        return False

    def _seat_joining(self) -> None:
        """Seat the players waiting to join once a round starts (the starter's turn, nothing
        thrown yet)."""
        state = self.state
        player = state.current_player
        if not self.joining or player is None or player.name != state.starter:
            return
        if state.phase is not Phase.THROW or state.turn.has_started:
            return
        joined = [seat.name for seat in self.joining if self._seat(seat)]
        self.joining = []
        if joined:
            self._tell(f"{' and '.join(joined)} joined for this round")

    def _calibrate(self, now: float) -> None:
        """One step of the menu's calibration; when it ends, the reader takes its result and the
        watcher waits for a fresh throw (the test dice are no player's)."""
        flow = self._calibration
        assert flow is not None
        message = flow.step(now)
        if not flow.done:
            self._tell(message)
            return
        self._calibration = None
        if flow.failed:
            self._say(message)
        else:
            self._tell(message)
        if flow.params is not None and self.on_calibrated is not None:
            self.on_calibrated(flow.params)
        if self.watcher.expected:
            self.watcher.expect(self.watcher.expected)

    def _new_game(self, rules: Rules, seats: Sequence[Seat]) -> None:
        try:
            self.session = Session.new(self.session.store, rules, [*seats, *self.joining])
        except StoreError as exc:
            self._say(str(exc))
            return
        self.joining = []  # the new game's first round seats them
        self._reset_turn()
        self._show(tray=(), last_turn="")
        self._tell(f"new game of {rules.name}")

    # --- helpers -----------------------------------------------------------------------------

    def _resumes_throw(self) -> bool:
        """Whether a resumed game waits for a throw in the DECIDE phase: where players choose
        their keeps, a person reaches DECIDE only by ROLL (STOP keeps and banks at once)."""
        state, player = self.state, self.state.current_player
        return (
            state.phase is Phase.DECIDE
            and not state.rules.is_keep_forced
            and player is not None
            and not self.session.is_computer(player.name)
        )

    def _apply(self, *events: Event, computers: dict[str, str] | None = None) -> bool:
        """Apply ``events`` through the session; a refusal or a store error becomes a message."""
        before = self.state.last_turn
        try:
            self.session.apply(*events, computers=computers)
        except (IllegalRequest, InvalidThrow, StoreError) as exc:
            self._say(str(exc))
            return False
        self._events += 1
        if self.on_event is not None:
            for event in events:
                self.on_event(event)
        self._reset_turn()
        if self.session.is_over:
            winners = " and ".join(p.name for p in self.state.winners)
            self._tell(f"{winners} won! ROLL starts a new game")
        elif self.state.last_turn != before:
            self._tell(self._after_turn(last_turn_text(self.state)))
            self._show(last_turn=self.overlay.message, tray_label=_owner(self.state))
        else:
            self._tell("")
        return True

    def _after_turn(self, said: str) -> str:
        """How the turn ended, with the review's "best was ..." when that is switched on."""
        line = self.reviewer.turn_line(self.session) if self.reviewer is not None else ""
        return f"{said}; {line}" if line else said

    def _reset_turn(self) -> None:
        self._refused, self._refused_likely = None, ()
        self._awaiting_throw = self._rolled = False
        self._act_at = None
        self._roll_until = None
        self._show(selected=0, bust=False)

    def _guard(self, action: Callable[[], None]) -> None:
        try:
            action()
        except DicekeeperError as exc:  # no camera, the replay ended, a bad frame...
            self._say(str(exc))

    def _say(self, message: str) -> None:
        """Show ``message`` as a problem: a refusal, an error, something to put right."""
        self.overlay = replace(self.overlay, message=message, alert=bool(message))
        self.refusals += bool(message)

    def _tell(self, message: str) -> None:
        """Show ``message`` as news: what happened, nothing to put right."""
        self.overlay = replace(self.overlay, message=message, alert=False)

    def _show(self, **changes: object) -> None:
        if "tray" in changes:
            changes.setdefault("boxes", ())  # the boxes belong to the dice read from the camera
        if "tray" in changes and changes["tray"] != self.overlay.tray:
            changes.setdefault("tray_label", "")  # new dice in the tray: the current player's
        if "tray" in changes and (changes["tray"] != self.overlay.tray or changes.get("rolling")):
            changes.setdefault("likely", ())  # the guesses belong to the dice that lay there
        self.overlay = replace(self.overlay, **changes)  # type: ignore[arg-type]

    @property
    def _is_simulated(self) -> bool:
        """Whether the camera is the simulated one (it throws the dice itself)."""
        return isinstance(getattr(self.watcher, "camera", None), SimulatedCamera)

    def _waits_for_roll(self) -> bool:
        """Whether a person's throw waits for ROLL: with the simulated camera, the press is the
        hand that throws, so nobody's turn is played before they ask."""
        return self._is_simulated and not self._rolled

    def _prompt(self) -> str:
        return prompt_for(
            self.state,
            self._awaiting_throw,
            self.session.computers,
            self._menu,
            correcting=self._correction is not None,
            virtual=self.settings.computers_throw_virtual,
            simulated=self._is_simulated,
            rolled=self._rolled,
        )


def _owner(state: GameState) -> str:
    """Whose dice still lie in the tray once a turn ended ("Ann's throw"), or ""."""
    return f"{state.last_turn[0]}'s throw" if state.last_turn is not None else ""


def _index(state: GameState, dice: tuple[int, ...]) -> int:
    for i, option in enumerate(state.options):
        if option.dice == tuple(sorted(dice)):
            return i
    return 0


def _tray_on_resume(state: GameState) -> tuple[int, ...]:
    """The dice lying in the tray when a game resumes: the throw whose keep is being chosen."""
    if state.phase is Phase.KEEP and state.turn.throws:
        return state.turn.throws[-1].values
    return ()


def frame_boxes(reading: Reading, size: tuple[int, int]) -> tuple[FrameBox, ...]:
    """The boxes of ``reading``'s dice as fractions of a frame of ``size`` (width, height)."""
    width, height = size
    if width <= 0 or height <= 0:
        return ()
    return tuple(
        (
            round(die.box.x / width, 4),
            round(die.box.y / height, 4),
            round((die.box.x + die.box.w) / width, 4),
            round((die.box.y + die.box.h) / height, 4),
        )
        for die in reading.dice
    )
