"""GEN for ontologies in French, German, Spanish and Dutch: the question templates of
:mod:`.ontology_templates` (definition contexts and question frames) and of :mod:`.templates` (the
paper's frames around an example sentence), written in each language with the same template ids,
so that a thesaurus read with ``--lang fr`` is asked in French and its ``notes.template`` names the
same frame as in English.

The frames avoid what would have to agree with the term: French ``'x' a pour définition`` rather
than ``est défini(e)``, and a relation probe names its relation as given (``selon la relation
'partie de', 'x' a pour terme associé``) rather than conjugating it (nor ``'x' est lié à``, whose
participle would agree with a feminine term). German and Dutch put the verb second after
a clause, so there the context is a sentence of its own (``'x' ist definiert als '...'. 'x' ist eine
Art von``): ``joiner``. Elisions are written with a typographic apostrophe (``l’exemple``), the
term and the definition between ASCII quotes as in English.

``function_words`` are the frames' words that do not name an answer (the articles, prepositions
and question words), as :data:`.ontology_templates.FUNCTION_WORDS` for English.
"""
from typing import Dict, FrozenSet, NamedTuple


class LanguageFrames(NamedTuple):
    """One language's templates (the keys are the English tables' ids)."""

    #: definition context frames (``{w}`` the term, ``{d}`` its definition)
    context: Dict[str, str]
    #: question frames per probe kind (``{w}`` the term, ``{r}`` the relation's name)
    question: Dict[str, Dict[str, str]]
    #: the paper's context frames around an example sentence ``{s}``
    example_context: Dict[str, str]
    #: the paper's question frames per probe kind (``{w}`` the term as written in the sentence)
    example_question: Dict[str, Dict[str, str]]
    #: words of the frames that name no answer (lower case)
    function_words: FrozenSet[str]
    #: what joins a context to its question (``", "``; ``". "``: the question then starts a sentence)
    joiner: str = ", "


FRENCH = LanguageFrames(
    context={
        "dctx0": "Sachant que '{w}' a pour définition '{d}'",
        "dctx1": "En prenant '{w}' au sens de '{d}'",
        "dctx2": "Étant donné la définition '{d}' de '{w}'",
    },
    question={
        "definitions": {
            "odef0": "que signifie le terme '{w}' ?",
            "odef1": "le terme '{w}' se définit le mieux comme",
            "odef2": "laquelle de ces propositions est la définition de '{w}' ?",
            "odef3": "'{w}' désigne",
        },
        "synonymy": {
            "osyn0": "quel terme est un autre nom de '{w}' ?",
            "osyn1": "'{w}' se dit aussi",
            "osyn2": "lequel de ces termes a le même sens que '{w}' ?",
        },
        "hypernymy": {
            "ohyper0": "'{w}' est une sorte de",
            "ohyper1": "à quelle catégorie plus large appartient '{w}' ?",
            "ohyper2": "'{w}' est une forme plus spécifique de",
            "ohyper3": "'{w}' est un exemple de quelle catégorie ?",
        },
        "hyponymy": {
            "ohypo0": "lequel de ces termes est une sorte de '{w}' ?",
            "ohypo1": "une sorte plus spécifique de '{w}' est",
            "ohypo2": "quel choix nomme un type de '{w}' ?",
        },
        "relation": {
            "orel0": "selon la relation '{r}', '{w}' a pour terme associé",
            "orel1": "quel terme est lié à '{w}' par la relation '{r}' ?",
            "orel2": "complétez : '{w}' ({r}) ...",
        },
    },
    example_context={
        "ctx0": "Au sens de la phrase '{s}'",
        "ctx1": "Dans l’exemple '{s}'",
        "ctx2": "D’après l’usage '{s}'",
        "ctx3": "Avec '{s}' pour contexte",
        "ctx4": "Quand quelqu’un écrit '{s}'",
        "ctx5": "D’après la formule '{s}'",
        "ctx6": "Dans la phrase '{s}'",
        "ctx7": "À la lecture des mots '{s}'",
    },
    example_question={
        "definitions": {
            "def0": "le mot '{w}' signifie à peu près",
            "def1": "'{w}' s’explique le mieux par",
            "def2": "laquelle de ces propositions donne le sens de '{w}' ?",
            "def3": "le sens de '{w}' est le plus proche de",
            "def4": "que veut dire '{w}' ?",
            "def5": "le sens voulu de '{w}' est",
        },
        "hypernymy": {
            "hyper0": "'{w}' désigne une sorte de",
            "hyper1": "on peut classer '{w}' comme un type de",
            "hyper2": "à quelle catégorie plus large appartient '{w}' ?",
            "hyper3": "'{w}' est une forme plus spécifique de",
            "hyper4": "la notion '{w}' relève de",
            "hyper5": "'{w}' est un exemple de quelle catégorie ?",
        },
        "hyponymy": {
            "hypo0": "lequel de ces termes est une sorte particulière de '{w}' ?",
            "hypo1": "une sorte plus spécifique de '{w}' est",
            "hypo2": "quel choix nomme un type de '{w}' ?",
            "hypo3": "une variété précise de '{w}' serait",
            "hypo4": "lequel des termes suivants est un cas particulier de '{w}' ?",
            "hypo5": "parmi les sous-types de '{w}', on trouve",
        },
    },
    function_words=frozenset("le la les l un une des de du d à au aux en et ou est sont que qu qui quoi quel quelle "
                             "lequel laquelle ces ce cette se s on par pour dans avec plus mieux même".split()),
)

