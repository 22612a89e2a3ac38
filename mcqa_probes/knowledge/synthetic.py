"""A synthetic OBO ontology of any size, for the build benchmark (``bin/bench_build --source synthetic:N``).

Seeded and deterministic. Concept ``i`` (``SYN:0000001``, ...) has a parent among the concepts
before it (so the parent relation has no cycle), a second parent for about one concept in ten
(multiple inheritance), one or two exact synonyms for about one in three, a ``part_of`` link for
about one in twenty, and a genus-first definition that names its first parent (as OBO definitions
do: the leakage check has work to do). Labels are unique made-up words. Every tenth concept gets a
``xref`` line the grammar rejects (a backslash in a URL, as in the Sequence Ontology), so the
repair path is measured too.
"""
import random
from pathlib import Path
from typing import List, Union

from mcqa_probes.common.io import atomic_open

SYLLABLES = ("ka", "lo", "mi", "ne", "su", "ra", "to", "vi", "be", "do", "fu", "ge", "ha", "ji", "pe", "zo",
             "qua", "tri", "sen", "mor", "pal", "dex", "lin", "cor")
VERBS = ("binds", "holds", "carries", "forms", "covers", "joins", "moves", "stores")
NOUNS = ("a signal", "two strands", "a small loop", "the outer layer", "a short region", "one end", "a marker")


def _word(number: int) -> str:
    """A unique pronounceable word for ``number`` (a base-24 spelling in syllables)."""
    parts: List[str] = []
    value = number + 24
    while value:
        value, digit = divmod(value, len(SYLLABLES))
        parts.append(SYLLABLES[digit])
    return "".join(reversed(parts))


def write_synthetic_obo(path: Union[str, Path], concepts: int, seed: int = 13) -> Path:
    """Write an OBO file of ``concepts`` terms (see the module docstring); returns its path."""
    if concepts < 2:
        raise ValueError(f"a synthetic ontology needs at least 2 concepts, got {concepts}")
    rng = random.Random(seed)
    labels = [f"{_word(i)} {_word(i * 7 + 3)}" for i in range(concepts)]
    path = Path(path)
    with atomic_open(path, "w", encoding="utf-8") as out:
        out.write(f"format-version: 1.4\ndata-version: synthetic-{concepts}-{seed}\nontology: syn\n\n")
        for i in range(concepts):
            out.write(f"[Term]\nid: SYN:{i + 1:07d}\nname: {labels[i]}\n")
            if i == 0:
                out.write('def: "The most general kind of thing in this ontology." []\n\n')
                continue
            first = rng.randrange(max(0, i - 50 - i // 3), i) if i > 1 else 0
            out.write(f'def: "A {labels[first]} that {rng.choice(VERBS)} {rng.choice(NOUNS)}." [SYN:curator]\n')
            for k in range(rng.choice((0, 0, 0, 0, 1, 2))):
                out.write(f'synonym: "{_word(i * 13 + k + 5)} {_word(i + k)}" EXACT []\n')
            if i % 10 == 0:
                out.write(f"xref: http://example.org/wiki/Term\\:{i}\n")
            out.write(f"is_a: SYN:{first + 1:07d} ! {labels[first]}\n")
            if i > 2 and rng.random() < 0.1:
                second = rng.randrange(0, i)
                if second != first:
                    out.write(f"is_a: SYN:{second + 1:07d}\n")
            if i > 2 and rng.random() < 0.05:
                out.write(f"relationship: part_of SYN:{rng.randrange(0, i) + 1:07d}\n")
            out.write("\n")
        out.write("[Typedef]\nid: part_of\nname: part of\nis_transitive: true\n")
    return path
