// Shared pieces of the word-level (GloVe) MCQA baselines: reader, embedder, BiLSTM, data, trainer.
// Each training_config/*_glove.jsonnet adds its model block: `base.experiment(model)`.
//
// Environment overrides (all optional):
//   TRAIN_DATA, DEV_DATA, TEST_DATA   jsonl files (defaults: the fixture probe; TEST_DATA unset = none)
//   GLOVE_FILE                        any GloVe-format .txt/.txt.gz (default: offline GloVe 6B 50d)
//   EMBEDDING_DIM                     its dimension (default 50; 300 for glove.840B.300d)
//   HIDDEN                            BiLSTM hidden size per direction, h (default 100; r_s has 2h)
//   SEED (13), EPOCHS (12), PATIENCE (4), BATCH_SIZE (32), LR (0.002), DROPOUT, CUDA_DEVICE
//   PRECISION (the model's fp32 | bf16 | fp16 autocast, default fp32), USE_AMP (trainer, CUDA only)
// For ELMo, replace `embedder` by an `elmo_token_embedder` and add an `elmo_characters` indexer.
local env = import 'env.libsonnet';

local embedding_dim = env.int('EMBEDDING_DIM', 50);
local hidden = env.int('HIDDEN', 100);
local seed = env.int('SEED', 13);
local glove_file = env.glove_50d;  // GLOVE_FILE wins over the offline GloVe 6B 50d
local test_data = env.optional('TEST_DATA', null);

{
  embedding_dim:: embedding_dim,
  hidden:: hidden,
  representation_dim:: 2 * hidden,
  glove_file:: glove_file,

  reader:: {
    type: 'mcqa_words',
    tokenizer: { type: 'letters_digits' },
    token_indexers: { tokens: { type: 'single_id', lowercase_tokens: true } },
  },

  // EMBED(·): frozen GloVe vectors; the vocabulary keeps only words the file has (others -> OOV)
  embedder:: {
    token_embedders: {
      tokens: {
        type: 'embedding',
        embedding_dim: embedding_dim,
        pretrained_file: glove_file,
        trainable: false,
      },
    },
  },

  // h_s = BiLSTM(EMBED(s))
  bilstm:: {
    type: 'lstm',
    input_size: embedding_dim,
    hidden_size: hidden,
    bidirectional: true,
  },

  vocabulary:: {
    type: 'from_instances',
    pretrained_files: { tokens: glove_file },
    only_include_pretrained_words: true,
  },

  trainer:: {
    num_epochs: env.int('EPOCHS', 12),
    patience: env.int('PATIENCE', 4),
    validation_metric: '+accuracy',
    grad_norm: 5.0,
    cuda_device: env.int('CUDA_DEVICE', -1),
    use_amp: env.bool('USE_AMP', false),
    optimizer: { type: 'adam', lr: env.float('LR', 0.002) },
    checkpointer: { keep_most_recent_by_count: 1 },
  },

  experiment(model, trainer=self.trainer):: {
    random_seed: seed,
    numpy_seed: seed,
    pytorch_seed: seed,
    dataset_reader: $.reader,
    vocabulary: $.vocabulary,
    train_data_path: env.str('TRAIN_DATA', 'fixtures/data/wordnetqa_hypernymy.jsonl'),
    validation_data_path: env.str('DEV_DATA', 'fixtures/data/wordnetqa_hypernymy.jsonl'),
    model: model { precision: env.str('PRECISION', 'fp32') },
    data_loader: { batch_size: env.int('BATCH_SIZE', 32), shuffle: true },
    validation_data_loader: { batch_size: 64, shuffle: false },
    trainer: trainer,
  } + (if test_data == null then {} else { test_data_path: test_data, evaluate_on_test: true }),
}
