"""The web scoreboard in a real browser: Debian's headless Chromium, driven by selenium through
Debian's chromedriver, opens the page that a running `dicekeeper run` (simulated camera, web on
a free loopback port) serves, follows a turn live, pairs with the code the table prints on its
own display (the terminal), corrects a die, keeps, throws, banks, is refused by the table, and
shows "reconnecting…" when the table goes away. Screenshots at a phone's size (390×844) and a
tablet's (1024×768) go to the test's tmp folder (and to $DICEKEEPER_SHOTS when set); what they
show is checked through the elements (text, place, size), not pixels.

Without chromium, chromedriver or selenium the test skips saying which is missing, unless
DICEKEEPER_REQUIRE_BROWSER=1 (CI), where it fails."""

from __future__ import annotations

import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from tests.device.harness import start_run

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SIZES = {"phone": (390, 844), "tablet": (1024, 768)}
WAIT = 60.0

CONFIG = """
[game]
rules = "farkle"
players = ["Ann", "Bob"]
target = 1000
[camera]
backend = "simulated"
width = 320
height = 240
settle_seconds = 0.1
script = [[1, 1, 1, 2, 3, 4], [5, 5], [2, 3, 4, 6, 6, 5]]
read_truth = true
[buttons]
backend = "keyboard"
[[display]]
kind = "terminal"
[state]
directory = "{state}"
[web]
enabled = true
bind = "127.0.0.1"
port = {port}
"""


def _missing() -> list[str]:
    missing = [str(path) for path in (CHROMIUM, CHROMEDRIVER) if not path.exists()]
    try:
        import selenium  # noqa: F401
    except ImportError:
        missing.append("the selenium package")
    return missing


@pytest.fixture
def browser(tmp_path: Path) -> Iterator[Any]:
    """Headless Chromium through Debian's chromedriver (never a downloaded one)."""
    missing = _missing()
    if missing:
        reason = (
            f"no {', '.join(missing)}: apt-get install chromium chromium-driver, "
            "pip install selenium"
        )
        if os.environ.get("DICEKEEPER_REQUIRE_BROWSER") == "1":
            pytest.fail(f"DICEKEEPER_REQUIRE_BROWSER=1 but {reason}")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for argument in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        f"--user-data-dir={tmp_path / 'chromium'}",
    ):
        options.add_argument(argument)
    driver = webdriver.Chrome(options=options, service=Service(str(CHROMEDRIVER)))
    driver.set_page_load_timeout(WAIT)
    try:
        yield driver
    finally:
        driver.quit()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Table:
    """`dicekeeper run` as a process: its terminal display's text is its output file."""

    def __init__(self, tmp_path: Path, port: int | None = None, name: str = "table") -> None:
        self.port = _free_port() if port is None else port
        config = tmp_path / "config.toml"
        config.write_text(CONFIG.format(state=tmp_path / "state", port=self.port))
        self.output = tmp_path / f"{name}.txt"
        # The keyboard buttons on a pipe: nobody presses them.
        self.process = start_run(config, self.output, "--rate", "50")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/"

    def text(self) -> str:
        return self.output.read_text(errors="replace")

    def pairing_code(self) -> str:
        """The newest code the table's own display printed beside its address."""
        line = rf"phones: http://127\.0\.0\.1:{self.port}\s+code (\d{{4,12}})"
        codes: list[str] = re.findall(line, self.text())
        assert codes, f"the table printed no pairing code:\n{self.text()[-2000:]}"
        return codes[-1]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        if self.process.stdin is not None:
            self.process.stdin.close()


def _started(table: Table) -> Table:
    _until(
        "the table's web address and code",
        lambda: "code " in table.text() and _answers(table.port),
        table,
    )
    return table


@pytest.fixture
def table(tmp_path: Path) -> Iterator[Table]:
    running = Table(tmp_path)
    try:
        yield _started(running)
    finally:
        running.stop()


def _answers(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1):
            return True
    except OSError:
        return False


