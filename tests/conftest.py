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

# the Mercenary Surge tests run only in a copy of the tree that declares the variant
# (tests/engine/test_variant_in_three_files.py); here they are text, not a test module
collect_ignore = ["engine/mercenary_surge.py"]


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
