// Transformer MCQA on CommonsenseQA (Talmor et al. 2019, §5): the roberta_probe recipe with the
// `csqa` reader (original or HuggingFace layout; question_concept kept in metadata).
//   MODEL_NAME=minilm TRAIN_DATA=train_rand_split.jsonl DEV_DATA=dev_rand_split.jsonl \
//   allennlp train training_config/csqa_transformer.jsonnet -s runs/csqa_minilm
// SANITY mode (distractors replaced by random answers of other questions, seeded):
//   SANITY=1 SANITY_SEED=0 ... (applies to train and dev)
// Question-concept split: bin/csqa_split train.jsonl dev.jsonl --out-dir data/csqa_concept, then
//   TRAIN_DATA=data/csqa_concept/train.jsonl DEV_DATA=data/csqa_concept/dev.jsonl
// Every roberta_probe override also applies (MODEL_NAME, EPOCHS, LR, BATCH_SIZE, MAX_LENGTH, SEED, ...).
local env = import 'lib/env.libsonnet';
local base = import 'roberta_probe.jsonnet';

local csqa = {
  type: 'csqa',
  sanity: env.bool('SANITY', false),
  sanity_seed: env.int('SANITY_SEED', 0),
  truncation: env.str('TRUNCATION', 'longest_first'),
};

base {
  dataset_reader+: csqa,
  validation_dataset_reader+: csqa,
  train_data_path: env.str('TRAIN_DATA', 'fixtures/csqa/dev_original.jsonl'),
  validation_data_path: env.str('DEV_DATA', 'fixtures/csqa/dev_hf.jsonl'),
}
