"""The plain-Python stages (knowledge sources, builders, locators, data model, reports) never import
torch, allennlp or transformers, so they can be used and tested alone (style guide)."""
import ast

from tests.conftest import ROOT

PLAIN = [
    "mcqa_probes/knowledge", "mcqa_probes/builders", "mcqa_probes/resources", "mcqa_probes/reports",
    "mcqa_probes/data/question.py", "mcqa_probes/data/candidates.py", "mcqa_probes/metrics/probe_records.py",
    "mcqa_probes/metrics/learning_curve.py", "mcqa_probes/common/environment.py",
]
HEAVY = ("torch", "allennlp", "transformers")


def imported_modules(path):
    tree = ast.parse(path.read_text(), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module


def test_plain_stages_import_no_torch_or_allennlp():
    offenders = []
    for entry in PLAIN:
        path = ROOT / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        assert files, entry
        for file in files:
            for module in imported_modules(file):
                if module.split(".")[0] in HEAVY:
                    offenders.append(f"{file.relative_to(ROOT)} imports {module}")
    assert offenders == []
