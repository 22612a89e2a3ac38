"""A grid stopped by a signal: SIGTERM / SIGINT cancel the trials in flight, shut the local Ray
down (no worker left behind), keep what finished (resumable) and end with one ``interrupted:``
line and exit status 128 + the signal."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from mcqa_probes.common.cli import Interrupted
from mcqa_probes.experiments.grid import GridInterrupted, GridOptions, Trial, run_grid
from tests.conftest import ROOT

#: generous: on a loaded 2-core machine starting Ray and its workers can take a minute or more
START_TIMEOUT = 300
STOP_TIMEOUT = 120


def quick(name):
    return {"name": name}


def stop_the_driver(name):
    os.kill(os.getpid(), signal.SIGTERM)  # as `kill PID` from outside: the handler runs right after
    time.sleep(5)  # never reached to the end: the signal interrupts it
    return {"name": name}


def test_serial_grid_stopped_by_sigterm_keeps_what_finished(tmp_path, capsys):
    before = signal.getsignal(signal.SIGTERM)
    trials = [Trial("a", quick, {"name": "a"}), Trial("b", stop_the_driver, {"name": "b"}),
              Trial("c", quick, {"name": "c"})]
    with pytest.raises(GridInterrupted) as stop:
        run_grid(trials, tmp_path, GridOptions(workers=1))
    assert isinstance(stop.value, Interrupted) and stop.value.exit_status == 128 + signal.SIGTERM
    assert str(stop.value).startswith(f"grid stopped by SIGTERM: 1 of 3 trials finished (kept under {tmp_path / 'trials'})")
    assert (tmp_path / "trials" / "a" / "result.json").is_file()
    assert not (tmp_path / "trials" / "b" / "result.json").exists() and not (tmp_path / "trials" / "c").exists()
    assert "Interrupted" in (tmp_path / "trials" / "b" / "trial.log").read_text()  # the stopped trial's log says so
    assert signal.getsignal(signal.SIGTERM) is before  # the grid's handler is gone again

    again = run_grid([trials[0], Trial("b", quick, {"name": "b"}), trials[2]], tmp_path, GridOptions(workers=1))
    assert [o.status for o in again.outcomes] == ["skipped", "done", "done"]


DRIVER = textwrap.dedent("""
    import sys
    import time

    sys.path.insert(0, {root!r})
    from mcqa_probes.common import cli
    from mcqa_probes.experiments.grid import GridOptions, Trial, run_grid


    def nap(seconds):
        time.sleep(seconds)
        return {{"slept": seconds}}


    def main(argv):
        trials = [Trial("quick", nap, {{"seconds": 0}})] + [Trial(f"slow{{i}}", nap, {{"seconds": 600}}) for i in (1, 2, 3)]
        run_grid(trials, argv[0], GridOptions(workers=2))


    if __name__ == "__main__":
        raise SystemExit(cli.run(main))
""")


def alive(process) -> bool:
    import psutil

    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def describe(processes) -> str:
    names = []
    for process in processes:
        try:
            names.append(f"{process.pid} {' '.join(process.cmdline())[:80]}")
        except Exception:  # noqa: BLE001 - gone meanwhile
            names.append(str(process.pid))
    return "; ".join(names)


def test_ray_grid_stopped_by_sigterm_leaves_no_ray_process(tmp_path):
    signum = signal.SIGTERM
    psutil = pytest.importorskip("psutil")
    pytest.importorskip("ray")
    script = tmp_path / "driver.py"
    script.write_text(DRIVER.format(root=str(ROOT)))
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k not in ("RAY_ADDRESS", "MCQA_DEBUG")}
    driver = subprocess.Popen([sys.executable, str(script), str(out)], cwd=ROOT, env=env, text=True,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        # both workers busy with a slow trial, the quick one finished and recorded
        started = [out / "trials" / "quick" / "result.json", out / "trials" / "slow1" / "trial.log",
                   out / "trials" / "slow2" / "trial.log"]
        deadline = time.monotonic() + START_TIMEOUT
        while not all(path.exists() for path in started):
            assert driver.poll() is None, f"the driver ended early: {driver.communicate()[1][-3000:]}"
            assert time.monotonic() < deadline, f"the trials did not start: {[p for p in started if not p.exists()]}"
            time.sleep(0.5)
        ray_processes = psutil.Process(driver.pid).children(recursive=True)
        assert any("raylet" in " ".join(p.cmdline()) for p in ray_processes), describe(ray_processes)

        driver.send_signal(signum)
        _, stderr = driver.communicate(timeout=STOP_TIMEOUT)
    finally:
        if driver.poll() is None:
            driver.kill()
            driver.communicate()
    name = signal.Signals(signum).name
    assert driver.returncode == 128 + signum, stderr[-3000:]
    assert stderr.splitlines()[-1] == (f"interrupted: grid stopped by {name}: 1 of 4 trials finished (kept under "
                                       f"{out / 'trials'}), 3 stopped or not started; run the same command again "
                                       f"to resume"), stderr[-3000:]
    assert "Traceback" not in stderr
    assert json.loads((out / "trials" / "quick" / "result.json").read_text())["result"] == {"slept": 0}
    assert not (out / "trials" / "slow1" / "result.json").exists()

    deadline = time.monotonic() + STOP_TIMEOUT  # processes the raylet was killing may take a moment
    while any(alive(p) for p in ray_processes) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not [p for p in ray_processes if alive(p)], describe(p for p in ray_processes if alive(p))
