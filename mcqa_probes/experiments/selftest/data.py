"""The self-test's own small probe files: the checkout's fixtures tiled to a size (ids made unique).

The fixtures (``fixtures/`` of a checkout) hold every file layout the commands read: a WordNetQA
probe directory, oLMpics MC-MLM files (one-piece and multi-piece choices), a WinoVenti TSV. Tiling
keeps their content and format and only gives the copies new ids, so the paths see realistic
question lengths and as many questions as a speed figure needs.
"""
import json
import random
import re
from pathlib import Path
from typing import Dict

from mcqa_probes.common.io import write_jsonl, write_text

#: fixture files the self-test reads, relative to ``fixtures/``
SOURCES = {
    "probe": "probes/hypernymy",
    "mc_mlm": "olmpics/number_comparison_age_compare_masked_dev.jsonl",
    "multi_piece": "olmpics/multi_piece_candidate.jsonl",
    "winoventi": "winoventi/winoventi_small.tsv",
}


def _tile(source: Path, target: Path, count: int) -> int:
    """The first ``count`` questions of ``source`` repeated (copy k gets ids ``<id>-copy<k>``)."""
    rows = [json.loads(line) for line in source.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not rows:
        raise ValueError(f"{source}: no questions to tile")
    tiled = []
    for index in range(count):
        row = dict(rows[index % len(rows)])
        copy = index // len(rows)
        if copy:
            row["id"] = f"{row['id']}-copy{copy}"
        tiled.append(row)
    write_jsonl(target, tiled)
    return count


def write_selftest_data(fixtures: Path, out: Path, questions: int) -> Dict[str, Path]:
    """Write the files under ``out``; returns their paths by name (``probe_dir``, ``train``, ``dev``,
    ``test``, ``mc_mlm``, ``multi_piece``, ``winoventi``, ``glove_stand_in``). ``questions``: per dev/test/MC-MLM file
    (the train file gets twice as many, the multi-piece file a quarter)."""
    fixtures, out = Path(fixtures), Path(out)
    missing = [name for name in SOURCES.values() if not (fixtures / name).exists()]
    if missing:
        raise FileNotFoundError(f"{fixtures}: the self-test reads the checkout's fixtures; missing {', '.join(missing)}")
    probe_dir = out / "probes" / "hypernymy"
    files = {"probe_dir": probe_dir}
    for split, count in (("train", 2 * questions), ("dev", questions), ("test", questions)):
        files[split] = probe_dir / f"{split}.jsonl"
        _tile(fixtures / SOURCES["probe"] / f"{split}.jsonl", files[split], count)
    files["mc_mlm"] = out / "mc_mlm_dev.jsonl"
    _tile(fixtures / SOURCES["mc_mlm"], files["mc_mlm"], questions)
    files["multi_piece"] = out / "multi_piece_dev.jsonl"
    _tile(fixtures / SOURCES["multi_piece"], files["multi_piece"], max(4, questions // 4))
    files["winoventi"] = out / "winoventi.tsv"
    write_text(files["winoventi"], (fixtures / SOURCES["winoventi"]).read_text(encoding="utf-8"))
    files["glove_stand_in"] = out / "glove_stand_in.50d.txt"
    write_glove_stand_in(files["glove_stand_in"], [files["train"], files["dev"], files["test"]])
    return files


def write_glove_stand_in(path: Path, jsonl_files, dimension: int = 50) -> Path:
    """GloVe-format vectors (seeded random numbers, ``dimension`` of them) for the words of the probe
    files: what the report card's Choice-Only-GloVe control reads on a machine without the GloVe
    package (the GPU machine: 69 MB it cannot download). Speed does not depend on the numbers."""
    words = set()
    for jsonl in jsonl_files:
        words.update(re.findall(r"[a-z0-9]+", Path(jsonl).read_text(encoding="utf-8").lower()))
    rng = random.Random(13)
    lines = [word + " " + " ".join(f"{rng.uniform(-1, 1):.4f}" for _ in range(dimension)) for word in sorted(words)]
    return write_text(path, "\n".join(lines) + "\n")
