"""Many objects at once (rating.period.bulk): records, lazy records and mappings, and the cycle
collector paused."""

from __future__ import annotations

import gc
import weakref

import pytest

from rating.period.bulk import LazyMapping, LazyRecords, no_cycle_collection


class _Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the cycle collector frees it


def test_the_collector_is_paused_inside_and_enabled_after_even_on_an_error():
    assert gc.isenabled()
    with pytest.raises(ValueError), no_cycle_collection():
        assert not gc.isenabled()
        raise ValueError
    assert gc.isenabled()


def test_a_paused_collector_stays_paused():
    gc.disable()
    try:
        with no_cycle_collection():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_cycle_made_while_paused_is_still_collected_later():
    with no_cycle_collection():
        gone = weakref.ref(_Node())
    assert gone() is not None  # a cycle: not freed by reference counting
    gc.collect()
    assert gone() is None


def test_objects_someone_else_froze_stay_frozen():
    gc.freeze()
    try:
        assert gc.get_freeze_count() > 0
        with no_cycle_collection():
            _Node()
        assert gc.get_freeze_count() > 0  # not all thawed (some may have been freed meanwhile)
    finally:
        gc.unfreeze()


def test_lazy_records_and_mappings_are_made_once_when_first_read():
    made = []
    records = LazyRecords(2, lambda: made.append("r") or ["a", "b"])
    keys = LazyMapping(lambda: made.append("m") or {1: "x"})
    assert made == [] and len(records) == 2
    assert list(records) == ["a", "b"] and records[1] == "b" and records == ("a", "b")
    assert keys[1] == "x" and dict(keys) == {1: "x"} and keys == {1: "x"} and len(keys) == 1
    assert made == ["r", "m"]
