// ESIM-GloVe trained directly on a probe: ESIM (Chen et al. 2017) over each (question, choice)
// pair -> one logit per choice, any number of choices.
//   allennlp train training_config/esim_glove.jsonnet -s runs/esim
// Overrides: see lib/glove_baseline.libsonnet (HIDDEN sets every ESIM layer size; default 100)
local base = import 'lib/glove_baseline.libsonnet';
local env = import 'lib/env.libsonnet';

local h = base.hidden;

base.experiment({
  type: 'esim_mcqa',
  text_field_embedder: base.embedder,
  encoder: base.bilstm,
  matrix_attention: { type: 'dot_product' },
  projection_feedforward: { input_dim: 8 * h, hidden_dims: h, num_layers: 1, activations: 'relu' },
  inference_encoder: { type: 'lstm', input_size: h, hidden_size: h, bidirectional: true },
  output_feedforward: { input_dim: 8 * h, hidden_dims: h, num_layers: 1, activations: 'relu', dropout: env.float('DROPOUT', 0.5) },
  output_logit: { input_dim: h, num_layers: 1, hidden_dims: 1, activations: 'linear' },
  dropout: env.float('DROPOUT', 0.5),
  initializer: { regexes: [['.*linear_layers.*weight', { type: 'xavier_uniform' }], ['.*weight_ih.*', { type: 'xavier_uniform' }], ['.*weight_hh.*', { type: 'orthogonal' }], ['.*bias_ih.*', { type: 'zero' }], ['.*bias_hh.*', { type: 'lstm_hidden_bias' }]] },
})