def _until(what: str, check: Callable[[], object], table: Table | None = None) -> Any:
    """Poll ``check`` until it is truthy (its value is returned), with a deadline."""
    deadline = time.monotonic() + WAIT
    while True:
        try:
            value = check()
        except Exception:  # an element replaced while read: read again
            value = None
        if value:
            return value
        if table is not None and table.process.poll() is not None:
            raise AssertionError(f"dicekeeper run exited before {what}:\n{table.text()[-3000:]}")
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.1)


def _by_id(driver: Any, name: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.ID, name)


def _dice(driver: Any) -> list[str]:
    """The dice in the tray as the page labels them ("die 1: 4" ...): the values."""
    labels: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#dice .die-button')]"
        ".map((b) => b.getAttribute('aria-label'))"
    )
    return [label.split(": ", 1)[1] for label in labels]


def _options(driver: Any) -> list[str]:
    """The keeps offered, as their buttons read ("= 1000")."""
    texts: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#options .option')].map((o) => o.textContent)"
    )
    return texts


def _scores(driver: Any) -> dict[str, str]:
    """Each player's name (without markers) and score in the score table."""
    rows: list[list[str]] = driver.execute_script(
        "return [...document.querySelectorAll('#scores tr')].map((r) => ["
        "r.querySelector('.name').firstChild.textContent, r.querySelector('.score').textContent])"
    )
    return dict((name, score) for name, score in rows)


def _red(driver: Any) -> list[str]:
    """The texts shown in red (the reply and the table's message as problems)."""
    texts: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#reply.error, #message.alert')]"
        ".filter((e) => !e.hidden).map((e) => e.textContent)"
    )
    return texts


def _screenshots(driver: Any, folder: Path, moment: str) -> dict[str, dict[str, Any]]:
    """Screenshots at each size, scrolled to the top (the first screen); for each, where the
    essentials lie and how large they are."""
    seen = {}
    for name, (width, height) in SIZES.items():
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": name == "phone"},
        )
        driver.execute_script("window.scrollTo(0, 0)")  # a tap may have scrolled a die into view
        path = folder / f"{moment}-{name}.png"
        measure = """
            const box = (id) => {
              const r = document.getElementById(id).getBoundingClientRect();
              return {left: r.left, right: r.right, top: r.top, bottom: r.bottom};
            };
            return {
              width: window.innerWidth, height: window.innerHeight,
              scrollWidth: document.documentElement.scrollWidth,
              turn: box("turn"), dice: box("dice"), scores: box("scores"),
              pair: box("pair-code"),
              turnFont: parseFloat(getComputedStyle(document.getElementById("turn")).fontSize),
              scoreFont: parseFloat(getComputedStyle(
                document.querySelector("#scores td.score")).fontSize),
            };"""
        assert driver.save_screenshot(str(path)), path
        seen[name] = driver.execute_script(measure)
        seen[name]["path"] = path
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    return seen


def _check_layout(seen: dict[str, dict[str, Any]]) -> None:
    from PIL import Image

    for name, (width, height) in SIZES.items():
        page = seen[name]
        with Image.open(page["path"]) as shot:
            assert shot.size == (width, height)
        assert page["width"] == width and page["scrollWidth"] <= width, name  # no sideways scroll
        for part in ("turn", "dice"):  # whose turn and the dice, on the first screen
            box = page[part]
            assert box["left"] >= 0 and box["right"] <= width, (name, part, box)
            assert box["top"] >= 0 and box["bottom"] <= height, (name, part, box)
        assert page["turnFont"] >= 32 and page["scoreFont"] >= 20, name  # read across a table
    # The tablet shows the scores beside the tray, the phone under it.
    assert seen["tablet"]["scores"]["left"] > seen["tablet"]["dice"]["right"]
    assert seen["tablet"]["scores"]["bottom"] <= SIZES["tablet"][1]
    assert seen["phone"]["scores"]["top"] > seen["phone"]["dice"]["bottom"]


