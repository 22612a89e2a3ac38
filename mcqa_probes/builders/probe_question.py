"""A generated probe question, before it is written as a line of jsonl in the ``mcqa`` format."""
from dataclasses import dataclass, field
from typing import Any, Dict, List


@dataclass
class ProbeQuestion:
    """One question with its provenance.

    ``notes`` records how the question was made (gold concept, pos, relation, hops, chain,
    distractor family and depth, distractor concepts, template id, source and version) with
    the released files' field names. ``cluster_key`` groups all questions about one concept in
    one probe (a semantic cluster); ``concept`` is the concept whose split it follows.
    """

    id: str
    probe: str
    stem: str
    choices: List[str]
    answer_index: int
    concept: str
    cluster_key: str
    notes: Dict[str, Any] = field(default_factory=dict)

    def gold_pair(self):
        """The (question, answer) pair that must not cross splits."""
        return self.stem, self.choices[self.answer_index]

    def to_json(self, int_labels: bool = False) -> Dict[str, Any]:
        labels = _labels(len(self.choices), int_labels)
        return {
            "id": self.id,
            "question": {
                "stem": self.stem,
                "choices": [{"label": label, "text": text} for label, text in zip(labels, self.choices)],
            },
            "answerKey": labels[self.answer_index],
            "notes": self.notes,
        }


_LABELS: Dict[tuple, tuple] = {}


def _labels(count: int, int_labels: bool) -> tuple:
    """The choice labels ``0..count-1`` (strings unless ``int_labels``), made once per shape."""
    found = _LABELS.get((count, int_labels))
    if found is None:
        found = _LABELS[(count, int_labels)] = tuple(range(count)) if int_labels else tuple(str(i) for i in range(count))
    return found
