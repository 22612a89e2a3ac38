// Transformer MCQA with the TACL paper's fine-tuning recipe (Richardson & Sabharwal 2020, §4):
// AdamW with weight decay (none on biases / LayerNorm), linear warm-up then decay
// (slanted triangular), a few epochs, gradient accumulation.
//
// Every setting below can be overridden from the environment, e.g. the offline run:
//   MODEL_NAME=minilm TRAIN_DATA=fixtures/data/wordnetqa_hypernymy.jsonl \
//   DEV_DATA=fixtures/data/wordnetqa_hypernymy.jsonl EPOCHS=2 \
//   allennlp train training_config/roberta_probe.jsonnet -s runs/minilm_probe
// Device and precision: CUDA_DEVICE (-1 = CPU), PRECISION (the model's autocast: fp32 | bf16 | fp16;
// logits stay fp32), USE_AMP (allennlp's mixed-precision training, CUDA only; default false).
local env = import 'lib/env.libsonnet';

local model_name = env.str('MODEL_NAME', 'roberta-large');
local max_length = env.int('MAX_LENGTH', 128);
local batch_size = env.int('BATCH_SIZE', 16);
local accumulation = env.int('GRAD_ACCUM', 1);
local epochs = env.int('EPOCHS', 3);
local learning_rate = env.float('LR', 1e-5);
local seed = env.int('SEED', 42);
local truncation = env.str('TRUNCATION', 'question_start');

local reader = {
  type: 'mcqa',
  transformer_model_name: model_name,
  max_length: max_length,
  truncation: truncation,
};
// Optional caps on the number of questions read (the built probes' dev/test sets are large).
local train_max = env.int('TRAIN_MAX', 0);
local dev_max = env.int('DEV_MAX', 0);

{
  random_seed: seed,
  numpy_seed: seed,
  pytorch_seed: seed,
  dataset_reader: reader + (if train_max > 0 then { max_instances: train_max } else {}),
  validation_dataset_reader: reader + (if dev_max > 0 then { max_instances: dev_max } else {}),
  train_data_path: env.str('TRAIN_DATA', 'fixtures/data/wordnetqa_hypernymy.jsonl'),
  validation_data_path: env.str('DEV_DATA', 'fixtures/data/wordnetqa_hypernymy.jsonl'),
  model: {
    type: 'transformer_mcqa',
    transformer_model_name: model_name,
    pooling: env.str('POOLING', 'first_token'),
    dropout: env.float('DROPOUT', 0.1),
    precision: env.str('PRECISION', 'fp32'),
  },
  data_loader: {
    batch_size: batch_size,
    shuffle: true,
  },
  validation_data_loader: {
    batch_size: env.int('EVAL_BATCH_SIZE', 32),
    shuffle: false,
  },
  trainer: {
    num_epochs: epochs,
    num_gradient_accumulation_steps: accumulation,
    validation_metric: '+accuracy',
    grad_norm: 1.0,
    cuda_device: env.int('CUDA_DEVICE', -1),
    use_amp: env.bool('USE_AMP', false),
    optimizer: {
      type: 'adamw',
      lr: learning_rate,
      weight_decay: env.float('WEIGHT_DECAY', 0.01),
      eps: 1e-6,
      parameter_groups: [
        [['bias', 'LayerNorm\\.weight', 'layer_norm\\.weight'], { weight_decay: 0.0 }],
      ],
    },
    learning_rate_scheduler: {
      type: 'slanted_triangular',
      cut_frac: env.float('WARMUP_FRACTION', 0.1),
      gradual_unfreezing: false,
      discriminative_fine_tuning: false,
    },
    checkpointer: { keep_most_recent_by_count: 1 },
  },
}
