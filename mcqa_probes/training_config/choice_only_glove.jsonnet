// Choice-Only-GloVe (Table 7 group 1): α_i = Wᵀ r_{c_i}, the question never seen.
//   allennlp train training_config/choice_only_glove.jsonnet -s runs/choice_only
// Overrides: see lib/glove_baseline.libsonnet (TRAIN_DATA, DEV_DATA, TEST_DATA, GLOVE_FILE, SEED, EPOCHS, ...)
local base = import 'lib/glove_baseline.libsonnet';
local env = import 'lib/env.libsonnet';

base.experiment({
  type: 'choice_only',
  text_field_embedder: base.embedder,
  encoder: base.bilstm,
  dropout: env.float('DROPOUT', 0.2),
})
