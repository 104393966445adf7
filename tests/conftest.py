import contextlib
import os
import signal

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", max_examples=100, derandomize=True, deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", max_examples=50, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

LONG = os.environ.get("PALAZZO_LONG") == "1"

#: what the quick run says it left out, and how to run it
LEFT_OUT = ("tests marked long (whole games over the network, games of searching bots, the rest "
            "of the conformance games) were left out: ./scripts/test -m long runs them, "
            "PALAZZO_LONG=1 ./scripts/test runs everything")


def _quick(config) -> bool:
    """The quick run: the suite as configured, no test named (no path, ``-k`` or ``-m``), and no
    ``PALAZZO_LONG=1``. A run that names tests runs what it names, long or not."""
    return (not LONG and not config.getoption("keyword") and not config.getoption("markexpr")
            and config.args_source == pytest.Config.ArgsSource.TESTPATHS)


def pytest_collection_modifyitems(config, items):
    """The quick run (plain ``./scripts/test``) leaves out the tests marked ``long``: the ones
    that take a second of processor time or more to play whole games over the network (every
    shuffle and proof made and checked), or games of searching bots, and the conformance games
    past the first few of each configuration. They are most of the suite's processor time. The
    quick run still plays every game, player count and variant (the engine's contract and
    conformance runs) and networked games of each game, in memory and between processes. CI
    runs both: ``./scripts/test``, then ``./scripts/test -m long``."""
    if not _quick(config):
        return
    kept, left = [], []
    for item in items:
        (left if item.get_closest_marker("long") else kept).append(item)
    if left:
        config.hook.pytest_deselected(items=left)
        items[:] = kept


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if _quick(config):
        terminalreporter.write_line(LEFT_OUT)


class Hang(BaseException):
    """Code under test ran past its budget (a ``BaseException``, so that no ``except Exception``
    of the code under test can swallow it)."""


#: how many times its budget a block may take on the wall clock before it counts as a hang even
#: though it used no processor time (blocked): far beyond what a loaded machine slows a run by
WALL_FACTOR = 20


@contextlib.contextmanager
def _within(seconds):
    """The block may use ``seconds`` of this process's processor time (``ITIMER_PROF``, which
    other processes' load does not eat into), and ``WALL_FACTOR`` times that on the wall clock."""

    def on_alarm(signum, frame):
        raise Hang(f"still running after {seconds:g} s: it hangs")

    old = {sig: signal.signal(sig, on_alarm) for sig in (signal.SIGPROF, signal.SIGALRM)}
    signal.setitimer(signal.ITIMER_PROF, seconds)
    signal.setitimer(signal.ITIMER_REAL, seconds * WALL_FACTOR)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.setitimer(signal.ITIMER_REAL, 0)
        for sig, handler in old.items():
            signal.signal(sig, handler)


@pytest.fixture(scope="session")
def budget():
    """``with budget(2): ...`` fails the test with ``Hang`` if the block runs past 2 seconds of
    processor time. Budgets are generous (a hang, not a slow run, is what they catch); never a
    timed assertion, and the machine's load does not count against them."""
    return _within


@pytest.fixture(autouse=True)
def _own_folders(tmp_path_factory, monkeypatch):
    """Every test has its own config and data folders (identity, journal, hosting records,
    saved transcripts), never the user's, and never another test's: tests run side by side."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / "config"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / "data"))
