// WinoVenti §3.3 with allennlp train: a masked LM trained on an exception split written by
// `bin/winoventi_finetune --write-splits DIR` (or any TSV of prompts; pairing is not required).
//   MODEL_NAME=roberta-base TRAIN_DATA=DIR/full_train.tsv DEV_DATA=DIR/full_test_exception.tsv \
//   allennlp train training_config/winoventi_finetune.jsonnet -s runs/wv_full
// PROBE_TYPE: full (default: the whole model is fine-tuned, as in the paper), mlp (MLM head only) or linear.
// validation metrics: generic_accuracy / exception_accuracy (strict P(target) > P(incorrect)).
local env = import 'lib/env.libsonnet';

local model_name = env.str('MODEL_NAME', 'minilm');
local reader = { type: 'winoventi', transformer_model_name: model_name, check_pairs: false };
local seed = env.int('SEED', 0);

{
  random_seed: seed, numpy_seed: seed, pytorch_seed: seed,
  dataset_reader: reader,
  train_data_path: env.str('TRAIN_DATA', 'fixtures/winoventi/winoventi_small.tsv'),
  validation_data_path: env.str('DEV_DATA', 'fixtures/winoventi/winoventi_small.tsv'),
  vocabulary: { type: 'empty' },
  model: { type: 'winoventi_mlm', transformer_model_name: model_name, probe_type: env.str('PROBE_TYPE', 'full'),
           precision: env.str('PRECISION', 'fp32') },
  data_loader: { batch_size: env.int('BATCH_SIZE', 16), shuffle: true },
  validation_data_loader: { batch_size: 64, shuffle: false },
  trainer: {
    num_epochs: env.int('EPOCHS', 1),
    validation_metric: '+accuracy',
    grad_norm: 1.0,
    cuda_device: env.int('CUDA_DEVICE', -1),
    use_amp: env.bool('USE_AMP', false),
    optimizer: { type: 'adamw', lr: env.float('LR', 1e-4), weight_decay: 0.0 },
    checkpointer: { keep_most_recent_by_count: 1 },
  },
}
