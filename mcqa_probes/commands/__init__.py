"""allennlp subcommands added by the plugin (``allennlp probe-report``)."""
