"""The review on a finished game's page, in a real browser (Debian's headless Chromium through
selenium, as `tests/web/test_browser.py`): the win-chance curve of both players with the
mistakes marked, each player's accuracy, the mistakes spelt out and the luck. Skipped without
the browser (failed under DICEKEEPER_REQUIRE_BROWSER=1)."""

from __future__ import annotations

import json
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import device.computer
import device.review
from device.computer import CachedTables
from device.tables import DiskTables, cache_directory, save_table
from device.web.auth import Pairing
from device.web.bridge import WebBridge
from device.web.server import WebServer
from tests.device.test_review_command import BLUNDER_GAME, pig_table, store_game
from tests.web.test_browser import WAIT, _free_port
from tests.web.test_browser import browser as browser


@pytest.fixture
def served(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, int]]:
    """A web server on a store holding one finished pig game, its table cached."""
    monkeypatch.setenv("STATE_DIRECTORY", str(tmp_path))
    monkeypatch.setattr(device.computer, "_TABLES", CachedTables(DiskTables(limit_units=0)))
    save_table(pig_table(), cache_directory())
    game_id = store_game(tmp_path, BLUNDER_GAME)
    server = WebServer(
        WebBridge(),
        Pairing(),
        bind="127.0.0.1",
        port=_free_port(),
        store_path=tmp_path / "dicekeeper.sqlite3",
    )
    server.start()
    try:
        yield f"http://127.0.0.1:{server.port}", game_id
    finally:
        server.stop()


def _until(driver: Any, css: str, count: int) -> list[Any]:
    from selenium.webdriver.common.by import By

    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        found: list[Any] = driver.find_elements(By.CSS_SELECTOR, css)
        if len(found) >= count:
            return found
        time.sleep(0.1)
    raise AssertionError(f"no {count} of {css!r} on the page")


def test_the_game_page_draws_the_review(
    browser: Any,
    served: tuple[str, int],
    tmp_path: Path,
) -> None:
    from selenium.webdriver.common.by import By

    url, game_id = served
    with urllib.request.urlopen(f"{url}/api/games/{game_id}/review") as answer:
        review = json.load(answer)
    marked = [d for d in review["decisions"] if d["severity"]]
    assert marked, "the game has mistakes to show"
    browser.set_window_size(1024, 1400)
    browser.get(f"{url}/game/{game_id}")
    items = _until(browser, "#review-mistakes li", len(marked))
    lines = _until(browser, ".review-curve polyline", 2)
    assert len(lines) == 2
    assert len(browser.find_elements(By.CSS_SELECTOR, ".review-curve circle.mark")) == len(marked)
    # the curve: one point per turn start, from the first player's chance to the winner's 100 %
    points = [line.get_attribute("points").split() for line in lines]
    assert [len(p) for p in points] == [review["turns"] + 1] * 2
    assert "bank 20: 100 % — you rolled 1:" in items[0].text
    rows = browser.find_elements(By.CSS_SELECTOR, "#review-players tbody tr")
    assert any(
        r.text.startswith("Ann") and f"{review['players'][0]['accuracy']:.1f} %" in r.text
        for r in rows
    )
    luck = browser.find_elements(By.CSS_SELECTOR, "#review-luck li")
    assert [li.text for li in luck] == [p["luck"]["line"] for p in review["players"]]
    browser.save_screenshot(str(tmp_path / "review.png"))
