"""A check's answer worked out once in a process (``net.deck.once``): the tables of a host and its
bots ask for the same proof at the same moment, and one thread works it out while the others
wait for its answer; a failure is never remembered."""

import threading

import pytest

from net.deck.once import Once


def test_tables_asking_at_the_same_moment_wait_for_the_one_that_works_it_out():
    once: Once[bytes, bool] = Once()
    started, go, runs = threading.Event(), threading.Event(), []

    def work():
        runs.append(threading.current_thread().name)
        started.set()
        go.wait(10)
        return True

    answers = []
    first = threading.Thread(target=lambda: answers.append(once(b"proof", work)), name="host")
    first.start()
    started.wait(10)
    others = [threading.Thread(target=lambda: answers.append(once(b"proof", work)), name=f"bot{i}")
              for i in range(3)]
    for t in others:
        t.start()
    go.set()
    for t in (first, *others):
        t.join(10)
    assert answers == [True] * 4 and runs == ["host"]
    assert b"proof" in once and once(b"proof", lambda: False) is True  # remembered


def test_a_failed_check_is_worked_out_again_by_each_caller():
    once: Once[bytes, bool] = Once()
    runs = []

    def bad():
        runs.append(1)
        raise ValueError("t1")

    for _ in range(2):
        with pytest.raises(ValueError, match="t1"):
            once(b"forged", bad)
    assert len(runs) == 2 and b"forged" not in once


def test_off_every_caller_works_it_out_and_the_oldest_answer_goes_first():
    off: Once[bytes, int] = Once(size=0)
    assert [off(b"k", lambda n=n: n) for n in (1, 2)] == [1, 2] and b"k" not in off
    small: Once[int, int] = Once(size=2)
    for k in (1, 2, 1, 3):  # 2 is the least recently used when 3 comes
        small(k, lambda k=k: k * 10)
    assert 1 in small and 3 in small and 2 not in small
