// Environment-variable overrides with defaults (see mcqa_probes/common/config_env.py).
// allennlp passes the environment as extVars; the mcqa_probes plugin adds MCQA_PROBES_ENV,
// a JSON object of all of them, so a missing variable can fall back to a default here.
local env = std.parseJson(std.extVar('MCQA_PROBES_ENV'));
local has(name) = std.objectHas(env, name) && env[name] != '';
{
  str(name, default):: if has(name) then env[name] else default,
  int(name, default):: if has(name) then std.parseInt(env[name]) else default,
  float(name, default):: if has(name) then std.parseJson(env[name]) else default,
  bool(name, default):: if has(name) then std.member(['1', 'true', 'yes', 'True'], env[name]) else default,
  // the offline GloVe 6B 50d file prepared by bin/setup (GLOVE_FILE overrides it)
  glove_50d:: if has('GLOVE_FILE') then env.GLOVE_FILE else if has('MCQA_PROBES_GLOVE_50D') then env.MCQA_PROBES_GLOVE_50D else error 'GloVe 50d file unknown: run bin/setup or set GLOVE_FILE',
  // a path, or null when unset and the default is null
  optional(name, default):: if has(name) then env[name] else default,
}
