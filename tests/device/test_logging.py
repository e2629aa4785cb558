"""The command line's logging: one line per message, journal priorities, each warning once."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import device.tables
from device.cli import main
from device.logs import LineFormatter, OnceFilter, is_journal, setup_logging
from device.notify import Notifier
from device.tables import DiskTables
from device.wiring import open_table
from engine.rules import find_rules
from tests.device.harness import config


@pytest.fixture(autouse=True)
def restore_levels() -> Iterator[None]:
    saved = {name: logging.getLogger(name).level for name in ("device", "hardware")}
    yield
    for name, level in saved.items():
        logging.getLogger(name).setLevel(level)


def record(level: int, msg: str, *args: object, name: str = "hardware.oled") -> logging.LogRecord:
    return logging.LogRecord(name, level, __file__, 1, msg, args, None)


def test_a_warning_is_one_line_prefixed_with_the_command() -> None:
    line = LineFormatter("dicekeeper run", journal=False).format(
        record(logging.WARNING, "the OLED %s\nstopped", "x")
    )
    assert line == "dicekeeper run: warning: the OLED x | stopped"
    info = LineFormatter("dicekeeper run", journal=False).format(record(logging.INFO, "ready"))
    assert info == "dicekeeper run: ready"


def test_in_the_journal_each_line_carries_its_priority_and_no_timestamp() -> None:
    journal = LineFormatter("dicekeeper run", journal=True)
    assert journal.format(record(logging.WARNING, "w")) == "<4>dicekeeper run: warning: w"
    assert journal.format(record(logging.ERROR, "e")) == "<3>dicekeeper run: e"
    assert journal.format(record(logging.INFO, "i")) == "<6>dicekeeper run: i"
    assert journal.format(record(logging.DEBUG, "d")) == "<7>dicekeeper run: debug: d"


def test_the_journal_is_recognised_by_the_device_and_inode_of_stderr(tmp_path: Path) -> None:
    path = tmp_path / "stream"
    with path.open("w") as stream:
        stat = path.stat()
        assert is_journal(stream, {"JOURNAL_STREAM": f"{stat.st_dev}:{stat.st_ino}"})
        assert not is_journal(stream, {"JOURNAL_STREAM": f"{stat.st_dev}:{stat.st_ino + 1}"})
        assert not is_journal(stream, {})


def test_a_repeated_warning_passes_once_then_again_after_the_interval() -> None:
    now = [0.0]
    once = OnceFilter(repeat_seconds=600, clock=lambda: now[0])
    passed = []
    for second in range(0, 1200, 20):  # a display failing every 20 s for 20 minutes
        now[0] = float(second)
        warning = record(logging.WARNING, "the OLED stopped answering: %s", "errno 121")
        if once.filter(warning):
            passed.append(warning.getMessage())
    assert passed == [
        "the OLED stopped answering: errno 121",
        "the OLED stopped answering: errno 121 (again 29 times since)",
    ]
    assert all(once.filter(record(logging.INFO, "same")) for _ in range(3))  # info: never held
    assert once.filter(record(logging.WARNING, "another warning"))


def test_a_device_failing_every_frame_writes_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    setup_logging("run", environ={})
    log = logging.getLogger("hardware.flaky")
    for _ in range(100):
        log.warning("the OLED stopped answering (%s): check the wiring", "[Errno 121]")
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "dicekeeper run: warning: the OLED stopped answering ([Errno 121]): check the wiring"
    ]


def test_python_warnings_become_one_log_line(capsys: pytest.CaptureFixture[str]) -> None:
    setup_logging("run", environ={})
    with warnings.catch_warnings():
        warnings.simplefilter("always")
        setup_logging("run", environ={})  # catch_warnings restored showwarning: set it again
        warnings.warn("Falling back from lgpio", RuntimeWarning, stacklevel=1)
    assert (
        capsys.readouterr().err
        == "dicekeeper run: warning: RuntimeWarning: Falling back from lgpio\n"
    )


def test_verbose_logs_debug_messages(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    assert logging.getLogger("device").getEffectiveLevel() == logging.INFO
    logging.getLogger("device.x").debug("hidden")
    assert "hidden" not in capsys.readouterr().err
    for argv in (["-v", "rules"], ["rules", "--verbose"]):
        assert main(argv) == 0
        logging.getLogger("device.x").debug("shown")
        assert "dicekeeper rules: debug: shown" in capsys.readouterr().err


def test_the_error_of_a_command_is_logged_once(
    capsys: pytest.CaptureFixture[str], caplog: pytest.LogCaptureFixture
) -> None:
    assert main(["score", "--rules", "nope", "1"]) == 2
    assert capsys.readouterr().err.count("\n") == 1
    assert [r.levelno for r in caplog.records] == [logging.ERROR]
    assert "nope" in caplog.records[0].getMessage()


def test_a_table_cache_that_cannot_be_written_is_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def full_disk(table: object, directory: Path) -> Path:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(device.tables, "save_table", full_disk)
    tables = DiskTables(directory=tmp_path)
    with caplog.at_level(logging.WARNING):
        assert tables.solve(find_rules("pig").with_target(20)) is not None
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "could not cache the table" in caplog.records[0].getMessage()


def _no_i2c(monkeypatch: pytest.MonkeyPatch) -> None:
    from luma.core.error import DeviceNotFoundError
    from luma.core.interface import serial

    def missing(**options: object) -> object:
        raise DeviceNotFoundError("I2C device not found: /dev/i2c-1")

    monkeypatch.setattr(serial, "i2c", missing)


def test_a_missing_oled_beside_another_display_is_one_warning_and_no_python_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    _no_i2c(monkeypatch)
    cfg = config(tmp_path, displays=[{"kind": "oled"}, {"kind": "terminal"}])
    with warnings.catch_warnings(record=True) as caught, caplog.at_level(logging.WARNING):
        warnings.simplefilter("always")
        with open_table(cfg) as table:
            assert len(table.display.displays) == 1  # the terminal
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    assert "OLED" in caplog.records[0].getMessage()
    assert not [w for w in caught if issubclass(w.category, RuntimeWarning)]


def test_what_systemd_is_told_is_a_debug_line_but_not_every_watchdog_ping(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Sink:
        def notify(self, state: str) -> None:
            pass

    notifier = Notifier({"NOTIFY_SOCKET": "/run/x", "WATCHDOG_USEC": "2000000"}, connect=Sink)
    with caplog.at_level(logging.DEBUG, logger="device.notify"):
        notifier.ready("playing greed")
        for second in range(10):
            notifier.watchdog(float(second))
        notifier.stopping()
    assert [r.getMessage() for r in caplog.records] == [
        "told systemd READY=1, STATUS=playing greed",
        "told systemd STOPPING=1",
    ]
    assert notifier.sent.count("WATCHDOG=1") == 10
