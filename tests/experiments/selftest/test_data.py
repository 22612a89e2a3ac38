"""The self-test's own files: the fixtures tiled to size, and stand-in GloVe vectors for their words."""
import json
import re

from mcqa_probes.experiments.selftest.data import write_selftest_data
from tests.conftest import FIXTURES


def test_the_stand_in_glove_file_has_a_50_number_vector_for_every_word_of_the_probe_files(tmp_path):
    files = write_selftest_data(FIXTURES, tmp_path / "a", questions=12)
    rows = [line.split(" ") for line in files["glove_stand_in"].read_text().splitlines()]
    assert {len(row) for row in rows} == {51} and len({row[0] for row in rows}) == len(rows)
    words = {row[0] for row in rows}
    stem = json.loads(files["test"].read_text().splitlines()[0])["question"]["stem"]
    assert set(re.findall(r"[a-z0-9]+", stem.lower())) <= words
    again = write_selftest_data(FIXTURES, tmp_path / "b", questions=12)
    assert again["glove_stand_in"].read_bytes() == files["glove_stand_in"].read_bytes()      # seeded
