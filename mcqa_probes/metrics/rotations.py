"""The position-bias control of lettered multiple choice (plain Python: no torch).

With ``rotations: cyclic`` every question is asked K times, its choices rotated so that the gold
answer sits at every position. :class:`RotationTally` collects each asked version's letter scores
and reports:

* ``accuracy_rotation_<r>``: accuracy of the questions rotated by r places;
* ``circular_accuracy``: a question counts only if it is right under all its K rotations
  (OpenCompass's CircularEval);
* ``rstd``: the standard deviation, over the answer positions (letters), of the recall of each
  position (the share of the questions whose gold letter it is that are answered right): 0 for a
  model without a preferred letter (Zheng et al. 2023, "RStd");
* ``debiased_accuracy``: accuracy once the letter prior is removed, PriDe-style: the prior of each
  position is estimated from the rotations (under cyclic rotations every choice visits every
  position, so the mean log-probability of a position over a question's rotations is the
  position's own pull), averaged over the questions, and subtracted from the log-probabilities
  (renormalised over the letters) before the argmax;
* ``letter_prior_<letter>``: that prior, as probabilities, for the most common number of choices.

The calibration subset PriDe estimates its prior on is here every question asked under all its K
rotations (with ``rotations: cyclic``, every question of the run); :func:`debias` is the one place the
prior is removed (the debiased accuracy above, and the ``letters/pride/rot<r>`` prompts of the item
records: :func:`mcqa_probes.metrics.item_records.add_pride_prompts`).
"""
import math
from collections import defaultdict
from typing import Dict, List, Sequence

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def log_softmax(values: Sequence[float]) -> List[float]:
    top = max(values)
    total = math.log(sum(math.exp(v - top) for v in values)) + top
    return [v - total for v in values]


def debias(logprobs: Sequence[float], log_prior: Sequence[float]) -> List[float]:
    """PriDe's debiased log-probabilities of the letters: each letter's log-probability minus its
    position's log prior (the observed probability divided by the prior), renormalised over the letters."""
    return log_softmax([float(v) - float(p) for v, p in zip(logprobs, log_prior)])


class RotationTally:
    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        # question key -> rotation -> (gold position, log-probabilities of the letters)
        self.asked: Dict[str, Dict[int, tuple]] = defaultdict(dict)

    def __len__(self) -> int:
        return len(self.asked)

    def add(self, question_key: str, rotation: int, gold: int, scores: Sequence[float]) -> None:
        self.asked[str(question_key)][int(rotation)] = (int(gold), log_softmax([float(s) for s in scores]))

    def prior(self) -> Dict[int, List[float]]:
        """Per number of choices K: the log prior of each position (complete questions only)."""
        sums: Dict[int, List[float]] = {}
        counts: Dict[int, int] = defaultdict(int)
        for versions in self.asked.values():
            size = len(next(iter(versions.values()))[1])
            if len(versions) != size:
                continue
            mean = [sum(logprobs[j] for _, logprobs in versions.values()) / size for j in range(size)]
            estimate = [math.exp(v) for v in log_softmax(mean)]
            sums.setdefault(size, [0.0] * size)
            sums[size] = [a + b for a, b in zip(sums[size], estimate)]
            counts[size] += 1
        return {size: [math.log(v / counts[size]) for v in total] for size, total in sums.items()}

    def metrics(self) -> Dict[str, float]:
        if not self.asked:
            return {}
        by_rotation: Dict[int, List[int]] = defaultdict(lambda: [0, 0])
        by_position: Dict[int, List[int]] = defaultdict(lambda: [0, 0])
        circular = debiased = versions_total = 0
        prior = self.prior()
        for versions in self.asked.values():
            all_right = True
            for rotation, (gold, logprobs) in versions.items():
                right = max(range(len(logprobs)), key=lambda j: logprobs[j]) == gold
                all_right &= right
                by_rotation[rotation][0] += right
                by_rotation[rotation][1] += 1
                by_position[gold][0] += right
                by_position[gold][1] += 1
                adjusted = debias(logprobs, prior.get(len(logprobs), [0.0] * len(logprobs)))
                debiased += max(range(len(adjusted)), key=lambda j: adjusted[j]) == gold
                versions_total += 1
            circular += all_right
        recalls = [right / total for right, total in by_position.values()]
        mean = sum(recalls) / len(recalls)
        result = {f"accuracy_rotation_{r}": right / total for r, (right, total) in sorted(by_rotation.items())}
        result.update(circular_accuracy=circular / len(self.asked),
                      rstd=math.sqrt(sum((r - mean) ** 2 for r in recalls) / len(recalls)),
                      debiased_accuracy=debiased / versions_total)
        if prior:
            sizes = [len(next(iter(versions.values()))[1]) for versions in self.asked.values()]
            common = max(prior, key=sizes.count)
            result.update({f"letter_prior_{LETTERS[j]}": math.exp(v) for j, v in enumerate(prior[common])})
        return result
