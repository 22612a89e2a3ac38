// Question-to-Choice-VecSimilarity (Table 7 group 1): average cosine between question and choice
// word vectors. Nothing is trained: the `no_op` trainer only writes the archive, so
//   allennlp train training_config/vec_similarity_glove.jsonnet -s runs/vec_similarity
//   allennlp evaluate runs/vec_similarity/model.tar.gz DEV_OR_TEST.jsonl
// The vocabulary is built from TRAIN_DATA, DEV_DATA and TEST_DATA (words without a vector are
// skipped), so name the files you will evaluate on. Overrides: see lib/glove_baseline.libsonnet
// Defaults: cosine of the mean question and choice vectors (SIMILARITY=pairwise: average over token pairs),
// function words and punctuation left out (IGNORE_STOPWORDS=0 keeps them).
local base = import 'lib/glove_baseline.libsonnet';
local env = import 'lib/env.libsonnet';

base.experiment({
  type: 'vec_similarity',
  text_field_embedder: base.embedder,
  similarity: env.str('SIMILARITY', 'mean_vectors'),
  ignore_stopwords: env.bool('IGNORE_STOPWORDS', true),
}, trainer={ type: 'no_op' })
