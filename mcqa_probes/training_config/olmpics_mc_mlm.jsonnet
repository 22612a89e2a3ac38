// oLMpics MC-MLM probe (Talmor et al. 2020, §2.2): a masked LM scores the K candidate words at
// [MASK]; PROBE_TYPE = mlp (the paper's MLP_MLM: only the pre-trained MLM head trains, encoder and
// input embeddings frozen), linear (only the head's output layer), full (everything).
// Zero-shot needs no training run: bin/zero_shot --model NAME --data FILE.
//   MODEL_NAME=minilm TRAIN_DATA=.../number_comparison_age_compare_masked_train.jsonl \
//   DEV_DATA=.../number_comparison_age_compare_masked_dev.jsonl \
//   allennlp train training_config/olmpics_mc_mlm.jsonnet -s runs/age_mlp
// MODEL_NAME defaults to the offline minilm (NO trained MLM head: its head starts random);
// use roberta-large / bert-large-uncased-whole-word-masking online for the paper's models.
local env = import 'lib/env.libsonnet';

local model_name = env.str('MODEL_NAME', 'minilm');
local seed = env.int('SEED', 42);

{
  random_seed: seed,
  numpy_seed: seed,
  pytorch_seed: seed,
  dataset_reader: {
    type: 'olmpics_mlm',
    transformer_model_name: model_name,
    // reject | skip | pll | pll_word_l2r (SKIP_MULTI_PIECE=true is the older spelling of skip)
    multi_token: env.str('MULTI_TOKEN', if env.bool('SKIP_MULTI_PIECE', false) then 'skip' else 'reject'),
  },
  train_data_path: env.str('TRAIN_DATA', 'fixtures/olmpics/number_comparison_age_compare_masked_train.jsonl'),
  validation_data_path: env.str('DEV_DATA', 'fixtures/olmpics/number_comparison_age_compare_masked_dev.jsonl'),
  model: {
    type: 'masked_lm_mc',
    transformer_model_name: model_name,
    probe_type: env.str('PROBE_TYPE', 'mlp'),
    pll_batch_size: env.int('PLL_BATCH_SIZE', 256),
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
    optimizer: { type: 'adamw', lr: env.float('LR', 1e-4), weight_decay: env.float('WEIGHT_DECAY', 0.0) },
    checkpointer: { keep_most_recent_by_count: 1 },
    // allennlp's NormalizationBiasVerification flags the HF MLM head (dense -> act -> LayerNorm) wrongly
    run_confidence_checks: false,
  },
}
