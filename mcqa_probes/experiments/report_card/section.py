"""One section of the report card: the interface every section implements, and what it is given.

A section is a small :class:`ReportSection` subclass registered under its name, in a file of this
package named after it (``wordnetqa.py`` holds ``@ReportSection.register("wordnetqa")``), as a
dataset reader is. The card (:mod:`.card`) knows no section by name: it imports every module of
this package (:func:`import_sections`), then for each registered section in ``order`` and each model
asks

* :meth:`ReportSection.why_absent` -- why it cannot run for this model and these inputs (None: it can);
* :meth:`ReportSection.key_parts` -- what its numbers depend on besides the model's fingerprint (data
  sha256, options): the cache key of ``sections/<model>/<section>.json``;
* :meth:`ReportSection.run` -- its numbers (:func:`.inputs.done`), given a :class:`SectionContext`
  (the output directory, where its figures go, the loaded archive, the model facts it asked for);

then, once per page, :meth:`ReportSection.shared` (the parts that do not depend on the page's models:
controls, given result directories), :meth:`ReportSection.tables` (its tables,
:mod:`mcqa_probes.reports.card.tables`) and :meth:`ReportSection.summary` (its rows of the summary at
the top of the page).

Adding a section (e.g. a causal-LM section) is adding a file,
``mcqa_probes/experiments/report_card/<name>.py``; nothing else changes::

    @ReportSection.register("causal_lm_olmpics")
    class CausalLmOlmpicsSection(ReportSection, title="oLMpics, causal-LM scoring", order=50):  # after CommonsenseQA (40)

        def why_absent(self, model, inputs):          # None: it runs for this model
            return None if model.kind == "causal_lm" else f"{model.label} is not a causal LM"

        def key_parts(self, model, inputs):           # with the model's fingerprint: the cache key
            return {"files": {...: sha256_file(...)}, "precision": inputs.precision}

        def run(self, model, inputs, context):        # results with "intervals", reading, commands, data
            return done(results, reading, commands, data)

        def tables(self, section, models):            # mcqa_probes.reports.card.tables.grid_table(...)
            return [...]

        def summary(self, section, models):           # one summary_row(...) per probe
            return [...]

The heading, the place on the page and the model facts (below) are the class's keywords (``title``,
``order``, ``model_facts``; class attributes of those names work too). A section that only a
multiple-choice QA model answers (an archive, or a causal LM zero-shot) derives from
:class:`McqaSection`: a masked LM is told what it needs in one place, and the section checks its
inputs in :meth:`McqaSection.why_inputs_absent`.

A section that needs a fact about a model (today: whether a masked LM's head is trained) names it
in ``model_facts`` and reads ``context.facts[name]``; the card computes each fact once per model
(:data:`.models.MODEL_FACTS`, a new fact is a new entry there) and keeps it with the model's
fingerprint. A section that needs a new option adds a field to :class:`.inputs.CardInputs` (and its
flag to ``allennlp probe-report``); a new kind of MODEL is a branch of :func:`.models.classify`.
Sections of another package register the same way and are found once that package is imported
(``--include-package``).
"""
import importlib
import pkgutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Tuple

from allennlp.common import Registrable

from mcqa_probes.common.io import write_bytes
from mcqa_probes.common.progress import progress
from mcqa_probes.experiments.report_card.inputs import CardInputs
from mcqa_probes.experiments.report_card.models import CardModel


@dataclass
class SectionContext:
    """What a section's ``run`` / ``shared`` is given besides the model and the inputs.

    ``out``: the page's directory (figures are written under it and named relative to it);
    ``figure_prefix``: where this model's (or the shared) figures go, relative to ``out``;
    ``facts``: the model facts the section named in ``model_facts``; ``progress``: one-line messages;
    ``load_archive``: the page's archive loader (one load per archive and page); ``label``: ``model /
    section``, what :meth:`progress_bar` names its bars after; ``quiet``: no bars."""

    out: Path
    figure_prefix: str = "figures/shared/"
    facts: Dict[str, Any] = field(default_factory=dict)
    progress: Callable[[str], None] = print
    load_archive: Optional[Callable[[CardModel], Any]] = None
    label: str = ""
    quiet: bool = False
    #: the item records the section's run (or shared) collected (:meth:`add_items`); the card writes them
    items: List[Dict[str, Any]] = field(default_factory=list)
    #: (``shared`` only) the labels whose item records the page has: its models, then the controls whose
    #: records earlier sections' ``shared`` kept (``items/<label>/``)
    item_labels: List[str] = field(default_factory=list)

    def add_items(self, records: List[Dict[str, Any]]) -> None:
        """Keep item records (:func:`mcqa_probes.training.evaluation.item_records`) of the run: the card
        writes them to ``items/<model>/<section>.jsonl`` (:mod:`mcqa_probes.metrics.item_records`). In
        ``shared``: a control's records (their ``model`` its label, none of the page's models), written to
        ``items/<control>/<section>.jsonl`` (:func:`.card.write_control_items`)."""
        self.items.extend(records)

    def progress_bar(self, part: str, total: Optional[int] = None):
        """A progress bar ``model / section / part`` (:func:`mcqa_probes.common.progress.progress`) for a
        ``with`` block: the scoring loops inside it count the questions."""
        return progress(" / ".join(p for p in (self.label, part) if p), total, quiet=self.quiet)

    def archive(self, model: CardModel):
        """The model's archive, loaded once per page (:func:`mcqa_probes.training.evaluation.load_archived_model`):
        ``.model`` and ``.reader``."""
        if self.load_archive is None:
            raise RuntimeError("this context has no archive loader")
        return self.load_archive(model)

    def figure_path(self, name: str) -> Path:
        """Where a figure named ``name`` is written (under ``out``)."""
        return self.out / f"{self.figure_prefix}{name}"

    def relative(self, path: Path) -> str:
        return str(Path(path).relative_to(self.out))

    def copy_figure(self, source: Optional[str], name: str) -> Optional[str]:
        """A figure of a given result directory copied next to the page; its path relative to ``out``."""
        if not source:
            return None
        target = self.figure_path(name)
        write_bytes(target, Path(source).read_bytes())
        return self.relative(target)


