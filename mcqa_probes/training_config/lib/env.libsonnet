// Environment-variable overrides with defaults (see mcqa_probes/common/config_env.py).
// allennlp passes the environment as extVars; the mcqa_probes plugin adds MCQA_PROBES_ENV,
// a JSON object of all of them, so a missing variable can fall back to a default here.
// A variable may be given in upper case (MODEL_NAME, the documented form) or lower case (model_name).
local env = std.parseJson(std.extVar('MCQA_PROBES_ENV'));
local set(name) = std.objectHas(env, name) && env[name] != '';
local has(name) = set(name) || set(std.asciiLower(name));
local value(name) = if set(name) then env[name] else env[std.asciiLower(name)];
{
  str(name, default):: if has(name) then value(name) else default,
  int(name, default):: if has(name) then std.parseInt(value(name)) else default,
  float(name, default):: if has(name) then std.parseJson(value(name)) else default,
  bool(name, default):: if has(name) then std.member(['1', 'true', 'yes', 'True'], value(name)) else default,
  // the offline GloVe 6B 50d file prepared by bin/setup (GLOVE_FILE overrides it)
  glove_50d:: if has('GLOVE_FILE') then value('GLOVE_FILE') else if has('MCQA_PROBES_GLOVE_50D') then env.MCQA_PROBES_GLOVE_50D else error 'GloVe 50d file unknown: run bin/setup or set GLOVE_FILE',
  // a path, or null when unset and the default is null
  optional(name, default):: if has(name) then value(name) else default,
}
