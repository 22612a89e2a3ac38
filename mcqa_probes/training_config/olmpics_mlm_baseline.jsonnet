// oLMpics MLM-BASELINE (Talmor et al. 2020, §2.3): the first 20 tokens as 50-d GloVe vectors,
// concatenated (1000-d, zero-padded) -> a randomly initialised MLM-style head -> the same K
// candidate ids as MC-MLM (the reader's tokenizer, MODEL_NAME, gives the ids).
//   TRAIN_DATA=... DEV_DATA=... allennlp train training_config/olmpics_mlm_baseline.jsonnet -s runs/age_base
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
    word_tokens: true,
    skip_multi_piece_candidates: env.bool('SKIP_MULTI_PIECE', false),
  },
  train_data_path: env.str('TRAIN_DATA', 'fixtures/olmpics/number_comparison_age_compare_masked_train.jsonl'),
  validation_data_path: env.str('DEV_DATA', 'fixtures/olmpics/number_comparison_age_compare_masked_dev.jsonl'),
  model: {
    type: 'mlm_baseline',
    transformer_model_name: model_name,
    num_tokens: 20,
    // FF_MLM width: the masked LM's hidden size (1024 for large models) unless HIDDEN is set
    hidden_dim: env.int('HIDDEN', null),
    dropout: env.float('DROPOUT', 0.1),
    precision: env.str('PRECISION', 'fp32'),
    text_field_embedder: {
      token_embedders: {
        glove: {
          type: 'embedding',
          embedding_dim: env.int('EMBEDDING_DIM', 50),
          pretrained_file: env.glove_50d,
          vocab_namespace: 'glove_tokens',
          trainable: false,
        },
      },
    },
  },
  data_loader: { batch_size: env.int('BATCH_SIZE', 16), shuffle: true },
  validation_data_loader: { batch_size: env.int('EVAL_BATCH_SIZE', 64), shuffle: false },
  trainer: {
    num_epochs: env.int('EPOCHS', 10),
    validation_metric: '+accuracy',
    grad_norm: 1.0,
    cuda_device: env.int('CUDA_DEVICE', -1),
    use_amp: env.bool('USE_AMP', false),
    optimizer: { type: 'adamw', lr: env.float('LR', 1e-3), weight_decay: env.float('WEIGHT_DECAY', 0.0) },
    checkpointer: { keep_most_recent_by_count: 1 },
    // allennlp's NormalizationBiasVerification flags dense -> GELU -> LayerNorm wrongly
    run_confidence_checks: false,
  },
}