def missing_file(option: str, value: Optional[str], what: str) -> Optional[str]:
    """Why a section needing the file of ``option`` cannot run (not given, or no such file), or None."""
    if not value:
        return f"no {option} given ({what})"
    if not Path(value).is_file():
        return f"{option} {value}: no such file"
    return None


class ReportSection(Registrable):
    """A section of the report card (see the module docstring). Subclasses set :attr:`title` and
    :attr:`order` and implement :meth:`why_absent`, :meth:`key_parts`, :meth:`run` and :meth:`tables`;
    :meth:`shared` and :meth:`summary` are optional."""

    #: the section's heading on the page
    title: str = ""
    #: its place on the page (sections are shown by ``order``, then name)
    order: int = 100
    #: facts about each model the section reads from ``context.facts`` (keys of ``models.MODEL_FACTS``)
    model_facts: Tuple[str, ...] = ()

    def __init_subclass__(cls, title: Optional[str] = None, order: Optional[int] = None,
                          model_facts: Optional[Tuple[str, ...]] = None, **kwargs: Any) -> None:
        """``class WordNetQaSection(ReportSection, title="...", order=10):`` sets the class attributes."""
        super().__init_subclass__(**kwargs)
        for name, value in (("title", title), ("order", order), ("model_facts", model_facts)):
            if value is not None:
                setattr(cls, name, value)

    def why_absent(self, model: CardModel, inputs: CardInputs) -> Optional[str]:
        """Why the section does not run for ``model`` with ``inputs`` (shown on the page), or None."""
        raise NotImplementedError

    def key_parts(self, model: CardModel, inputs: CardInputs) -> Dict[str, Any]:
        """What the numbers depend on besides the model's weights (data sha256, options)."""
        raise NotImplementedError

    def run(self, model: CardModel, inputs: CardInputs, context: SectionContext) -> Dict[str, Any]:
        """The model's numbers: :func:`.inputs.done` (or :func:`.inputs.absent`)."""
        raise NotImplementedError

    def shared(self, section: Dict[str, Any], inputs: CardInputs, context: SectionContext) -> None:
        """Fill ``section["shared"]`` (and ``figures``, ``commands``, ``data``) with what does not depend
        on the page's models; ``section["models"]`` holds every model's result already."""

    def tables(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """The section's tables (:mod:`mcqa_probes.reports.card.tables`) from ``section`` (as in
        report.json) and the page's ``models`` (report.json's model entries)."""
        raise NotImplementedError

    def summary(self, section: Dict[str, Any], models: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
        """The section's rows of the summary at the top of the page, one per probe
        (:func:`mcqa_probes.reports.card.tables.summary_row`: each model's number with its interval,
        the control, chance and the paper's best model), from ``section`` as in report.json."""
        return []


class McqaSection(ReportSection):
    """A section that a multiple-choice QA model answers (an archive, or a causal LM zero-shot), never a
    masked LM: :attr:`masked_lm_needs` says what a masked LM's user should give instead."""

    #: the reason shown for a masked LM, after ``"<label> is a masked LM; "``
    masked_lm_needs: str = "this section needs a multiple-choice QA model"

    def why_absent(self, model: CardModel, inputs: CardInputs) -> Optional[str]:
        if model.kind == "masked_lm":
            return f"{model.label} is a masked LM; {self.masked_lm_needs}"
        return self.why_inputs_absent(model, inputs)

    def why_inputs_absent(self, model: CardModel, inputs: CardInputs) -> Optional[str]:
        """Why the section does not run with ``inputs`` (a missing file), or None."""
        return None


def import_sections() -> None:
    """Import every module of this package, so that each section file has registered its class."""
    package = importlib.import_module(__package__)
    for module in pkgutil.iter_modules(package.__path__):
        if not module.name.startswith("_"):
            importlib.import_module(f"{__package__}.{module.name}")


def registered_sections() -> List[Tuple[str, ReportSection]]:
    """(name, section) of every registered section, in page order."""
    import_sections()
    sections = [(name, ReportSection.by_name(name)()) for name in ReportSection.list_available()]
    return sorted(sections, key=lambda item: (item[1].order, item[0]))