GERMAN = LanguageFrames(
    context={
        "dctx0": "'{w}' ist definiert als '{d}'",
        "dctx1": "'{w}' bedeutet '{d}'",
        "dctx2": "Die Definition von '{w}' lautet '{d}'",
    },
    question={
        "definitions": {
            "odef0": "was bedeutet der Begriff '{w}'?",
            "odef1": "der Begriff '{w}' ist am besten definiert als",
            "odef2": "welche dieser Angaben ist die Definition von '{w}'?",
            "odef3": "'{w}' bezeichnet",
        },
        "synonymy": {
            "osyn0": "welcher Begriff ist ein anderer Name für '{w}'?",
            "osyn1": "'{w}' ist auch bekannt als",
            "osyn2": "welcher dieser Begriffe bedeutet dasselbe wie '{w}'?",
        },
        "hypernymy": {
            "ohyper0": "'{w}' ist eine Art von",
            "ohyper1": "zu welcher übergeordneten Kategorie gehört '{w}'?",
            "ohyper2": "'{w}' ist eine speziellere Form von",
            "ohyper3": "wofür ist '{w}' ein Beispiel?",
        },
        "hyponymy": {
            "ohypo0": "welcher dieser Begriffe ist eine Art von '{w}'?",
            "ohypo1": "eine speziellere Art von '{w}' ist",
            "ohypo2": "welche Antwort nennt eine Unterart von '{w}'?",
        },
        "relation": {
            "orel0": "in der Beziehung '{r}' steht '{w}' zu",
            "orel1": "welcher Begriff steht zu '{w}' in der Beziehung '{r}'?",
            "orel2": "ergänzen Sie: '{w}' ({r}) ...",
        },
    },
    example_context={
        "ctx0": "Der Satz lautet '{s}'",
        "ctx1": "Ein Beispiel: '{s}'",
        "ctx2": "So wird das Wort gebraucht: '{s}'",
        "ctx3": "Der Kontext ist '{s}'",
        "ctx4": "Jemand schreibt '{s}'",
        "ctx5": "Die Wendung lautet '{s}'",
        "ctx6": "Gegeben ist der Satz '{s}'",
        "ctx7": "Zu lesen ist '{s}'",
    },
    example_question={
        "definitions": {
            "def0": "das Wort '{w}' bedeutet am ehesten",
            "def1": "'{w}' lässt sich am besten erklären als",
            "def2": "welche dieser Angaben gibt die Bedeutung von '{w}' wieder?",
            "def3": "die Bedeutung von '{w}' entspricht am ehesten",
            "def4": "was ist mit '{w}' gemeint?",
            "def5": "die gemeinte Bedeutung von '{w}' ist",
        },
        "hypernymy": {
            "hyper0": "'{w}' bezeichnet eine Art von",
            "hyper1": "'{w}' lässt sich einordnen als eine Art von",
            "hyper2": "zu welcher übergeordneten Kategorie gehört '{w}'?",
            "hyper3": "'{w}' ist eine speziellere Form von",
            "hyper4": "der Begriff '{w}' fällt unter",
            "hyper5": "wofür ist '{w}' ein Beispiel?",
        },
        "hyponymy": {
            "hypo0": "welcher dieser Begriffe ist eine bestimmte Art von '{w}'?",
            "hypo1": "eine speziellere Art von '{w}' ist",
            "hypo2": "welche Antwort nennt eine Unterart von '{w}'?",
            "hypo3": "eine bestimmte Sorte von '{w}' wäre",
            "hypo4": "welcher der folgenden Begriffe ist ein Sonderfall von '{w}'?",
            "hypo5": "zu den Unterarten von '{w}' gehört",
        },
    },
    function_words=frozenset("der die das den dem des ein eine einen einem einer eines von zu zur zum für ist sind "
                             "als am wie was welche welcher welches dieser diese dieses auch mit in im an auf sich es "
                             "wo wofür so".split()),
    joiner=". ",
)

