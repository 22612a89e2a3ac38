"""Models: score the choices of a multiple-choice question."""
from mcqa_probes.models.transformer_mcqa import TransformerMcqa
from mcqa_probes.models.masked_lm_mc import MaskedLmMc  # noqa: F401
from mcqa_probes.models.mlm_baseline import MlmBaseline  # noqa: F401
from mcqa_probes.models.choice_only import ChoiceOnly  # noqa: F401
from mcqa_probes.models.choice_to_choice import ChoiceToChoice  # noqa: F401
from mcqa_probes.models.question_to_choice import QuestionToChoice  # noqa: F401
from mcqa_probes.models.vec_similarity import VecSimilarity  # noqa: F401
from mcqa_probes.models.esim_mcqa import EsimMcqa  # noqa: F401
from mcqa_probes.models.winoventi_mlm import WinoVentiMlm  # noqa: F401

__all__ = ["TransformerMcqa"]
