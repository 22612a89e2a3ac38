// oLMpics MC-QA probe (Talmor et al. 2020, §2.2): "[CLS] question [SEP] choice [SEP]" per choice,
// a 1-logit scorer over the first token, softmax over the K choices; the whole network is
// fine-tuned (as the paper does for Property Conjunction and Encyclopedic Composition).
//   MODEL_NAME=minilm TRAIN_DATA=.../conjunction_filt4_train.jsonl DEV_DATA=.../conjunction_filt4_dev.jsonl \
//   allennlp train training_config/olmpics_mc_qa.jsonnet -s runs/propconj
// TRAIN_TRANSFORMER=false freezes the encoder (only the choice scorer trains).
// Baseline for MC-QA probes: ESIM-GloVe, training_config/esim_glove.jsonnet (same files).
local env = import 'lib/env.libsonnet';

local model_name = env.str('MODEL_NAME', 'minilm');
local seed = env.int('SEED', 42);

{
  random_seed: seed,
  numpy_seed: seed,
  pytorch_seed: seed,
  dataset_reader: {
    type: 'mcqa',
    transformer_model_name: model_name,
    max_length: env.int('MAX_LENGTH', 64),
  },
  train_data_path: env.str('TRAIN_DATA', 'fixtures/olmpics/conjunction_filt4_dev.jsonl'),
  validation_data_path: env.str('DEV_DATA', 'fixtures/olmpics/conjunction_filt4_dev.jsonl'),
  model: {
    type: 'transformer_mcqa',
    transformer_model_name: model_name,
    dropout: env.float('DROPOUT', 0.1),
    train_transformer: env.bool('TRAIN_TRANSFORMER', true),
    precision: env.str('PRECISION', 'fp32'),
  },
  data_loader: { batch_size: env.int('BATCH_SIZE', 16), shuffle: true },
  validation_data_loader: { batch_size: env.int('EVAL_BATCH_SIZE', 64), shuffle: false },
  trainer: {
    num_epochs: env.int('EPOCHS', 4),
    validation_metric: '+accuracy',
    grad_norm: 1.0,
    cuda_device: env.int('CUDA_DEVICE', -1),
    use_amp: env.bool('USE_AMP', false),
    optimizer: { type: 'adamw', lr: env.float('LR', 2e-5), weight_decay: env.float('WEIGHT_DECAY', 0.01) },
    checkpointer: { keep_most_recent_by_count: 1 },
  },
}
