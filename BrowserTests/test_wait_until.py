"""The waiting helper the server fixtures rely on: a condition that never holds fails the wait
with its message (an AssertionError the fixtures catch), not with an error of its own."""
import pytest

from conftest import wait_until


def test_a_condition_that_never_holds_fails_with_its_message():
    with pytest.raises(AssertionError, match="the flag never rose"):
        wait_until(lambda: False, timeout=0.2, message="the flag never rose")


def test_a_condition_that_holds_returns_its_value():
    assert wait_until(lambda: "ready", timeout=0.2) == "ready"
