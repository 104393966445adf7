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


class Hang(BaseException):
    """Code under test ran past its budget (a ``BaseException``, so that no ``except Exception``
    of the code under test can swallow it)."""


@contextlib.contextmanager
def _within(seconds):
    def on_alarm(signum, frame):
        raise Hang(f"still running after {seconds:g} s: it hangs")

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@pytest.fixture(scope="session")
def budget():
    """``with budget(2): ...`` fails the test with ``Hang`` if the block runs past 2 seconds.
    Budgets are generous (a hang, not a slow run, is what they catch); never a timed assertion."""
    return _within
