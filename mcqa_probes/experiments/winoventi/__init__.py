"""The WinoVenti procedure and evaluation (Do & Pavlick 2021) for any masked LM.

* :mod:`.evaluate` - score the challenge TSV, Table 6 (All / Individual / Intersection);
* :mod:`.associations` - §2.2 generic associations (top-k of "The [ENTITY] is (not) [MASK]."),
  Jaccard similarity between models (Table 4);
* :mod:`.adversarial_filter` - §2.4 keep (noun, generic, exception) when the model prefers the generic;
* :mod:`.finetune` - §3.3 half / full exception fine-tuning, accuracy before and after.

Library functions; thin command-line wrappers in ``bin/winoventi_*``. Nothing is registered here
(the ``winoventi`` reader and ``winoventi_mlm`` model live in ``data/dataset_readers`` and ``models``).
"""
