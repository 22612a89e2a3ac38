"""The plain-Python stages (knowledge sources, builders, locators, data model, reports) never import
torch, allennlp or transformers, so they can be used and tested alone (style guide)."""
import ast

from tests.conftest import ROOT

PLAIN = [
    "mcqa_probes/knowledge", "mcqa_probes/builders", "mcqa_probes/resources", "mcqa_probes/reports",
    "mcqa_probes/data/question.py", "mcqa_probes/data/candidates.py", "mcqa_probes/metrics/probe_records.py",
    "mcqa_probes/metrics/learning_curve.py", "mcqa_probes/common/environment.py", "mcqa_probes/common/configs.py",
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


def plain_modules():
    modules = ["mcqa_probes", "mcqa_probes.common.device", "mcqa_probes.common.configs"]
    for entry in PLAIN:
        path = ROOT / entry
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            parts = file.relative_to(ROOT).with_suffix("").parts
            modules.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return modules


def test_plain_modules_import_without_torch_in_a_fresh_interpreter():
    """What the static check above cannot see: a package ``__init__`` or an indirect import that
    pulls torch in. Each plain module is imported in its own interpreter (the resources'
    ``__main__`` excluded: it runs a check when imported)."""
    import subprocess
    import sys

    code = (
        "import importlib, sys; importlib.import_module(sys.argv[1]); "
        "print(','.join(m for m in ('torch', 'allennlp', 'transformers') if m in sys.modules))"
    )
    modules = [module for module in plain_modules() if not module.endswith("__main__")]
    assert "mcqa_probes.builders.build" in modules and "mcqa_probes.reports.probe_report" in modules
    running = [
        (module, subprocess.Popen([sys.executable, "-c", code, module], cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True))
        for module in modules
    ]
    heavy = {}
    for module, process in running:
        out, err = process.communicate(timeout=300)
        assert process.returncode == 0, f"{module}: {err[-1500:]}"
        if out.strip():
            heavy[module] = out.strip()
    assert heavy == {}
