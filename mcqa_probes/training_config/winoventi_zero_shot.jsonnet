// WinoVenti through `allennlp evaluate`: a zero-shot masked LM (nothing trains) saved as an archive.
//   MODEL_NAME=bert-large-cased-whole-word-masking allennlp train training_config/winoventi_zero_shot.jsonnet -s runs/wv
//   allennlp evaluate runs/wv/model.tar.gz winoventi_bert_large_final.tsv
// prints accuracy, generic_accuracy (test_type 1), exception_accuracy (test_type 2) and counts.
// Subsets: --overrides '{"dataset_reader": {"subset": "individual", "registry_path": ".../associativebias_registry.tsv",
//   "subset_model": "bert-base-cased"}}' (or "intersection"). Table 6 in one go: bin/winoventi_eval.
// The no_op trainer only saves the weights; WINOVENTI_TSV is read once to build the (empty) vocabulary.
local env = import 'lib/env.libsonnet';

local model_name = env.str('MODEL_NAME', 'minilm');

{
  dataset_reader: { type: 'winoventi', transformer_model_name: model_name },
  train_data_path: env.str('WINOVENTI_TSV', 'fixtures/winoventi/winoventi_small.tsv'),
  vocabulary: { type: 'empty' },
  model: { type: 'winoventi_mlm', transformer_model_name: model_name, probe_type: 'zero_shot',
           precision: env.str('PRECISION', 'fp32') },
  data_loader: { batch_size: env.int('BATCH_SIZE', 64), shuffle: false },
  trainer: { type: 'no_op' },
}
