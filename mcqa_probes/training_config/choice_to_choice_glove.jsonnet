// Choice-to-Choice-GloVe (Table 7 group 1): α_i = Σ_{i'≠i} ATT(r_{c_i'}, r_{c_i}), no question.
//   allennlp train training_config/choice_to_choice_glove.jsonnet -s runs/choice_to_choice
// Overrides: see lib/glove_baseline.libsonnet
local base = import 'lib/glove_baseline.libsonnet';
local env = import 'lib/env.libsonnet';

base.experiment({
  type: 'choice_to_choice',
  text_field_embedder: base.embedder,
  encoder: base.bilstm,
  matrix_attention: {
    type: 'linear',
    combination: 'x,y,x-y,x*y',
    tensor_1_dim: base.representation_dim,
    tensor_2_dim: base.representation_dim,
  },
  dropout: env.float('DROPOUT', 0.2),
})