def test_a_turn_followed_paired_and_corrected_in_a_real_browser(
    browser: Any, table: Table, tmp_path: Path
) -> None:
    driver = browser
    shots = tmp_path / "shots"
    shots.mkdir()
    driver.get(table.url)
    driver.execute_script("window.dicekeeperMark = 'not reloaded'")

    # Read-only, live: Ann's turn, her throw waiting for her ROLL (the simulated camera throws
    # a person's dice when asked, as a hand would); the page says it in its own buttons' words.
    _until("the page live", lambda: _by_id(driver, "live").text == "live", table)
    _until("Ann's turn", lambda: _by_id(driver, "turn").text == "Ann's turn", table)
    _until("Ann's prompt", lambda: _by_id(driver, "prompt").text == "Roll: Ann throws 6 dice")
    assert _dice(driver) == []
    assert not _by_id(driver, "controls").is_displayed()
    assert _by_id(driver, "pair-form").is_displayed()
    assert _scores(driver) == {"Ann": "0", "Bob": "0"}
    seen = _screenshots(driver, shots, "read-only")
    _check_layout(seen)
    for name, (_, height) in SIZES.items():  # unpaired: the pairing on the first screen
        assert seen[name]["pair"]["bottom"] <= height, (name, seen[name]["pair"])
    assert seen["phone"]["pair"]["top"] < seen["phone"]["scores"]["top"]

    # A wrong code is refused; the code the table printed pairs.
    _by_id(driver, "pair-code").send_keys("0000" if table.pairing_code() != "0000" else "1111")
    _by_id(driver, "pair-form").submit()
    _until("the wrong code refused", lambda: _by_id(driver, "reply").is_displayed(), table)
    assert not _by_id(driver, "controls").is_displayed()
    _by_id(driver, "pair-code").clear()
    _by_id(driver, "pair-code").send_keys(table.pairing_code())
    _by_id(driver, "pair-form").submit()
    _until("the controls", lambda: _by_id(driver, "controls").is_displayed(), table)
    assert _by_id(driver, "paired").is_displayed()
    assert _by_id(driver, "roll").text == "Roll"

    # A refusal shows in red until the next action: Bank before a throw, then Roll.
    _by_id(driver, "bank").click()
    _until("the refusal", lambda: "throw the dice first" in _by_id(driver, "reply").text, table)
    assert "error" in _by_id(driver, "reply").get_attribute("class")
    _by_id(driver, "roll").click()
    _until("Ann's first throw", lambda: _dice(driver) == ["1", "1", "1", "2", "3", "4"], table)
    assert not _red(driver), _red(driver)
    assert _options(driver)[0].endswith("= 1000")
    assert _by_id(driver, "roll").text == "Keep & roll"
    assert _by_id(driver, "prompt").text == "Tap a keep · Keep & roll · Keep & bank"

    # The camera's picture of the tray on request (the simulated camera's 320×240 frame).
    _by_id(driver, "camera-toggle").click()
    picture = "const i = document.getElementById('camera'); return i.complete && i.naturalWidth"
    assert _until("the camera's picture", lambda: driver.execute_script(picture), table) == 320
    assert "/api/camera.jpg?n=" in _by_id(driver, "camera").get_attribute("src")
    _by_id(driver, "camera-toggle").click()
    assert not _by_id(driver, "camera").is_displayed()

    # A player asking to join during a turn takes a seat at the start of the next round.
    driver.find_element("css selector", "#setup summary").click()
    _by_id(driver, "add-name").send_keys("Cleo")
    _by_id(driver, "add-form").submit()
    _until("Cleo's answer", lambda: "Cleo" in _by_id(driver, "reply").text, table)
    assert _by_id(driver, "reply").text == "Cleo joins at the start of the next round"
    assert "error" not in _by_id(driver, "reply").get_attribute("class")
    driver.find_element("css selector", "#setup summary").click()

    # Correct the 4 to a 5: tap it once, confirm; the table scores the corrected throw.
    driver.find_elements("css selector", "#dice .die-button")[5].click()
    assert _dice(driver) == ["1", "1", "1", "2", "3", "5"]
    assert _by_id(driver, "correcting").is_displayed()
    _check_layout(_screenshots(driver, shots, "correcting"))
    _by_id(driver, "correct-ok").click()
    _until("the keep of the corrected throw", lambda: _options(driver)[0].endswith("= 1050"))
    assert _dice(driver) == ["1", "1", "1", "2", "3", "5"]
    assert not _by_id(driver, "correcting").is_displayed()
    _check_layout(_screenshots(driver, shots, "paired"))

    # Keep 1 1 1 5 and throw the other two: the turn total and the new dice arrive live.
    _by_id(driver, "roll").click()
    _until("the second throw", lambda: _dice(driver) == ["5", "5"], table)
    assert _by_id(driver, "turn-total").text == "1050"
    kept = driver.find_elements("css selector", "#kept svg")
    assert [k.get_attribute("aria-label") for k in kept] == ["1", "1", "1", "5"]

    # Keep both 5s and bank: Ann's score and chart, then Bob's turn.
    _by_id(driver, "bank").click()
    _until("Ann's bank", lambda: _scores(driver).get("Ann") == "1150", table)
    _until("Bob's turn", lambda: _by_id(driver, "turn").text == "Bob's turn", table)
    assert _by_id(driver, "final").text == "FINAL ROUND"  # Ann reached the target of 1000
    # Read in one script: the chart is drawn again when Bob's throw arrives.
    points = driver.execute_script(
        "return [...document.querySelectorAll('#chart polyline')]"
        ".map(line => line.getAttribute('points'))"
    )
    assert len(points) == 2  # a curve per player, Ann's up to 1150
    assert len(points[0].split()) == 2
    labels = driver.execute_script(
        "return ['.goal-label', '.top-label'].map((c) => {"
        "const r = document.querySelector('#chart ' + c).getBoundingClientRect();"
        "return [r.left, r.right, r.top, r.bottom]; })"
    )  # the goal 1000 and the highest total 1150 lie close: their labels apart
    (gl, gr, gt, gb), (tl, tr, tt, tb) = labels
    assert gr <= tl or tr <= gl or gb <= tt or tb <= gt, labels

    # Opening a correction changes no die, and Confirm waits for a change; one begun and
    # cancelled sends nothing.
    bobs = ["2", "3", "4", "6", "6", "5"]
    _until("Bob's Roll", lambda: _by_id(driver, "prompt").text == "Roll: Bob throws 6 dice")
    _by_id(driver, "roll").click()
    _until("Bob's throw", lambda: _dice(driver) == bobs, table)
    _by_id(driver, "correct").click()
    assert _dice(driver) == bobs and _by_id(driver, "correcting").is_displayed()
    assert not _by_id(driver, "correct-ok").is_enabled()
    driver.find_elements("css selector", "#dice .die-button")[0].click()
    assert _dice(driver) == ["3", *bobs[1:]] and _by_id(driver, "correct-ok").is_enabled()
    _by_id(driver, "correct-cancel").click()
    assert _dice(driver) == bobs

    # A request the table refuses (409) shows the table's own message, and changes nothing;
    # the next action (a keep tapped) leaves nothing in red.
    driver.find_element("css selector", "#setup summary").click()
    _by_id(driver, "add-name").send_keys("Dan")
    _by_id(driver, "add-form").submit()
    reply = _until("the refusal", lambda: "Dan" in _by_id(driver, "reply").text, table) and (
        _by_id(driver, "reply").text
    )
    assert reply == "cannot add the player 'Dan' during the final round", reply
    assert "error" in _by_id(driver, "reply").get_attribute("class")
    assert list(_scores(driver)) == ["Ann", "Bob"]
    driver.find_element("css selector", "#setup summary").click()
    driver.find_elements("css selector", "#options .option")[0].click()
    _until("the keep tapped", lambda: not _by_id(driver, "reply").is_displayed(), table)
    assert not _red(driver), _red(driver)

    _check_layout(_screenshots(driver, shots, "after-bank"))
    assert driver.execute_script("return window.dicekeeperMark") == "not reloaded"

    # The table goes away: the page says it is reconnecting; started again, the page comes back
    # by itself to the resumed game, and the old token (of the old code) no longer controls it.
    table.stop()
    _until("the reconnecting state", lambda: _by_id(driver, "live").text == "reconnecting…")
    again = Table(tmp_path, port=table.port, name="again")
    try:
        _started(again)
        _until("the page live again", lambda: _by_id(driver, "live").text == "live", again)
        _until("the resumed game", lambda: _scores(driver) == {"Ann": "1150", "Bob": "0"}, again)
        _until("the old pairing dropped", lambda: not _by_id(driver, "controls").is_displayed())
        assert driver.execute_script("return window.dicekeeperMark") == "not reloaded"
        _finish_and_open_the_game(driver, again, shots)

        # Back on the scoreboard (still paired in this tab): other rules start a new game.
        driver.back()
        _until("the scoreboard live", lambda: _by_id(driver, "live").text == "live", again)
        _until("still paired", lambda: _by_id(driver, "controls").is_displayed(), again)
        driver.execute_script("document.getElementById('setup').open = true")
        _select(_by_id(driver, "rules-name")).select_by_value("greed")
        _by_id(driver, "rules-form").submit()
        driver.switch_to.alert.accept()  # "Play greed? This starts a new game."
        _until("greed", lambda: _by_id(driver, "rules").text.startswith("greed to "), again)
        assert _scores(driver) == {"Ann": "0", "Bob": "0"}  # a new game
    finally:
        again.stop()

    keep = os.environ.get("DICEKEEPER_SHOTS")
    if keep:
        for shot in shots.iterdir():
            shutil.copy(shot, Path(keep) / f"web-{shot.name}")


