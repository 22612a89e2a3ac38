// Inoculation (TACL paper §4.2): continue training a trained MCQA archive on a dose of k probe
// examples (optionally mixed with original-task examples), tracking the inoculation cost on the
// original task's dev set and selecting the checkpoint by AVG(S_probe, S_orig).
//
//   BASE_ARCHIVE=runs/base/model.tar.gz PROBE_TRAIN=probes/hypernymy/train.jsonl \
//   PROBE_DEV=probes/hypernymy/dev.jsonl ORIG_DEV=data/orig_dev.jsonl DOSAGE=100 LR=1e-5 \
//     allennlp train training_config/inoculate.jsonnet -s runs/inoculate_k100
//
// MODEL_NAME, MAX_LENGTH and TRUNCATION must be the base archive's reader's, so that the reader
// tokenizes like the archived model (bin/inoculate reads them from the archive's config).
local env = import 'lib/env.libsonnet';

local model_name = env.str('MODEL_NAME', 'minilm');
local seed = env.int('SEED', 13);
local base_reader = {
  type: 'mcqa',
  transformer_model_name: model_name,
  max_length: env.int('MAX_LENGTH', 128),
  truncation: env.str('TRUNCATION', 'question_start'),
};
local add_some = env.int('ADD_SOME', 0);
// Optional caps on the dev sets read (the built probes' dev/test files are large).
local dev_max = env.int('DEV_MAX', 0);
local orig_dev_max = env.int('ORIG_DEV_MAX', 0);
local capped(reader, n) = reader + (if n > 0 then { max_instances: n } else {});

{
  random_seed: seed,
  numpy_seed: seed,
  pytorch_seed: seed,
  dataset_reader: {
    type: 'inoculation',
    base_reader: base_reader,
    dosage: env.int('DOSAGE', 100),
    selection: env.str('SELECTION', 'first'),
    add_some: add_some,
    [if add_some > 0 then 'original_data_path']: env.str('ORIG_TRAIN', ''),
    seed: seed,
  },
  validation_dataset_reader: capped(base_reader, dev_max),
  train_data_path: env.str('PROBE_TRAIN', 'fixtures/data/wordnetqa_hypernymy.jsonl'),
  validation_data_path: env.str('PROBE_DEV', 'fixtures/data/wordnetqa_hypernymy.jsonl'),
  model: {
    type: 'from_archive',
    archive_file: env.str('BASE_ARCHIVE', 'runs/base/model.tar.gz'),
  },
  data_loader: { batch_size: env.int('BATCH_SIZE', 8), shuffle: true },
  validation_data_loader: { batch_size: env.int('EVAL_BATCH_SIZE', 32), shuffle: false },
  trainer: {
    num_epochs: env.int('EPOCHS', 3),
    num_gradient_accumulation_steps: env.int('GRAD_ACCUM', 1),
    validation_metric: '+aggregate_accuracy',
    grad_norm: 1.0,
    cuda_device: env.int('CUDA_DEVICE', -1),
    use_amp: env.bool('USE_AMP', false),
    optimizer: {
      type: 'adamw',
      lr: env.float('LR', 1e-5),
      weight_decay: 0.01,
      parameter_groups: [[['bias', 'LayerNorm\\.weight'], { weight_decay: 0.0 }]],
    },
    callbacks: [
      {
        type: 'inoculation_cost',
        original_data_path: env.str('ORIG_DEV', 'fixtures/data/dictionary_qa.jsonl'),
        original_reader: capped(base_reader, orig_dev_max),
        batch_size: env.int('EVAL_BATCH_SIZE', 32),
      },
    ],
    checkpointer: { keep_most_recent_by_count: 1 },
  },
}
