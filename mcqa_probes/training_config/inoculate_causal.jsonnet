// Inoculation of a causal LM (TACL paper §4.2 for LLMs): fine-tune a pretrained causal LM (LoRA adapters
// by default) on a dose of k probe examples, tracking the inoculation cost on an original task and
// selecting the checkpoint by AVG(S_probe, S_orig). The same `inoculation` reader and `inoculation_cost`
// callback as training_config/inoculate.jsonnet; the model starts from MODEL_NAME, not from an archive,
// and every file (the probe, the original task) is read as causal-LM prompts, so the original task is any
// question file: oLMpics MC-QA, CommonsenseQA-style jsonl, another probe.
//
//   MODEL_NAME=smollm2 PROBE_TRAIN=probes/hypernymy/train.jsonl PROBE_DEV=probes/hypernymy/dev.jsonl \
//   ORIG_DEV=$OLMPICS/composition_v2_dev.jsonl DOSAGE=100 LR=1e-4 DEV_MAX=200 ORIG_DEV_MAX=200 \
//     allennlp train training_config/inoculate_causal.jsonnet -s runs/inoculate_smollm2_k100
//
// bin/inoculate --model smollm2 runs the paper's grid of these (docs/causal_lm.md, "Inoculation").
//   MODEL_NAME    a causal LM name or directory (default smollm2, the offline SmolLM2-135M-Instruct)
//   PROBE_TYPE    lora (default: only the adapters train) | full (every weight)
//   LORA_RANK, LORA_ALPHA, LORA_DROPOUT   the adapters (default 8, 16, 0.0)
//   PROMPT_FORMAT cloze (default) | letters | auto;  SCORE  sum (default) | mean | chars | pmi
//   DOSAGE k, LR, EPOCHS (default 3), BATCH_SIZE (questions per step, default 8), SEED
//   ADD_SOME a (a·k original examples mixed in, from ORIG_TRAIN), DEV_MAX / ORIG_DEV_MAX (caps on the
//   dev files read), CUDA_DEVICE (-1 = CPU), USE_AMP
local env = import 'lib/env.libsonnet';

local seed = env.int('SEED', 13);
local reader = {
  type: 'causal_lm_mc',
  prompt_format: env.str('PROMPT_FORMAT', 'cloze'),
};
local add_some = env.int('ADD_SOME', 0);
local dev_max = env.int('DEV_MAX', 0);
local orig_dev_max = env.int('ORIG_DEV_MAX', 0);
local capped(reader, n) = reader + (if n > 0 then { max_instances: n } else {});

{
  random_seed: seed,
  numpy_seed: seed,
  pytorch_seed: seed,
  dataset_reader: {
    type: 'inoculation',
    base_reader: reader,
    dosage: env.int('DOSAGE', 100),
    selection: env.str('SELECTION', 'first'),
    add_some: add_some,
    [if add_some > 0 then 'original_data_path']: env.str('ORIG_TRAIN', ''),
    seed: seed,
  },
  validation_dataset_reader: capped(reader, dev_max),
  train_data_path: env.str('PROBE_TRAIN', 'fixtures/probes/hypernymy/train.jsonl'),
  validation_data_path: env.str('PROBE_DEV', 'fixtures/probes/hypernymy/dev.jsonl'),
  vocabulary: { type: 'empty' },
  model: {
    type: 'causal_lm_mc',
    transformer_model_name: env.str('MODEL_NAME', 'smollm2'),
    probe_type: env.str('PROBE_TYPE', 'lora'),
    score: env.str('SCORE', 'sum'),
    lora_rank: env.int('LORA_RANK', 8),
    lora_alpha: env.int('LORA_ALPHA', 16),
    lora_dropout: env.float('LORA_DROPOUT', 0.0),
    batch_size: env.int('SCORER_BATCH_SIZE', 32),
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
      lr: env.float('LR', 1e-4),
      weight_decay: 0.0,
    },
    callbacks: [
      {
        type: 'inoculation_cost',
        original_data_path: env.str('ORIG_DEV', 'fixtures/olmpics/conjunction_filt4_dev.jsonl'),
        original_reader: capped(reader, orig_dev_max),
        batch_size: env.int('EVAL_BATCH_SIZE', 32),
      },
    ],
    checkpointer: { keep_most_recent_by_count: 1 },
  },
}