def _select(element: Any) -> Any:
    """selenium's helper for a <select> (imported here: the module loads without selenium)."""
    from selenium.webdriver.support.select import Select

    return Select(element)


def _finish_and_open_the_game(driver: Any, table: Table, shots: Path) -> None:
    """Pair with the new code, bank Bob's last turn: Ann wins; the finished game's page shows
    its turns, its chart and its downloads."""
    assert table.pairing_code()
    _by_id(driver, "pair-code").send_keys(table.pairing_code())
    _by_id(driver, "pair-form").submit()
    _until("the controls again", lambda: _by_id(driver, "controls").is_displayed(), table)
    _until("Bob's keep again", lambda: _options(driver) == ["= 50"], table)
    _by_id(driver, "bank").click()  # keeps the 5: 50
    _until("the winner", lambda: _by_id(driver, "turn").text == "Ann wins with 1150!", table)
    assert _by_id(driver, "roll").text == "New game" and not _by_id(driver, "bank").is_displayed()
    assert not _by_id(driver, "final").is_displayed()
    _check_layout(_screenshots(driver, shots, "game-over"))
    link = _until(
        "the finished game in the list",
        lambda: driver.find_element("css selector", "#games a[href^='/game/']"),
        table,
    )
    assert link.text == "farkle: Ann 1150, Bob 50"
    link.click()

    number = _until(
        "the game page",
        lambda: re.fullmatch(r"Game (\d+): farkle", _by_id(driver, "title").text),
        table,
    )[1]
    turns = driver.execute_script(
        "return [...document.querySelectorAll('#turns tbody tr')]"
        ".map((r) => [...r.cells].map((c) => c.textContent))"
    )  # the phone's correction is stored with Ann's turn
    assert turns == [["1", "Ann", "+1150", "1150", "1 corrected"], ["2", "Bob", "+50", "50", ""]]
    assert len(driver.find_elements("css selector", "#chart polyline")) == 2
    hrefs = [a.get_attribute("href") for a in driver.find_elements("css selector", "#downloads a")]
    assert hrefs == [f"{table.url}api/games/{number}", f"{table.url}api/games/{number}.csv"]
    fetched = driver.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "Promise.all(arguments[0].map((u) => fetch(u).then((r) => r.text())))"
        ".then(done, (e) => done(String(e)));",
        hrefs,
    )
    assert '"winner": "Ann"' in fetched[0].replace('":"', '": "') and "Bob" in fetched[1]
    for name, (width, height) in SIZES.items():
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": name == "phone"},
        )
        assert driver.save_screenshot(str(shots / f"game-page-{name}.png"))
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_a_phone_is_offered_the_likeliest_value_of_a_die_not_read(
    browser: Any, tmp_path: Path
) -> None:
    """A throw refused with two dice not read, the reader's guess for one of them: the page shows
    it small beside the "?", the phone's first tap on that die sets it to the guess, the other
    starts at 1, and Confirm stays disabled until both are set. The table is held still (a step
    would throw its dice again): this thread applies the phone's requests and shows the view, as
    the table's step does, while the browser is driven from another."""
    from tests.device.harness import config, open_rig

    rig = open_rig(config(tmp_path, rules="greed", script=[[1, 1, 5, 5, 2]]))
    rig.oracle.unreadable = {2, 4}
    rig.oracle.likely = {2: 5}
    shots = tmp_path / "shots"
    shots.mkdir()
    with rig.table:
        rig.until(lambda v: "could not be read" in v.message)
        _phone_at_a_held_table(rig, lambda url: _offer_the_guess(browser, url, shots), shots)
        assert rig.table.controller.state.turn.total == 300  # 1 1 5 5 2: greed keeps 1155


