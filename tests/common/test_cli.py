"""How commands fail (mcqa_probes.common.cli): bad input is one ``error:`` line and exit status 2,
a bug a traceback and exit status 1, a stop ``interrupted`` and 128 + the signal; ``--debug`` and
``MCQA_DEBUG=1`` add the traceback. In process, then as a user runs the commands (subprocesses)."""
import argparse
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from mcqa_probes.common import cli
from mcqa_probes.common.io import McqaFormatError
from mcqa_probes.resources.errors import MissingResourceError
from tests.conftest import DATA, ROOT

ALLENNLP = str(Path(sys.executable).parent / "allennlp")


def failing(error):
    def main(argv=None):
        raise error

    return main


def lines(text):
    return [line for line in text.splitlines() if line.strip()]


# ---------------------------------------------------------------------------- in process
@pytest.mark.parametrize("error, line", [
    (McqaFormatError("answerKey 'Q' matches no choice label", "dev.jsonl", 3),
     "error: dev.jsonl, line 3: answerKey 'Q' matches no choice label"),
    (cli.InputError("--data x.jsonl: no such file (expected a jsonl file)"),
     "error: --data x.jsonl: no such file (expected a jsonl file)"),
    (ValueError("--cuda-device 3: torch sees 0 GPU(s)"), "error: --cuda-device 3: torch sees 0 GPU(s)"),
    (FileNotFoundError(2, "No such file or directory", "/no/such.jsonl"), "error: /no/such.jsonl: No such file or directory"),
    (MissingResourceError("WordNet 3.0", ["/a", "/b"], "bin/setup"),
     "error: WordNet 3.0 not found (looked in: /a; /b). Install it with: bin/setup"),
    (ValueError("first line\n  second line\n"), "error: first line second line"),
])
def test_bad_input_is_one_error_line_and_status_2(error, line, capsys, monkeypatch):
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    assert cli.run(failing(error), []) == 2
    captured = capsys.readouterr()
    assert lines(captured.err) == [line] and captured.out == ""


