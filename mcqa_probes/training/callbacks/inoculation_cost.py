"""The ``inoculation_cost`` trainer callback (TACL paper §4.2): how much of its original task a
model loses while it is inoculated (fine-tuned) on a few probe examples."""
import logging
from typing import TYPE_CHECKING, Any, Dict, List, Optional

from allennlp.data import DatasetReader, Instance
from allennlp.training.callbacks.callback import TrainerCallback

from mcqa_probes.training.evaluation import evaluate_instances

if TYPE_CHECKING:
    from allennlp.training.gradient_descent_trainer import GradientDescentTrainer

logger = logging.getLogger(__name__)


@TrainerCallback.register("inoculation_cost")
class InoculationCost(TrainerCallback):
    """Evaluates the model on the ORIGINAL task's dev data before any update and after every
    epoch's validation (at the end only when there was no validation: otherwise the selected
    epoch's measurement is the selected model's), and records:

    - ``orig_accuracy_before``: original-task accuracy before inoculation,
    - ``orig_accuracy``: original-task accuracy now,
    - ``inoculation_cost``: ``100 * (orig_accuracy_before - orig_accuracy)``, in points
      (positive = the model got worse on its original task),
    - ``aggregate_accuracy``: mean of the probe dev accuracy and ``orig_accuracy`` — the paper's
      AVG(S_new, S_orig), so ``"validation_metric": "+aggregate_accuracy"`` selects the checkpoint.

    They are added to the validation metrics (``validation_orig_accuracy``, ... in each epoch's
    metrics file, used by the metric tracker) and, for the selected (best) model, as
    ``orig_accuracy_before``, ``orig_accuracy``, ``inoculation_cost`` and ``aggregate_accuracy`` in
    ``metrics.json``. Resuming with ``--recover`` keeps ``orig_accuracy_before`` (state_dict).
    The model is left in the mode (train/eval) it was found in.

    # Parameters

    original_data_path : `str`
        The original task's dev file.
    original_reader : `DatasetReader`, optional (default = the training data loader's reader)
        How to read it (e.g. the same ``mcqa`` reader as the probe data).
    batch_size : `int`, optional (default = `32`)
    probe_metric : `str`, optional (default = `"accuracy"`)
        The validation metric that measures the probe (S_new).
    """

    def __init__(
        self,
        serialization_dir: str,
        original_data_path: str,
        original_reader: Optional[DatasetReader] = None,
        batch_size: int = 32,
        probe_metric: str = "accuracy",
    ) -> None:
        super().__init__(serialization_dir)
        self.original_data_path = original_data_path
        self.original_reader = original_reader
        self.batch_size = batch_size
        self.probe_metric = probe_metric
        self.orig_accuracy_before: Optional[float] = None
        self.history: List[float] = []
        self._instances: Optional[List[Instance]] = None
        self._trainer: Optional["GradientDescentTrainer"] = None
        self._evaluated_this_epoch = False
        self._inside = False

    # ------------------------------------------------------------------ evaluation
    def _original_instances(self, trainer) -> List[Instance]:
        if self._instances is None:
            reader = self.original_reader
            if reader is None:
                reader = getattr(trainer.data_loader, "reader", None)
                reader = getattr(reader, "base_reader", reader)  # the inoculation reader wraps one
            if reader is None:
                raise ValueError("inoculation_cost: give original_reader (the trainer's data loader has no reader)")
            self._instances = list(reader.read(self.original_data_path))
            if not self._instances:
                raise ValueError(f"inoculation_cost: no instances in {self.original_data_path}")
        return self._instances

    def evaluate_original(self, trainer) -> float:
        """Accuracy of the model on the original dev data. The model's own metric state is reset
        afterwards (forward() fed it original-task batches) and its train/eval mode restored."""
        model = trainer.model
        was_training, was_inside = model.training, self._inside
        self._inside = True  # the get_metrics wrapper must not evaluate again while we do
        try:
            metrics = evaluate_instances(model, self._original_instances(trainer), self.batch_size)
        finally:
            model.train(was_training)
            self._inside = was_inside
        return float(metrics["accuracy"])

    def _original_metrics(self, trainer, probe_metrics: Dict[str, Any],
                          accuracy: Optional[float] = None) -> Dict[str, float]:
        """The original-task numbers of the model now (``accuracy`` when already measured)."""
        if accuracy is None:
            accuracy = self.evaluate_original(trainer)
            self.history.append(accuracy)
        before = self.orig_accuracy_before if self.orig_accuracy_before is not None else accuracy
        result = {
            "orig_accuracy_before": before,
            "orig_accuracy": accuracy,
            "inoculation_cost": 100.0 * (before - accuracy),
        }
        if self.probe_metric in probe_metrics:
            result["aggregate_accuracy"] = (float(probe_metrics[self.probe_metric]) + accuracy) / 2
        return result

    # ------------------------------------------------------------------ hooks
    def on_start(self, trainer, is_primary: bool = True, **kwargs) -> None:
        self._trainer = trainer
        if self.orig_accuracy_before is None:  # not restored from a checkpoint
            self.orig_accuracy_before = self.evaluate_original(trainer)
            logger.info("inoculation_cost: original-task accuracy before inoculation %.4f", self.orig_accuracy_before)
        self._wrap_get_metrics(trainer.model)

    def _wrap_get_metrics(self, model) -> None:
        """Add the original-task metrics to the validation metrics, so the metric tracker (which
        runs before on_epoch) can select by ``aggregate_accuracy``. Validation metrics are the
        ``get_metrics(reset=True)`` call made while the model is in eval mode."""
        if getattr(model, "_inoculation_wrapped", False):
            return
        original = model.get_metrics
        callback = self

        def get_metrics(reset: bool = False):
            metrics = original(reset)
            if reset and not model.training and callback._trainer is not None and not callback._inside:
                callback._inside = True
                try:
                    metrics.update(callback._original_metrics(callback._trainer, metrics))
                finally:
                    callback._inside = False
                callback._evaluated_this_epoch = True
            return metrics

        model.get_metrics = get_metrics
        model._inoculation_wrapped = True

    def on_epoch(self, trainer, metrics: Dict[str, Any], epoch: int, is_primary: bool = True, **kwargs) -> None:
        if not self._evaluated_this_epoch:  # no validation data: evaluate here
            probe = {self.probe_metric: metrics[f"validation_{self.probe_metric}"]} if f"validation_{self.probe_metric}" in metrics else {}
            for key, value in self._original_metrics(trainer, probe).items():
                metrics[f"validation_{key}"] = value
        self._evaluated_this_epoch = False

    def on_end(self, trainer, metrics: Optional[Dict[str, Any]] = None, epoch: Optional[int] = None,
               is_primary: bool = True, **kwargs) -> None:
        """The trainer has loaded the best model by now: record its original-task numbers. With
        validation data they were measured on these weights in the best epoch
        (``best_validation_orig_accuracy``) and are taken from there rather than scored again."""
        if metrics is None:
            return
        probe_value = metrics.get(f"best_validation_{self.probe_metric}")
        recorded = metrics.get("best_validation_orig_accuracy")
        metrics.update(self._original_metrics(trainer, {} if probe_value is None else {self.probe_metric: probe_value},
                                              None if recorded is None else float(recorded)))

    def state_dict(self) -> Dict[str, Any]:
        return {"orig_accuracy_before": self.orig_accuracy_before, "history": list(self.history)}

    def load_state_dict(self, state_dict: Dict[str, Any]) -> None:
        self.orig_accuracy_before = state_dict.get("orig_accuracy_before")
        self.history = list(state_dict.get("history", []))