def _offer_the_guess(driver: Any, url: str, shots: Path) -> None:
    driver.get(url)
    unread = ["1", "1", "not read, likeliest 5", "5", "not read"]
    _until("the refused throw with its guess", lambda: _dice(driver) == unread)
    guess = "return [...document.querySelectorAll('#dice .die .guess')].map((g) => g.textContent)"
    assert driver.execute_script(guess) == ["5"]  # small beside the "?", read-only too
    _check_layout(_screenshots(driver, shots, "unread-guess"))
    _by_id(driver, "pair-code").send_keys("4321")
    _by_id(driver, "pair-form").submit()
    _until("the controls", lambda: _by_id(driver, "controls").is_displayed())

    dice = driver.find_elements("css selector", "#dice .die-button")
    dice[4].click()  # no guess: 1
    assert _dice(driver) == ["1", "1", "not read, likeliest 5", "5", "1"]
    assert _by_id(driver, "correct-guess").is_displayed()
    assert not _by_id(driver, "correct-ok").is_enabled()  # die 3 not set: never pre-filled
    _check_layout(_screenshots(driver, shots, "correcting-guess"))
    driver.find_elements("css selector", "#dice .die-button")[2].click()  # the guess first
    assert _dice(driver) == ["1", "1", "5", "5", "1"]
    assert not _by_id(driver, "correct-guess").is_displayed()
    driver.find_elements("css selector", "#dice .die-button")[2].click()  # then on: 6
    assert _dice(driver)[2] == "6"
    for _ in range(6):  # 6 -> not a die -> 1 … 5: round again, no guess any more
        driver.find_elements("css selector", "#dice .die-button")[2].click()
    driver.find_elements("css selector", "#dice .die-button")[4].click()  # 1 -> 2
    assert _dice(driver) == ["1", "1", "5", "5", "2"]
    assert _by_id(driver, "correct-ok").is_enabled()
    _by_id(driver, "correct-ok").click()
    _until("the corrected throw scored", lambda: _by_id(driver, "turn-total").text == "300")
    assert _dice(driver) == ["1", "1", "5", "5", "2"]