def test_a_real_missing_file_names_the_path(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    missing = tmp_path / "missing.jsonl"
    assert cli.run(lambda argv: open(missing).read(), []) == 2
    assert lines(capsys.readouterr().err) == [f"error: {missing}: No such file or directory"]


def test_allennlp_configuration_error_is_bad_input(capsys, monkeypatch):
    from allennlp.common.checks import ConfigurationError

    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    assert cli.run(failing(ConfigurationError("key 'model' is required")), []) == 2
    assert lines(capsys.readouterr().err) == ["error: key 'model' is required"]


@pytest.mark.parametrize("how", ["flag", "environment"])
def test_debug_adds_the_traceback(how, capsys, monkeypatch):
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    seen = []

    def main(argv):
        seen.append(argv)
        raise cli.InputError("--data x: no such file")

    if how == "flag":
        status = cli.run(main, ["--data", "x", "--debug"])
    else:
        monkeypatch.setenv(cli.DEBUG_VARIABLE, "1")
        status = cli.run(main, ["--data", "x"])
    err = capsys.readouterr().err
    assert status == 2 and seen == [["--data", "x"]]  # --debug never reaches the command's parser
    assert "Traceback (most recent call last)" in err and "in main" in err
    assert lines(err)[-1] == "error: --data x: no such file"


def test_debug_flag_after_double_dash_is_an_argument():
    assert cli.split_debug(["a", "--debug", "--", "--debug"]) == (["a", "--", "--debug"], True)
    assert cli.split_debug(["a"]) == (["a"], False)


@pytest.mark.parametrize("value, wanted", [("1", True), ("yes", True), ("0", False), ("", False), ("false", False)])
def test_mcqa_debug_values(value, wanted, monkeypatch):
    monkeypatch.setenv(cli.DEBUG_VARIABLE, value)
    assert cli.debug_wanted() is wanted


def test_a_bug_shows_the_traceback_and_exits_1(capsys, monkeypatch):
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    assert cli.run(failing(KeyError("model")), []) == 1
    err = capsys.readouterr().err
    assert "Traceback (most recent call last)" in err
    assert lines(err)[-1].startswith("error: internal error: KeyError: 'model'")


def test_interrupts(capsys, monkeypatch):
    monkeypatch.delenv(cli.DEBUG_VARIABLE, raising=False)
    assert cli.run(failing(KeyboardInterrupt()), []) == 130
    assert lines(capsys.readouterr().err) == ["interrupted"]
    assert cli.run(failing(cli.Interrupted(signal.SIGTERM, "grid stopped by SIGTERM: 1 of 4 trials finished")), []) == 143
    assert lines(capsys.readouterr().err) == ["interrupted: grid stopped by SIGTERM: 1 of 4 trials finished"]


def test_status_and_argparse_pass_through(capsys):
    assert cli.run(lambda argv: None, []) == 0
    assert cli.run(lambda argv: 3, []) == 3

    def main(argv):
        parser = argparse.ArgumentParser(prog="bin/x")
        parser.add_argument("--size", type=int)
        parser.parse_args(argv)

    with pytest.raises(SystemExit) as stop:  # argparse's own: usage, then "bin/x: error: ...", status 2
        cli.run(main, ["--size", "many"])
    assert stop.value.code == 2
    assert lines(capsys.readouterr().err)[-1] == "bin/x: error: argument --size: invalid int value: 'many'"


def test_stop_on_signals_turns_sigterm_into_interrupted_and_restores_the_handler():
    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(cli.Interrupted) as stop:
        with cli.stop_on_signals() as state:
            os.kill(os.getpid(), signal.SIGTERM)
            for _ in range(1000):  # the handler runs at the next bytecode boundary
                pass
    assert stop.value.signum == signal.SIGTERM and stop.value.exit_status == 143 and state.signum == signal.SIGTERM
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize("argument, path", [
    ("/nonexistent/model.tar.gz", True), ("./minilm", True), ("runs/x/model.tar.gz", True), ("a/b/c", True),
    ("fixtures/nothing_here", True),  # fixtures/ exists here: a path, not a hub org/name
    ("minilm", False), ("roberta-large", False), ("FacebookAI/roberta-large", False), ("https://x.org/m", False),
])
def test_looks_like_path(argument, path):
    assert cli.looks_like_path(argument) is path


def test_require_file_and_directory(tmp_path):
    (tmp_path / "f.jsonl").write_text("")
    cli.require_file(tmp_path / "f.jsonl", "a jsonl file")
    cli.require_directory(tmp_path, "a directory")
    with pytest.raises(cli.InputError, match=r"^--data .*nope.jsonl: no such file \(expected a jsonl file\)$"):
        cli.require_file(tmp_path / "nope.jsonl", "a jsonl file", "--data")
    with pytest.raises(cli.InputError, match=r"f.jsonl: a file, not a directory \(expected probes\)$"):
        cli.require_directory(tmp_path / "f.jsonl", "probes")


def test_an_output_directory_that_is_a_file_is_named_with_its_option(tmp_path):
    cli.require_output_directory(tmp_path / "new", "a directory")       # need not exist yet
    cli.require_output_directory(tmp_path, "a directory")
    (tmp_path / "card").write_text("")
    with pytest.raises(cli.InputError, match=r"^--out .*card: a file, not a directory \(expected the card\)$"):
        cli.require_output_directory(tmp_path / "card", "the card", "--out")
    # where a command has no such check: mkdir's "File exists" says what is wrong
    with pytest.raises(FileExistsError) as raised:
        (tmp_path / "card").mkdir(parents=True, exist_ok=True)
    assert cli.message_of(raised.value) == f"{tmp_path / 'card'}: a file, not a directory (expected a directory to " \
                                           "write in)"
    with pytest.raises(FileExistsError) as raised:
        tmp_path.mkdir()
    assert cli.message_of(raised.value) == f"{tmp_path}: File exists"


def test_the_module_imports_no_torch_or_allennlp():
    code = ("import sys, mcqa_probes.common.cli; "
            "print(','.join(m for m in ('torch', 'allennlp', 'transformers') if m in sys.modules))")
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert result.returncode == 0 and result.stdout.strip() == "", result.stderr


# ---------------------------------------------------------------------------- as a user runs them
def command(args, env=None, timeout=600):
    full_env = {k: v for k, v in os.environ.items() if k != cli.DEBUG_VARIABLE}
    full_env.update({"HF_HUB_OFFLINE": "1", **(env or {})})
    return subprocess.run(args, cwd=ROOT, env=full_env, capture_output=True, text=True, timeout=timeout)


def bin_command(name, *args, env=None):
    return command([sys.executable, str(ROOT / "bin" / name), *map(str, args)], env=env)


def assert_one_error_line(result, expected_start):
    assert result.returncode == 2, result.stderr[-3000:]
    errors = [line for line in lines(result.stderr) if line.startswith("error:")]
    assert len(errors) == 1 and errors[0] == lines(result.stderr)[-1], result.stderr[-3000:]
    assert errors[0].startswith(expected_start), errors[0]
    assert "Traceback" not in result.stderr


def test_light_command_missing_file_debug_and_bad_line(tmp_path):
    missing = tmp_path / "missing.jsonl"
    result = bin_command("csqa_sanity", missing, tmp_path / "out.jsonl")
    assert_one_error_line(result, f"error: {missing}")
    assert lines(result.stderr) == lines(result.stderr)[-1:]  # nothing else on stderr

    for env, flag in (({cli.DEBUG_VARIABLE: "1"}, []), ({}, ["--debug"])):
        result = bin_command("csqa_sanity", missing, tmp_path / "out.jsonl", *flag, env=env)
        assert result.returncode == 2 and "Traceback (most recent call last)" in result.stderr
        assert lines(result.stderr)[-1].startswith(f"error: {missing}")

    bad = tmp_path / "bad.jsonl"
    bad.write_text((DATA / "commonsenseqa.jsonl").read_text().splitlines()[0] + "\n{not json\n")
    result = bin_command("csqa_sanity", bad, tmp_path / "out.jsonl")
    assert_one_error_line(result, f"error: {bad}, line 2")

    result = bin_command("csqa_sanity", "--seed", "x")  # argparse: usage + "PROG: error: ...", status 2
    assert result.returncode == 2 and lines(result.stderr)[-1].startswith("csqa_sanity: error:")


def test_zero_shot_on_a_missing_file_is_one_line_before_any_model_loads(tmp_path):
    missing = tmp_path / "missing_dev.jsonl"
    result = bin_command("zero_shot", "--model", "minilm", "--data", missing)
    assert_one_error_line(result, f"error: --data {missing}: no such file (expected an MC-MLM jsonl file")
    assert result.stdout == ""


def test_probe_report_on_a_missing_archive_is_one_line(tmp_path):
    result = command([ALLENNLP, "probe-report", "/nonexistent/model.tar.gz", "--out", str(tmp_path / "card")])
    assert_one_error_line(result, "error: MODEL /nonexistent/model.tar.gz: no such model archive or directory")
    assert not (tmp_path / "card").exists()
    (tmp_path / "card").write_text("a file")
    result = command([ALLENNLP, "probe-report", "random", "--out", str(tmp_path / "card")])
    assert_one_error_line(result, f"error: --out {tmp_path / 'card'}: a file, not a directory (expected a directory "
                                  "for report.html")


def test_every_source_file_compiles_without_a_warning():
    """Python 3.12+ prints a SyntaxWarning for an invalid escape (``"\\s"`` in a docstring) on stderr
    the first time a module is compiled: above a command's one ``error:`` line, on a user's fresh
    install. Compiled here with warnings as errors (3.11 warns too, silently by default)."""
    import warnings

    files = [p for p in ROOT.rglob("*.py") if not {".venv", ".git", "runs"} & set(p.relative_to(ROOT).parts)]
    files += [p for p in sorted((ROOT / "bin").iterdir())
              if p.is_file() and p.read_bytes().startswith(b"#!/usr/bin/env python")]
    offenders = []
    for path in files:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                compile(path.read_text(encoding="utf-8"), str(path), "exec")
            except (SyntaxError, Warning) as error:
                offenders.append(f"{path.relative_to(ROOT)}: {error}")
    assert len(files) > 100 and offenders == []


def test_a_reader_that_leaves_the_pipe_is_no_error():
    """``command | head -1``: the print that meets the closed pipe raises BrokenPipeError, which may
    leave Python's buffer empty, so a later flush passes; still no ``error:`` line and status 141
    (was: "error: [Errno 32] Broken pipe", status 2, in 2 runs of 3)."""
    script = ("import sys, time\nsys.path.insert(0, %r)\nfrom mcqa_probes.common import cli\n"
              "def main(argv):\n    time.sleep(0.5)\n    for n in range(100000):\n        print('line', n)\n"
              "raise SystemExit(cli.run(main))\n" % str(ROOT))
    for _ in range(3):
        process = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        process.stdout.close()          # the reader leaves before the first line
        stderr = process.stderr.read().decode()
        assert process.wait(60) == 128 + signal.SIGPIPE and "error" not in stderr, stderr


def test_list_json_and_positive_option_types():
    import argparse

    sizes = cli.number_list(int, minimum=1)
    assert sizes("62,,125, 250") == [62, 125, 250]
    assert cli.number_list(float)("1e-5,2e-5") == [1e-5, 2e-5]
    assert cli.number_list(int, distinct=False)("4,4") == [4, 4]
    for text, message in (("1,a", "'1,a': expected comma-separated integers (e.g. 100,250)"),
                          (",", "',': no values; expected comma-separated integers"),
                          ("0,8", "'0,8': 0 is below 1; expected values >= 1"),
                          ("8,8", "'8,8': a value given twice")):
        with pytest.raises(argparse.ArgumentTypeError, match="^" + re.escape(message)):
            sizes(text)
    assert cli.json_object('{"trainer": {"num_epochs": 2}}') == {"trainer": {"num_epochs": 2}}
    with pytest.raises(argparse.ArgumentTypeError, match=r"^'\{x': not JSON \(.* at character 2\); expected a JSON "
                                                         r"object"):
        cli.json_object("{x")
    with pytest.raises(argparse.ArgumentTypeError, match=r"^'\[1\]': a JSON list; expected a JSON object"):
        cli.json_object("[1]")
    assert cli.positive("3") == 3
    for text in ("0", "-2", "x"):
        with pytest.raises(argparse.ArgumentTypeError, match="expected an integer >= 1"):
            cli.positive(text)


def test_say_line_writes_a_line_in_one_write_so_forked_writers_keep_whole_lines(tmp_path, monkeypatch):
    """Two forked build workers note their probes on one stdout: each note is one ``write`` of the text
    and its newline (``print`` makes two, and two notes ran into one line)."""
    path = tmp_path / "out.txt"
    calls = []
    real_write = os.write
    with open(path, "w", encoding="utf-8") as stream:
        stream.write("before ")          # what the stream holds already goes first
        monkeypatch.setattr(os, "write", lambda fd, data: calls.append(bytes(data)) or real_write(fd, data))
        cli.say_line("hypernymy: 24 questions, 0 duplicates dropped — done", stream)
        monkeypatch.undo()
    assert calls[-1] == "hypernymy: 24 questions, 0 duplicates dropped — done\n".encode("utf-8")
    assert path.read_text(encoding="utf-8") == "before hypernymy: 24 questions, 0 duplicates dropped — done\n"
    with open(path, "w", encoding="utf-8") as stream:
        children = []
        for worker in range(2):
            pid = os.fork()
            if pid == 0:
                for number in range(300):
                    cli.say_line(f"worker {worker} note {number} " + "x" * 40, stream)
                os._exit(0)
            children.append(pid)
        for pid in children:
            os.waitpid(pid, 0)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 600 and all(re.fullmatch(r"worker [01] note \d+ x{40}", line) for line in lines)
