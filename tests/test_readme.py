"""The quick commands of the README and of docs/*.md print what the pages say (bin/check_readme), their
links resolve, and the checker itself tells a matching output (or link) from a different one."""
import subprocess
import sys

from tests.conftest import ROOT, load_bin


def checker():
    return load_bin("check_readme")


def test_compare_matches_shape_not_values():
    check = checker()
    expected = 'accuracy 48.6 of 500\n{"id": "q1", ...}'
    assert check.compare(expected, "noise\naccuracy 51.2 of 120\n{\"id\": \"q1\", \"p\": [0.1]}") == []
    assert check.compare(expected, "accuracy high of 500\n{\"id\": \"q1\"}") == ["accuracy 48.6 of 500"]
    assert check.compare(expected, "{\"id\": \"q1\", \"x\": 1}\naccuracy 1 of 2") != []  # order matters


def test_readme_blocks_are_marked():
    text = (ROOT / "README.md").read_text()
    check = checker()
    checks, outputs = check.blocks(text)
    names = [name for name, _ in checks]
    assert names == ["smoke", "quick-probes", "python-predict"] and set(outputs) == set(names)
    assert "probe-report" in dict(checks)["quick-probes"] and "predict" in dict(checks)["smoke"]
    assert check.languages(text)["python-predict"] == "python"
    assert "import mcqa_probes.plugin" in dict(checks)["python-predict"]


def test_docs_pages_have_checked_blocks():
    check = checker()
    blocks = {}
    for page in check.default_files()[1:]:
        checks, outputs = check.blocks(page.read_text())
        assert set(outputs) <= {name for name, _ in checks}, page
        blocks.update({f"{page.name}:{name}": name in outputs for name, _ in checks})
    assert blocks and all(blocks.values())
    assert "python_api.md:python-build-probes" in blocks and "formats.md:read-questions" in blocks


def test_slug_follows_github():
    slug = checker().slug
    assert slug("What `bin/setup` installs") == "what-binsetup-installs"
    assert slug("Probe metrics: cluster accuracy and the hops × distractor breakdown") == \
        "probe-metrics-cluster-accuracy-and-the-hops--distractor-breakdown"
    assert slug("Multi-piece answers: `multi_token`") == "multi-piece-answers-multi_token"


def test_link_check_finds_missing_files_and_anchors(tmp_path):
    (tmp_path / "a.md").write_text(
        "# Title\n\n## Sub `code` (x)\n\n[ok](#sub-code-x) [bad](#nope) [gone](missing.md) [b](b.md#b-title)\n"
        "`[in code](nothere.md)` [web](https://example.org/x)\n\n```\n[in a fence](nothere.md)\n```\n")
    (tmp_path / "b.md").write_text("# B title\n")
    problems = checker().check_links([tmp_path / "a.md", tmp_path / "b.md"])
    assert len(problems) == 2, problems
    assert "#nope" in problems[0] and "missing.md" in problems[1]


def test_links_of_readme_and_docs_resolve():
    check = checker()
    assert check.check_links(check.default_files()) == []


def test_readme_and_docs_quick_commands_print_what_the_pages_say():
    result = subprocess.run([sys.executable, str(ROOT / "bin" / "check_readme")], cwd=ROOT, capture_output=True,
                            text=True, timeout=900)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    check = checker()
    expected = sum(len(check.blocks(page.read_text())[1]) for page in check.default_files())
    assert result.stdout.count("output as on the page") == expected >= 9
