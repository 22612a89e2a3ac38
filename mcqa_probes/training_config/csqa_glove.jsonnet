// The GloVe baselines on CommonsenseQA: BASELINE = esim (default) | choice_only | question_to_choice
// | choice_to_choice | vec_similarity, i.e. training_config/<BASELINE>_glove.jsonnet with CSQA data.
//   BASELINE=esim TRAIN_DATA=train_rand_split.jsonl DEV_DATA=dev_rand_split.jsonl \
//   allennlp train training_config/csqa_glove.jsonnet -s runs/csqa_esim
// SANITY mode: the word-level reader has no sanity option; write the files first with
//   bin/csqa_sanity train_rand_split.jsonl train_sanity.jsonl (same draw as the csqa reader).
// Other overrides: see lib/glove_baseline.libsonnet (GLOVE_FILE, EPOCHS, HIDDEN, SEED, ...).
local env = import 'lib/env.libsonnet';

local baselines = {
  esim: import 'esim_glove.jsonnet',
  choice_only: import 'choice_only_glove.jsonnet',
  question_to_choice: import 'question_to_choice_glove.jsonnet',
  choice_to_choice: import 'choice_to_choice_glove.jsonnet',
  vec_similarity: import 'vec_similarity_glove.jsonnet',
};
local name = env.str('BASELINE', 'esim');

(if std.objectHas(baselines, name) then baselines[name] else error ('BASELINE must be one of ' + std.join(', ', std.objectFields(baselines)))) + {
  train_data_path: env.str('TRAIN_DATA', 'fixtures/csqa/dev_original.jsonl'),
  validation_data_path: env.str('DEV_DATA', 'fixtures/csqa/dev_hf.jsonl'),
}
