// Causal LMs (GPT-2, Llama, Qwen, SmolLM2, ...) through `allennlp evaluate`: zero-shot, nothing trains.
// The no_op trainer only writes the archive (no LM weights in it: the model reloads MODEL_NAME):
//   MODEL_NAME=smollm2 allennlp train training_config/causal_lm_zero_shot.jsonnet -s runs/smollm2_zs
//   allennlp evaluate runs/smollm2_zs/model.tar.gz fixtures/probes/hypernymy/dev.jsonl
// prints accuracy (under SCORE), accuracy_sum / _mean / _chars / _pmi, choice_only_accuracy, cluster_accuracy
// on probe files with clusters, generic/exception/strict_accuracy on WinoVenti TSVs. With TEST_DATA=FILE the
// train command itself scores FILE (test_accuracy in runs/.../metrics.json). One command per file:
// bin/zero_shot --model smollm2 --data FILE. See docs/causal_lm.md.
//   MODEL_NAME   a causal LM name or directory (default smollm2, the offline SmolLM2-135M-Instruct)
//   SCORE        sum (lm-evaluation-harness acc, default) | mean | chars (acc_norm) | pmi
//   TEMPLATE     the cloze context of question files, with {stem} (default "Question: {stem}\nAnswer:")
//   PROMPT_FORMAT auto (default: a stem with [MASK] is a sentence) | cloze | sentence
//   CHOICE_ONLY_CONTROL  also score every choice after "Answer:" alone (default true)
//   PRECISION    fp32 | bf16 | fp16;  BATCH_SIZE  questions per batch (default 32)
//   CUDA_DEVICE  the GPU the LM is loaded on (model.device_map cuda:N; default -1 = CPU, or
//                `allennlp evaluate --cuda-device N` on an archive made without it)
//   TRAIN_DATA   read once for the (empty) vocabulary; TEST_DATA  scored at the end of `allennlp train`
local env = import 'lib/env.libsonnet';

local model_name = env.str('MODEL_NAME', 'smollm2');
local cuda_device = env.int('CUDA_DEVICE', -1);
local template = env.optional('TEMPLATE', null);
local test_data = env.optional('TEST_DATA', null);
local batch_size = env.int('BATCH_SIZE', 32);

{
  dataset_reader: {
    type: 'causal_lm_mc',
    prompt_format: env.str('PROMPT_FORMAT', 'auto'),
  } + (if template == null then {} else { template: template }),
  train_data_path: env.str('TRAIN_DATA', 'fixtures/probes/hypernymy/dev.jsonl'),
  vocabulary: { type: 'empty' },
  model: {
    type: 'causal_lm_mc',
    transformer_model_name: model_name,
    score: env.str('SCORE', 'sum'),
    choice_only_control: env.bool('CHOICE_ONLY_CONTROL', true),
    batch_size: batch_size,
    precision: env.str('PRECISION', 'fp32'),
  } + (if cuda_device >= 0 then { device_map: 'cuda:' + cuda_device } else {}),
  data_loader: { batch_size: batch_size, shuffle: false },
  trainer: { type: 'no_op' },
} + (if test_data == null then {} else { test_data_path: test_data, evaluate_on_test: true })