SPANISH = LanguageFrames(
    context={
        "dctx0": "Si '{w}' se define como '{d}'",
        "dctx1": "Entendiendo '{w}' como '{d}'",
        "dctx2": "Dada la definición '{d}' de '{w}'",
    },
    question={
        "definitions": {
            "odef0": "¿qué significa el término '{w}'?",
            "odef1": "el término '{w}' se define mejor como",
            "odef2": "¿cuál de estas es la definición de '{w}'?",
            "odef3": "'{w}' se refiere a",
        },
        "synonymy": {
            "osyn0": "¿qué término es otro nombre de '{w}'?",
            "osyn1": "'{w}' también se conoce como",
            "osyn2": "¿cuál de estos significa lo mismo que '{w}'?",
        },
        "hypernymy": {
            "ohyper0": "'{w}' es un tipo de",
            "ohyper1": "¿a qué categoría más amplia pertenece '{w}'?",
            "ohyper2": "'{w}' es una forma más específica de",
            "ohyper3": "¿de qué es '{w}' un ejemplo?",
        },
        "hyponymy": {
            "ohypo0": "¿cuál de estos es un tipo de '{w}'?",
            "ohypo1": "un tipo más específico de '{w}' es",
            "ohypo2": "¿qué opción nombra un tipo de '{w}'?",
        },
        "relation": {
            "orel0": "según la relación '{r}', '{w}' tiene como término asociado",
            "orel1": "¿qué término se vincula con '{w}' por la relación '{r}'?",
            "orel2": "complete: '{w}' ({r}) ...",
        },
    },
    example_context={
        "ctx0": "Tal como se usa en la oración '{s}'",
        "ctx1": "En el ejemplo '{s}'",
        "ctx2": "A juzgar por el uso '{s}'",
        "ctx3": "Tomando '{s}' como contexto",
        "ctx4": "Cuando alguien escribe '{s}'",
        "ctx5": "Según la frase '{s}'",
        "ctx6": "Dentro de la oración '{s}'",
        "ctx7": "Leyendo las palabras '{s}'",
    },
    example_question={
        "definitions": {
            "def0": "la palabra '{w}' significa aproximadamente",
            "def1": "'{w}' se explica mejor como",
            "def2": "¿cuál de estas da el significado de '{w}'?",
            "def3": "el sentido de '{w}' se acerca más a",
            "def4": "¿qué se quiere decir con '{w}'?",
            "def5": "el significado de '{w}' aquí es",
        },
        "hypernymy": {
            "hyper0": "'{w}' se refiere a un tipo de",
            "hyper1": "'{w}' puede clasificarse como un tipo de",
            "hyper2": "¿a qué categoría más amplia pertenece '{w}'?",
            "hyper3": "'{w}' es una forma más específica de",
            "hyper4": "el concepto '{w}' entra en la categoría de",
            "hyper5": "¿de qué es '{w}' un ejemplo?",
        },
        "hyponymy": {
            "hypo0": "¿cuál de estos es un tipo particular de '{w}'?",
            "hypo1": "un tipo más específico de '{w}' es",
            "hypo2": "¿qué opción nombra un tipo de '{w}'?",
            "hypo3": "una variedad concreta de '{w}' sería",
            "hypo4": "¿cuál de los siguientes es un caso especial de '{w}'?",
            "hypo5": "entre los subtipos de '{w}' está",
        },
    },
    function_words=frozenset("el la los las lo un una unos unas de del a al en y o u es son que qué cual cuál "
                             "cuales se con por para como más este esta estos estas otro otra mismo misma aquí "
                             "está".split()),
)

