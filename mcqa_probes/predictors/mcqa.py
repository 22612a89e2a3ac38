"""The ``mcqa`` predictor: answer ad-hoc multiple-choice questions with a trained (or zero-shot) archive."""
from typing import Any, Dict, List

from allennlp.common.util import JsonDict, sanitize
from allennlp.data import Instance
from allennlp.predictors import Predictor

from mcqa_probes.data.question import question_from_json
from mcqa_probes.common.io import McqaFormatError


@Predictor.register("mcqa")
class McqaPredictor(Predictor):
    """Input lines: ``{"question": "...", "choices": ["...", ...]}`` (any number of choices ≥ 2)
    or the full jsonl format (``{"question": {"stem", "choices": [{"label","text"}]}, ...}``;
    ``answerKey`` optional).

    Output per question: ``probabilities`` (one per choice, in order), ``best_choice_index``,
    ``best_choice_label``, ``best_choice_text``, the ``choices``, ``id``, and ``correct`` when
    the input had an ``answerKey``.

    With a causal LM (the ``causal_lm_mc`` model, e.g. an archive of
    ``training_config/causal_lm_zero_shot.jsonnet``) also: ``score`` (the normalisation the choice is
    picked by: sum, mean, chars or pmi), ``choice_scores`` (each choice's score under it),
    ``loglikelihood`` (each choice's summed log-probability given the prompt), ``continuation_tokens``,
    ``prompt_format``, and ``choice_only_loglikelihood`` when the model scores the choice-only control.
    ``probabilities`` are then the softmax of ``choice_scores`` over the choices.
    """

    def _json_to_instance(self, json_dict: JsonDict) -> Instance:
        try:
            question = question_from_json(json_dict, require_answer_key=False, default_id="")
        except McqaFormatError as error:
            raise McqaFormatError(f"predictor input {json_dict!r}: {error.reason}") from None
        return self._dataset_reader.text_to_instance(question)

    def predict_json(self, inputs: JsonDict) -> JsonDict:
        return self.predict_batch_json([inputs])[0]

    def predict_batch_json(self, inputs: List[JsonDict]) -> List[JsonDict]:
        instances = [self._json_to_instance(item) for item in inputs]
        return self.predict_batch_instance(instances)

    def predict_instance(self, instance: Instance) -> JsonDict:
        return self.predict_batch_instance([instance])[0]

    def predict_batch_instance(self, instances: List[Instance]) -> List[JsonDict]:
        outputs = self._model.forward_on_instances(instances)
        return [self._summarise(instance, output) for instance, output in zip(instances, outputs)]

    @staticmethod
    def _summarise(instance: Instance, output: Dict[str, Any]) -> JsonDict:
        metadata = instance["metadata"].metadata  # type: ignore[attr-defined]
        real = metadata.get("num_real_choices", len(metadata["choices"]))
        probabilities = [float(p) for p in output["probabilities"][:real]]
        best = max(range(real), key=lambda i: probabilities[i])
        result: Dict[str, Any] = {
            "id": metadata.get("id"),
            "question": metadata["question"],
            "choices": metadata["choices"][:real],
            "labels": metadata["labels"][:real],
            "probabilities": probabilities,
            "best_choice_index": best,
            "best_choice_label": metadata["labels"][best],
            "best_choice_text": metadata["choices"][best],
        }
        if metadata.get("answer_index") is not None:
            result["answer_index"] = metadata["answer_index"]
            result["correct"] = best == metadata["answer_index"]
        for key in ("notes", "question_concept"):
            if key in metadata:
                result[key] = metadata[key]
        if "loglikelihood" in output:  # a causal LM (causal_lm_mc)
            result["score"] = output["score"]
            result["prompt_format"] = output.get("prompt_format")
            result["choice_scores"] = [float(x) for x in output["logits"][:real]]
            for key in ("loglikelihood", "continuation_tokens", "choice_only_loglikelihood"):
                if key in output:
                    result[key] = [float(x) for x in output[key][:real]]
        return sanitize(result)
