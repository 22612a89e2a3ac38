// Choice-Only-BERT/RoBERTa (Table 7 group 1): the transformer MCQA model with the question hidden
// (the `mcqa` reader's hide_question: each sequence is [CLS] choice [SEP]).
//   MODEL_NAME=minilm allennlp train training_config/choice_only_transformer.jsonnet -s runs/choice_only_minilm
// Same recipe and overrides as roberta_probe.jsonnet (MODEL_NAME, TRAIN_DATA, DEV_DATA, TEST_DATA,
// SEED, EPOCHS, LR, BATCH_SIZE, ...); MODEL_NAME defaults to the offline minilm here.
local env = import 'lib/env.libsonnet';
local probe = import 'roberta_probe.jsonnet';

local model_name = env.str('MODEL_NAME', 'minilm');
local test_data = env.optional('TEST_DATA', null);

probe + {
  dataset_reader+: { transformer_model_name: model_name, hide_question: true },
  model+: { transformer_model_name: model_name },
  trainer+: { optimizer+: { lr: env.float('LR', 2e-5) } },
}
+ (if test_data == null then {} else { test_data_path: test_data, evaluate_on_test: true })