DUTCH = LanguageFrames(
    context={
        "dctx0": "'{w}' is gedefinieerd als '{d}'",
        "dctx1": "'{w}' betekent '{d}'",
        "dctx2": "De definitie van '{w}' luidt '{d}'",
    },
    question={
        "definitions": {
            "odef0": "wat betekent de term '{w}'?",
            "odef1": "de term '{w}' is het best te definiëren als",
            "odef2": "welke van deze is de definitie van '{w}'?",
            "odef3": "'{w}' verwijst naar",
        },
        "synonymy": {
            "osyn0": "welke term is een andere naam voor '{w}'?",
            "osyn1": "'{w}' staat ook bekend als",
            "osyn2": "welke van deze betekent hetzelfde als '{w}'?",
        },
        "hypernymy": {
            "ohyper0": "'{w}' is een soort",
            "ohyper1": "tot welke bredere categorie behoort '{w}'?",
            "ohyper2": "'{w}' is een specifiekere vorm van",
            "ohyper3": "waarvan is '{w}' een voorbeeld?",
        },
        "hyponymy": {
            "ohypo0": "welke van deze is een soort '{w}'?",
            "ohypo1": "een specifiekere soort '{w}' is",
            "ohypo2": "welk antwoord noemt een type '{w}'?",
        },
        "relation": {
            "orel0": "volgens de relatie '{r}' is '{w}' verbonden met",
            "orel1": "welke term is met '{w}' verbonden door de relatie '{r}'?",
            "orel2": "vul aan: '{w}' ({r}) ...",
        },
    },
    example_context={
        "ctx0": "De zin luidt '{s}'",
        "ctx1": "Een voorbeeld: '{s}'",
        "ctx2": "Zo wordt het woord gebruikt: '{s}'",
        "ctx3": "De context is '{s}'",
        "ctx4": "Iemand schrijft '{s}'",
        "ctx5": "De zinsnede luidt '{s}'",
        "ctx6": "Gegeven is de zin '{s}'",
        "ctx7": "Te lezen staat '{s}'",
    },
    example_question={
        "definitions": {
            "def0": "het woord '{w}' betekent ongeveer",
            "def1": "'{w}' laat zich het best uitleggen als",
            "def2": "welke van deze geeft de betekenis van '{w}'?",
            "def3": "de betekenis van '{w}' komt het dichtst bij",
            "def4": "wat wordt bedoeld met '{w}'?",
            "def5": "de bedoelde betekenis van '{w}' is",
        },
        "hypernymy": {
            "hyper0": "'{w}' verwijst naar een soort",
            "hyper1": "'{w}' valt in te delen als een type",
            "hyper2": "tot welke bredere categorie behoort '{w}'?",
            "hyper3": "'{w}' is een specifiekere vorm van",
            "hyper4": "het begrip '{w}' valt onder",
            "hyper5": "waarvan is '{w}' een voorbeeld?",
        },
        "hyponymy": {
            "hypo0": "welke van deze is een bepaalde soort '{w}'?",
            "hypo1": "een specifiekere soort '{w}' is",
            "hypo2": "welk antwoord noemt een type '{w}'?",
            "hypo3": "een bepaalde variant van '{w}' zou zijn",
            "hypo4": "welke van de volgende is een bijzonder geval van '{w}'?",
            "hypo5": "tot de subtypen van '{w}' behoort",
        },
    },
    function_words=frozenset("de het een van voor is zijn als wat welke welk waarvan deze dit die ook met in te "
                             "tot naar door bij op aan er zo hetzelfde".split()),
    joiner=". ",
)

