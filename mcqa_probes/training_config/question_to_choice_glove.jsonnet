// Question-to-Choice-GloVe (Table 7 group 2): α_i = ATT(r_q, r_{c_i}), BiLSTM max-out encodings.
//   allennlp train training_config/question_to_choice_glove.jsonnet -s runs/question_to_choice
// ATTENTION=bilinear switches the learned scorer from linear([x; y; x-y; x*y]) to xᵀWy + b.
// Overrides: see lib/glove_baseline.libsonnet
local base = import 'lib/glove_baseline.libsonnet';
local env = import 'lib/env.libsonnet';

local attention = {
  linear: {
    type: 'linear',
    combination: 'x,y,x-y,x*y',
    tensor_1_dim: base.representation_dim,
    tensor_2_dim: base.representation_dim,
  },
  bilinear: {
    type: 'bilinear',
    matrix_1_dim: base.representation_dim,
    matrix_2_dim: base.representation_dim,
  },
};

base.experiment({
  type: 'question_to_choice',
  text_field_embedder: base.embedder,
  encoder: base.bilstm,
  matrix_attention: attention[env.str('ATTENTION', 'linear')],
  dropout: env.float('DROPOUT', 0.2),
})