def test_a_phone_points_at_a_die_the_reader_missed_on_the_trays_picture(
    browser: Any, tmp_path: Path
) -> None:
    """A throw of six dice read as five: while correcting, the page shows the tray's picture with
    the five dice the reader saw boxed; a tap on a box strikes that die out and a second brings
    it back, a tap where the sixth lies places it there, its value is set on its die, and the
    kept photo labels the sixth die where it was placed. The table is held still as in
    `test_a_phone_is_offered_the_likeliest_value_of_a_die_not_read`."""
    import cv2

    from tests.device.harness import SIZE, config, open_rig
    from vision.render import render_tray

    rig = open_rig(config(tmp_path, rules="farkle", script=[[1, 1, 5, 2, 3]]))
    shots = tmp_path / "shots"
    shots.mkdir()
    with rig.table:
        rig.until(lambda v: "I see 5" in v.message)
        picture = cv2.resize(render_tray([1, 1, 5, 2, 3, 4], seed=3).frame, SIZE)
        _phone_at_a_held_table(
            rig, lambda url: _point_at_the_missed_die(browser, url, shots), shots, picture
        )
        keeper = rig.table.controller.photos
        assert keeper is not None
        keeper.wait()
        (photo,) = keeper.ring.photos()
        assert photo.missed == () and [d.value for d in photo.dice] == [1, 1, 5, 2, 3, 4]
        x, y = photo.dice[-1].center
        assert abs(x - 0.8 * SIZE[0]) < 6 and abs(y - 0.5 * SIZE[1]) < 6, (x, y)