#: the languages with templates of their own, by ISO 639-1 code (English: :mod:`.ontology_templates`)
LANGUAGE_FRAMES: Dict[str, LanguageFrames] = {"fr": FRENCH, "de": GERMAN, "es": SPANISH, "nl": DUTCH}
#: the common relations' names (SKOS's and the OBO Relation Ontology's, which the loader names in
#: English: ``mcqa_probes.knowledge.source.KNOWN_RELATION_NAMES``), by language; another name stays as given
RELATION_NAMES: Dict[str, Dict[str, str]] = {
    "fr": {"related to": "en relation avec", "narrower than": "plus spécifique que", "broader than": "plus général que", "part of": "partie de",
           "has part": "a pour partie", "located in": "situé dans", "location of": "lieu de",
           "develops from": "se développe à partir de", "overlaps": "chevauche", "regulates": "régule",
           "has participant": "a pour participant", "capable of": "capable de",
           "an exact match of": "correspondance exacte de", "a close match of": "correspondance proche de",
           "a related match of": "correspondance associée à"},
    "de": {"related to": "verwandt mit", "narrower than": "Unterbegriff von", "broader than": "Oberbegriff von", "part of": "Teil von", "has part": "hat Teil",
           "located in": "befindet sich in", "location of": "Ort von", "develops from": "entwickelt sich aus",
           "overlaps": "überlappt mit", "regulates": "reguliert", "has participant": "hat Teilnehmer",
           "capable of": "fähig zu", "an exact match of": "exakte Entsprechung von",
           "a close match of": "nahe Entsprechung von", "a related match of": "verwandte Entsprechung von"},
    "es": {"related to": "relacionado con", "narrower than": "más específico que", "broader than": "más general que", "part of": "parte de", "has part": "tiene parte",
           "located in": "ubicado en", "location of": "ubicación de", "develops from": "se desarrolla a partir de",
           "overlaps": "se solapa con", "regulates": "regula", "has participant": "tiene participante",
           "capable of": "capaz de", "an exact match of": "equivalencia exacta de",
           "a close match of": "equivalencia cercana de", "a related match of": "equivalencia relacionada con"},
    "nl": {"related to": "verwant aan", "narrower than": "specifieker dan", "broader than": "breder dan", "part of": "deel van", "has part": "heeft deel",
           "located in": "gelegen in", "location of": "locatie van", "develops from": "ontwikkelt zich uit",
           "overlaps": "overlapt met", "regulates": "reguleert", "has participant": "heeft deelnemer",
           "capable of": "in staat tot", "an exact match of": "exacte overeenkomst met",
           "a close match of": "nauwe overeenkomst met", "a related match of": "verwante overeenkomst met"},
}

#: their names, as the build's note says them
LANGUAGE_NAMES: Dict[str, str] = {"fr": "French", "de": "German", "es": "Spanish", "nl": "Dutch"}
