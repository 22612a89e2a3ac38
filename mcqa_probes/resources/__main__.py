"""``python -m mcqa_probes.resources prepare|check``.

``prepare`` creates what is derived from the installed sources (the NLTK-readable WordNet copy,
the GloVe text file); ``check`` does the same and also opens WordNet and counts its noun synsets.
Both print one line per resource and exit 1 if a resource is missing.
"""
import argparse
import sys
import time


def _report(name, function):
    start = time.time()
    try:
        value = function()
    except Exception as error:  # report every resource, then fail
        print(f"    {name:<10} MISSING: {error}")
        return False
    print(f"    {name:<10} {value}  ({time.time() - start:.1f} s)")
    return True


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mcqa_probes.resources", description=__doc__)
    parser.add_argument("action", choices=["prepare", "check"])
    args = parser.parse_args(argv)
    from mcqa_probes.resources import find_gcide, find_wordnet_root, glove_50d_file, load_wordnet, minilm_dir  # lazy: --help needs none of them
    from mcqa_probes.resources.pretrained import smollm2_dir  # lazy: as above

    def wordnet():
        reader = load_wordnet()
        if args.action == "check":
            count = sum(1 for _ in reader.all_synsets("n"))
            return f"{find_wordnet_root()} (WordNet {reader.get_version()}, {count} noun synsets)"
        return f"{find_wordnet_root()} (WordNet {reader.get_version()})"

    results = [
        _report("WordNet", wordnet),
        _report("GCIDE", lambda: find_gcide().index.parent),
        _report("GloVe 50d", lambda: glove_50d_file(create=True)),
        _report("MiniLM", minilm_dir),
        _report("SmolLM2", smollm2_dir),  # converted by python -m mcqa_probes.models.causal_lm_loading prepare
    ]
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())