def _phone_at_a_held_table(
    rig: Any, phone: Callable[[str], None], shots: Path, picture: Any = None
) -> None:
    """Serve ``rig``'s table on the web (the camera's picture ``picture``, if any) and run
    ``phone`` (given the page's address) in another thread while this one applies the phone's
    requests and shows the view, as the table's step does, without stepping the table (a step
    would throw its dice again); then keep the screenshots in $DICEKEEPER_SHOTS when set."""
    from device.web.auth import Pairing
    from device.web.bridge import WebBridge
    from device.web.server import start_web

    controller = rig.table.controller
    bridge = WebBridge(clock=lambda: rig.clock[0])
    if picture is not None:
        bridge.on_frame(picture)
    server = start_web(
        bridge,
        controller,
        bind="127.0.0.1",
        port=_free_port(),
        store_path=rig.table.store.path,
        pairing=Pairing(code="4321"),
    )
    with ThreadPoolExecutor(1) as browser:  # the browser in a thread, the table in this one
        done = browser.submit(phone, f"http://127.0.0.1:{server.port}/")
        try:
            while not done.done():
                bridge.drain(controller, rig.clock[0])
                bridge.show(controller.view())
                time.sleep(0.02)
        finally:
            server.stop()
        done.result()
    keep = os.environ.get("DICEKEEPER_SHOTS")
    if keep:
        for shot in shots.iterdir():
            shutil.copy(shot, Path(keep) / f"web-{shot.name}")


def _marks(driver: Any) -> list[str]:
    """The marks on the tray's picture: each one's kind and number ("seen 1", "added 6")."""
    marks: list[str] = driver.execute_script(
        "return [...document.querySelectorAll('#correct-boxes .mark')]"
        ".map((m) => `${m.classList[1]} ${m.textContent}`)"
    )
    return marks


def _point_at_the_missed_die(driver: Any, url: str, shots: Path) -> None:
    from selenium.webdriver.common.action_chains import ActionChains

    driver.get(url)
    _until("the refused throw", lambda: _dice(driver) == ["1", "1", "5", "2", "3", "not read"])
    _by_id(driver, "pair-code").send_keys("4321")
    _by_id(driver, "pair-form").submit()
    _until("the controls", lambda: _by_id(driver, "controls").is_displayed())
    _by_id(driver, "correct").click()
    _until("the tray's picture", lambda: _by_id(driver, "correct-picture").is_displayed())
    _until(
        "the picture loaded",
        lambda: driver.execute_script(
            "return document.getElementById('correct-camera').naturalWidth"
        ),
    )
    assert _marks(driver) == [f"seen {i}" for i in range(1, 6)]
    mark = driver.find_elements("css selector", "#correct-boxes .mark")[4]
    mark.click()  # strike die 5 out...
    assert _marks(driver)[4] == "struck 5" and _dice(driver)[4] == "not a die"
    driver.find_elements("css selector", "#correct-boxes .mark")[4].click()  # ...and back
    assert _marks(driver)[4] == "seen 5" and _dice(driver)[4] == "3"
    frame = _by_id(driver, "correct-marks")
    size = frame.size
    driver.execute_script("arguments[0].scrollIntoView({block: 'center'})", frame)
    ActionChains(driver).move_to_element_with_offset(
        frame,
        round(0.3 * size["width"]),
        0,  # from the centre: at 80 % across, half-way down
    ).click().perform()
    assert _marks(driver)[5] == "added 6"
    for _ in range(4):  # the placed die's value: ? -> 1 -> 2 -> 3 -> 4
        driver.find_elements("css selector", "#dice .die-button")[5].click()
    assert _dice(driver) == ["1", "1", "5", "2", "3", "4"]
    _check_layout(_screenshots(driver, shots, "correcting-pointed"))
    _by_id(driver, "correct-ok").click()
    _until(
        "the corrected throw",
        lambda: (
            _by_id(driver, "correct-picture").is_displayed() is False
            and _dice(driver) == ["1", "1", "5", "2", "3", "4"]
        ),
    )
