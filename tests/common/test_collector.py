import gc

import pytest

from mcqa_probes.common.collector import collector_paused


def test_the_collector_is_off_inside_and_back_after():
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_back_after_an_error_and_left_off_when_it_was_off():
    with pytest.raises(RuntimeError):
        with collector_paused():
            raise RuntimeError("boom")
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
