"""Labels and definitions of an ontology as the probes show them.

* :func:`clean_definition`: markup out (HTML tags and entities, schema.org's ``[[Thing]]`` links,
  markdown links ``[text](url)``, line breaks), and a definition longer than ``max_words`` words cut
  at the last sentence end that fits (a schema.org comment can be a page long; WordNet glosses are
  one line).
* :func:`camel_case_source` / :func:`readable_label`: when most labels of a source are written as
  code (``MedicalOrganization``), every label is shown as words (``medical organization``), so that
  the way a choice is written does not tell which concepts it comes from.
* :func:`name_pattern`: a regular expression that finds a concept's name in a text however the source
  writes it (``sequence_feature``, ``sequence feature``, ``Sequence-Feature``, ``MediaObjects``): the
  leakage check of the probes uses it.
"""
import functools
import html
import re
import unicodedata
from typing import Callable, Dict, FrozenSet, Iterable, List, Optional, Pattern, Sequence, Tuple

#: an HTML/XML tag or comment (``<br/>``, ``<a href="...">``, ``</p>``), not a comparison: HPO writes
#: "(<60 mmHg) without a decrease ... (> or = to 100 mmHg)"
_TAG = re.compile(r"</?([A-Za-z][A-Za-z0-9:-]*)(?:\s[^<>]*)?/?>|<!--.*?-->", re.DOTALL)
#: the HTML elements that mark words inside a line (a browser writes no space for them): ``as in
#: <i>Caravaggio</i>.`` reads "as in Caravaggio.", ``H<sub>2</sub>O`` "H2O"; any other tag (``<br/>``,
#: ``<p>``, ``<li>``, a comment) parts words
_INLINE_TAGS = frozenset({"a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i",
                          "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strong", "sub", "sup", "time",
                          "tt", "u", "var"})
_WIKI_LINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")
#: a Markdown link ``[text](target)`` whose target reads as one (a URL, a path, an anchor): not
#: chemistry's ``[(1->3)-beta-D-glucosyl](n)`` (GO), kept as written
_MARKDOWN_LINK = re.compile(r"\[([^\]]+)\]\((?:[a-z][a-z0-9+.-]*:|www\.|[/#.])[^)\s]*\)", re.IGNORECASE)
#: a sentence's end: a stop (after it, closing quotes or brackets) before a space or the text's end,
#: or a full-width stop (。！？, Devanagari ।)
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*(?=\s|$)|[\u3002\uff01\uff1f\u0964]")
#: a full stop that ends an initial or a usual short form, not a sentence ("J. Smith", "U.S. Congress",
#: "S. Typhimurium", "e.g. Salmonella", "Smith et al. Their"; a sentence that ends in a single
#: letter, "vitamin A.", is taken for an initial too: the cut goes back to the sentence before)
_ABBREVIATION = re.compile(r"(?:^|[\s(.])(?:[A-Za-z]|e\.g|i\.e|al|cf|vs|ca|approx|sp|spp|subsp|var|fig|no|st|dr|mr|"
                           r"mrs|ms|mt|prof|inc|ltd|jr|sr)\.$", re.IGNORECASE)
#: what follows a stop that does not end a sentence: a word in lower case ("E. coli", "1.5 mm. long",
#: "1. binding 2. activation")
_LOWER_NEXT = re.compile(r"\s+[a-z]")
#: scripts written without spaces between words (CJK ideographs, kana, Thai)
_UNSPACED_SCRIPT = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\u0e00-\u0e7f]")
_CAMEL = re.compile(r"^[A-Z]?[a-z0-9]*(?:[A-Z][a-z0-9]+|[A-Z]+(?=[A-Z][a-z]|$|[0-9]))+$|^[A-Z][a-z0-9]+$")
_CAMEL_PART = re.compile(r"[0-9]+[A-Z]*(?=[A-Z][a-z]|$)|[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")


def clean_definition(text: Optional[str], max_words: int = 60) -> Tuple[str, bool]:
    """``(clean text, shortened?)``; an empty string when nothing is left."""
    if not text:
        return "", False
    value = html.unescape(_TAG.sub(_tag_gap, str(text)))
    value = _WIKI_LINK.sub(lambda m: m.group(2) or m.group(1), value)
    value = _MARKDOWN_LINK.sub(lambda m: m.group(1), value)
    value = " ".join(value.replace("\\n", " ").split())
    words = value.split(" ")
    if (max_words and len(words) <= max_words and len(value) > 2 * max_words and _UNSPACED_SCRIPT.search(value)
            and 2 * len(_UNSPACED_SCRIPT.findall(value)) > len(value)):
        # mostly Chinese or Japanese: no spaces between words; about two characters a word
        head = value[:2 * max_words]
        ends = [m.end() for m in _SENTENCE_END.finditer(head)]
        return (head[: ends[-1]] if ends else head + " ..."), True
    if max_words and len(words) > max_words:
        head = " ".join(words[:max_words])
        ends = [m.end() for m in _SENTENCE_END.finditer(head)
                if not _ABBREVIATION.search(head, 0, m.start() + 1) and not _LOWER_NEXT.match(value, m.end())]
        value = head[: ends[-1]] if ends else head + " ..."
        return value, True
    return value, False


#: the HTML elements that part a line's words (a paragraph, a line break, a list, a table cell, ...):
#: a tag of no HTML element (GO's ``<stereo>enol</stereo>-oxaloacetate``) marks words, as inline ones do
_BLOCK_TAGS = frozenset({"address", "article", "aside", "blockquote", "br", "caption", "center", "dd", "details", "dir",
                         "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3",
                         "h4", "h5", "h6", "header", "hr", "img", "li", "main", "menu", "nav", "ol", "p", "pre",
                         "section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "wbr"})


def _tag_gap(match) -> str:
    """What a tag leaves in the text: nothing for an inline element (:data:`_INLINE_TAGS`) or a tag of no
    HTML element, nor before a stop, a comma or a closing bracket (``claim<br/>,``: "claim,"); a
    space for a block element (:data:`_BLOCK_TAGS`) and a comment."""
    name = (match.group(1) or "").lower()
    if (name in _INLINE_TAGS or (name and name not in _BLOCK_TAGS)
            or match.string[match.end():match.end() + 1] in _CLOSING_MARKS):
        return ""
    return " "


#: what is written with no space before it (a tag's gap before it is none)
_CLOSING_MARKS = frozenset(".,;:!?)]}")


def is_camel_case(label: str) -> bool:
    return " " not in label and "_" not in label and bool(_CAMEL.match(label)) and any(c.isupper() for c in label)


#: a code name's join: a capital after a lower-case letter or a digit (``CivicStructure``, ``Drug2Drug``)
_INNER_CAPITAL = re.compile(r"[a-z0-9][A-Z]")


def camel_case_source(labels: Iterable[str], share: float = 0.8, joined: float = 0.3) -> bool:
    """True when at least ``share`` of the labels look like code names (schema.org: ``CivicStructure``)
    and at least ``joined`` of them join words with a capital: a German thesaurus's nouns
    (``Gitarre``, ``Akustikgitarre``) are single capitalised words too, and no code names (schema.org:
    89% and 80%)."""
    labels = [label for label in labels if label]
    if not labels:
        return False
    code_like = sum(1 for label in labels if is_camel_case(label))
    inner = sum(1 for label in labels if is_camel_case(label) and _INNER_CAPITAL.search(label))
    return code_like >= share * len(labels) and inner >= joined * len(labels)


def readable_label(label: str, camel_case: bool) -> str:
    """``MedicalOrganization`` -> ``medical organization`` (acronyms kept: ``DVDFormat`` -> ``DVD format``,
    ``MP3Player`` -> ``MP3 player``, ``WiFiRouter`` -> ``WiFi router``), as :func:`label_from_iri` reads
    an IRI's local name."""
    label = " ".join(label.split())
    if not camel_case or not is_camel_case(label):
        return label
    return " ".join(_code_words(label))


def _code_words(chunk: str) -> List[str]:
    """The words of a name written as code, with no ``_`` or ``-`` in it (``MP3PlayerIoTHub``: ``MP3``,
    ``player``, ``IoT``, ``hub``): parts at each capital; a number after an acronym part of it; a mixed
    acronym (``IoT``, ``PhD``) whole; two capitalised parts of two letters one word (``WiFi``, ``HiFi``:
    was "wi fi"); the other parts in lower case, acronyms kept."""
    parts = [p for piece in _MIXED_ACRONYM.split(chunk) if piece
             for p in ([piece] if _MIXED_ACRONYM.fullmatch(piece) else _CAMEL_PART.findall(piece))]
    merged: List[str] = []
    whole = set()       # the places of the parts kept as written (IoT, WiFi)
    for part in parts:
        if part.isdigit() and merged and merged[-1].isupper():      # MP3Player: MP3 player
            merged[-1] += part
        elif (merged and len(part) == 2 and part[0].isupper() and part[1].islower() and len(merged) - 1 not in whole
              and len(merged[-1]) == 2 and merged[-1][0].isupper() and merged[-1][1].islower()):
            merged[-1] += part          # WiFi, HiFi: one word, as written
            whole.add(len(merged) - 1)
        else:
            if _MIXED_ACRONYM.fullmatch(part):
                whole.add(len(merged))
            merged.append(part)
    return [part if index in whole else _as_words([part]) for index, part in enumerate(merged)]


def _as_words(parts: Sequence[str]) -> str:
    """Code-name parts as lower-case words, acronyms kept (``DVD``, ``format`` -> ``DVD format``)."""
    return " ".join(part if (part.isupper() and len(part) > 1) else part.lower() for part in parts)


#: an IRI's local name that reads as words (``HasEggs``, ``American_Hot``), not an opaque id (``SO_0000110``)
_WORDY_NAME = re.compile(r"[A-Za-z][A-Za-z_\-]*[a-z][A-Za-z_\-]*")


def label_from_iri(iri: str) -> str:
    """The words of an IRI's local name (``.../animals#HasEggs`` -> ``has eggs``, ``American_Hot`` ->
    ``american hot``, acronyms kept); '' for an opaque id (digits: ``SO_0000110``, ``c_1234``)."""
    local = re.split(r"[#/:]", iri.rstrip("/#"))[-1]
    letters, digits = sum(c.isalpha() for c in local), sum(c.isdigit() for c in local)
    if not _WORDY_NAME.fullmatch(local) and not (
            # an acronym (OLEDTV) or a name with a digit in it (MP3Player), not an id (SO_0000110)
            re.fullmatch(r"[A-Za-z0-9_\-]+", local) and letters >= 4 and letters > 2 * digits):
        return ""
    # words of each part between underscores; parts joined by a hyphen stay one word (Wi-FiRouter:
    # wi-fi router); a mixed acronym stays whole (IoTDevice: IoT device)
    words: List[str] = []
    for underscored in re.split(r"_+", local):
        joined = False
        for chunk in (c for c in underscored.split("-") if c):
            parts = _code_words(chunk)
            if joined and words and parts:
                words[-1] = f"{words[-1]}-{parts[0]}"
                parts = parts[1:]
            words.extend(parts)
            joined = True
    return " ".join(words)


#: an acronym written with a small letter inside (IoT, PhD): kept whole in a name made from an IRI
_MIXED_ACRONYM = re.compile(r"([A-Z][a-z][A-Z])(?![a-z])")


def name_variants(names: Sequence[str]) -> Tuple[str, ...]:
    """Names with underscores as spaces, lower case, longest first, without repeats."""
    return _name_variants(tuple(names))


@functools.lru_cache(maxsize=200_000)
def _name_variants(names: Tuple[str, ...]) -> Tuple[str, ...]:
    # a hyphen between words is a space too ("ON-bipolar cell" names the "ON bipolar cell" of a text),
    # and a slash a word of its own, spaces around it or not (HPO's *dyslexia/alexia* in a definition's
    # "dyslexia / alexia": was left unmasked)
    # and a bracket a word's edge, so that *iron(III) chloride* is found written "iron (III) chloride"
    # too, and back (words are joined by ``[ _-]*``: the space is optional)
    found = {" ".join(name.replace("_", " ").replace("-", " ").replace("/", " / ").replace("(", " (")
                      .replace(")", ") ").split()).lower()
             for name in names if name and name.strip()}
    found.discard("")
    # a Greek letter also as its name and back (*γ-aminobutyric acid* names *gamma-aminobutyric acid*)
    found.update(other for name in list(found) for other in _greek_spellings(name))
    # a ligature also as its letters (*trompe-l'œil* names the "trompe l'oeil" of a text)
    found.update([unligatured(name) for name in found if not name.isascii()])
    return tuple(sorted(found, key=lambda n: (-len(n), n)))


def is_english(language: Optional[str]) -> bool:
    """Whether a language tag (``en``, ``en-GB``; None: the default) is English, whose plural rules
    the name tests know."""
    return (language or "en").lower().split("-")[0] == "en"


def letters(text: str) -> str:
    """``text`` in lower case without spaces, ``_`` or ``-``, without accents (:func:`fold_accents`) and
    with a Greek letter standing alone spelled out (:func:`spell_greek_letters`: *α-D-glucose* and
    *alpha-D-glucose* are one name): what :func:`name_key`, the leakage check's quick test
    (:func:`_squashed`) and a table's relation names (``Is-A`` is ``isa``) compare (string methods: the same as removing ``[\\s_-]+``)."""
    squashed = "".join(text.lower().split()).replace("_", "").replace("-", "")
    if squashed.isascii():
        return squashed
    # full-width and half-width forms as one (ＭＩＤＩ, MIDI; ｷﾞﾀｰ, ギター: Unicode's compatibility
    # forms, NFKC), and hiragana as katakana (ぎたー, ギター: one word in either kana)
    squashed = unicodedata.normalize("NFKC", squashed).lower().translate(_HIRAGANA_AS_KATAKANA)
    return spell_greek_letters(fold_accents(unligatured(squashed)))


#: each hiragana letter (U+3041-U+3096) as its katakana (U+30A1-U+30F6)
_HIRAGANA_AS_KATAKANA = {code: code + 0x60 for code in range(0x3041, 0x3097)}


#: the ligatures that a name is written with or without (*trompe-l'œil*, *trompe l'oeil*; *Cæsar*), and
#: German's *ß*, written *ss* where it is not at hand (*Weißkohl*, *Weisskohl*; Swiss German always)
_LIGATURES = (("œ", "oe"), ("æ", "ae"), ("Œ", "OE"), ("Æ", "AE"), ("ĳ", "ij"), ("Ĳ", "IJ"), ("ﬁ", "fi"), ("ﬂ", "fl"),
              ("ß", "ss"), ("ẞ", "SS"))


def unligatured(text: str) -> str:
    """``text`` with its ligatures written as their letters (:data:`_LIGATURES`: *œ* as *oe*): one name
    written both ways (not one character for one: :func:`letters` compares such texts, no place in them)."""
    for ligature, written in _LIGATURES:
        if ligature in text:
            text = text.replace(ligature, written)
    return text


def fold_accents(text: str) -> str:
    """``text`` with each letter's accents taken off, one character for one (*Café* -> *Cafe*,
    *Ångström* -> *Angstrom*): a name written with and without its accents is one name, and a text's
    match found in its folded form is at the same place in the text. A character that is not a letter
    with marks (``ß``, ``ø``, ``æ``, CJK) stays as it is; a prime or a typographic apostrophe (``′``,
    ``’``) is ``'``. ASCII text is returned at once."""
    if text.isascii():
        return text
    return "".join(map(_folded_character, text))


#: letters of their own that Unicode writes as another letter with a mark: Russian *й* is no *и*
#: (folded, *флейта* and *на флейте* stemmed apart and the name was never masked inflected)
_OWN_LETTERS = frozenset("йЙ")
#: the marks written for an apostrophe or a prime (*2′-deoxyadenosine*, *Brunner’s gland*): one mark
_APOSTROPHES = frozenset("\u2019\u2032\u02b9\u02bc\u00b4")


@functools.lru_cache(maxsize=4096)
def _folded_character(character: str) -> str:
    if character.isascii():
        return character
    if character in _APOSTROPHES:
        return "'"
    if character in _OWN_LETTERS:
        return character
    bare = [part for part in unicodedata.normalize("NFD", character) if not unicodedata.combining(part)]
    return bare[0] if len(bare) == 1 else character


#: the Greek letters that chemical and biological names write for a word (*α-D-glucose*, *γ-aminobutyric
#: acid*, *TNF-α*, *µ-opioid receptor*), and the word
GREEK_LETTERS = {
    "α": "alpha", "β": "beta", "γ": "gamma", "δ": "delta", "ε": "epsilon", "ϵ": "epsilon", "ζ": "zeta",
    "η": "eta", "θ": "theta", "ι": "iota", "κ": "kappa", "λ": "lambda", "μ": "mu", "µ": "mu", "ν": "nu",
    "ξ": "xi", "ο": "omicron", "π": "pi", "ρ": "rho", "σ": "sigma", "ς": "sigma", "τ": "tau", "υ": "upsilon",
    "φ": "phi", "ϕ": "phi", "χ": "chi", "ψ": "psi", "ω": "omega",
}
_GREEK_WORDS = {word: letter for letter, word in GREEK_LETTERS.items() if letter not in "ϵςϕµ"}
#: a Greek letter with no Greek letter beside it: a symbol in a name, not a letter of a Greek word
#: (a Greek thesaurus's *πόλη* is left as it is)
_GREEK_BLOCKS = "\u0370-\u03ff\u1f00-\u1fff"
_LONE_GREEK = re.compile(f"(?<![{_GREEK_BLOCKS}])([{''.join(GREEK_LETTERS)}])(?![{_GREEK_BLOCKS}])", re.IGNORECASE)


def spell_greek_letters(text: str) -> str:
    """``text`` with each Greek letter that stands alone (:data:`_LONE_GREEK`) written as its name, in
    lower case (*α-D-glucose*: *alpha-D-glucose*); ASCII text is returned at once."""
    if text.isascii():
        return text
    return _LONE_GREEK.sub(lambda match: GREEK_LETTERS.get(match.group(1).lower(), match.group(1)), text)


def _greek_spellings(name: str) -> Tuple[str, ...]:
    """The other ways of writing a name's Greek letters (a name variant: lower case, words by spaces):
    *α d glucose* also as *alpha d glucose*, *beta carotene* also as *β carotene*."""
    found = []
    spelled = spell_greek_letters(name)
    if spelled != name:
        found.append(spelled)
    words = spelled.split(" ")
    if any(word in _GREEK_WORDS for word in words):
        found.append(" ".join(_GREEK_WORDS.get(word, word) for word in words))
    return tuple(found)


def _french_word(word: str) -> str:
    """A French word's letters in the singular: a regular plural's ``-s`` or ``-x`` off (*peintures*,
    *chefs*, *bijoux*; a word of three letters or fewer kept: *des*, *les*)."""
    return word[:-1] if len(word) > 3 and word[-1] in "sx" else word


def _spanish_word(word: str) -> str:
    """A Spanish word's letters in the singular: ``-s`` off, then an ``-e`` after a consonant, and a
    ``-z`` as the ``-c`` of its plural (*flores* and *flor*, *ciudades* and *ciudad*, *madres* and
    *madre*, *nueces* and *nuez* meet; three letters or fewer kept)."""
    if len(word) > 3 and word[-1] == "s":
        word = word[:-1]
    if len(word) > 3 and word[-1] == "e" and word[-2] not in "aeiou":
        word = word[:-1]
    return word[:-1] + "c" if len(word) > 2 and word[-1] == "z" else word


#: German plural endings, the longest first (*Lehrerinnen*, *Tomaten*, *Bilder*, *Zwiebeln*, *Federn*,
#: *Gewürze*, *Autos*); an *-n* only after *l* or *r* (*Lehrerin* keeps its own)
_GERMAN_ENDINGS = ("innen", "en", "er", "ln", "rn", "e", "s")


def _german_word(word: str) -> str:
    """A German word's letters without its plural endings (:data:`_GERMAN_ENDINGS`, taken off while a
    stem of three letters or more is left, twice at most: *Federn*, *Feder* and *Feder* meet at
    ``fed``): *Tomate* and *Tomaten*, *Zwiebel* and *Zwiebeln*, *Bild* and *Bilder*, *Lehrerin* and
    *Lehrerinnen*, and with the accents off (:func:`letters`) *Apfel* and *Äpfel*, *Mutter* and
    *Mütter* meet; *Ei*, *Eier* stay two. A singular so ended meets words of its own (*Lehre*,
    *Lehrer*): two names taken for one are never both offered, a question lost."""
    for _ in range(2):
        ending = next((e for e in _GERMAN_ENDINGS if word.endswith(e) and len(word) - len(e) >= 3), None)
        if ending is None:
            break
        word = word[:-1] if ending in ("ln", "rn") else word[:-3] if ending == "innen" else word[:-len(ending)]
    return word


#: the Arabic definite article, with a conjunction or preposition joined before it (و، ف، ب، ك), or
#: written لل after ل, longest first
_ARABIC_ARTICLES = ("وال", "فال", "بال", "كال", "لل", "ال")


def _arabic_word(word: str) -> str:
    """An Arabic word's letters without the definite article joined to it (*الفلوت* and *فلوت*, *البيانو*
    and *بيانو* are one name; a stem of two letters or more left)."""
    for article in _ARABIC_ARTICLES:
        if word.startswith(article) and len(word) - len(article) >= 2:
            return word[len(article):]
    return word


#: the languages whose plurals :func:`name_key` takes off word by word (beside English, whose rules
#: are its own): each word of a name (parted by spaces, ``_`` or ``-``) keyed in the singular, so that
#: *chefs-d'œuvre* and *chef-d'œuvre*, *peintures* and *peinture*, *Tomaten* and *Tomate* are one
#: name; in Arabic, the definite article joined to a word (*الفلوت*, *فلوت*), the word's other form that
#: a thesaurus lists. Irregular plurals (*chevaux*, *cheval*) are not known.
_WORD_PLURALS: Dict[str, Callable[[str], str]] = {"fr": _french_word, "es": _spanish_word, "de": _german_word,
                                                   "ar": _arabic_word}
_NAME_WORDS = re.compile(r"[\s_-]+")
#: what :func:`name_key` takes off a name's end, and out of it
_NAME_CLOSING = " \t.,;:"
_NO_BRACKETS = str.maketrans("", "", "()[]")


def name_key(name: str, english: bool = True, language: Optional[str] = None) -> str:
    """What two spellings of one name have in common: lower case, without spaces, ``_`` or ``-``
    (``Low-set ears``, ``low set ears`` and ``Lowset ears`` give one key), and in English a regular
    plural ending taken off a key of five letters or more (HPO's *Ear anomalies*, a synonym of one
    concept, and *Ear anomaly*, of another; a shorter key is often an acronym: *IRE*, *IRES*), and a
    Latin, Greek or Germanic plural given its singular's key (:data:`_IRREGULAR`); in another
    ``language``, its word-by-word plurals where they are known (:data:`_WORD_PLURALS`: French,
    Spanish, German). Names with one key are one name: a distractor spelled so like the answer is the answer. (String methods, no
    pattern or cache: called for every name of every concept, 500,000 concepts and more.)"""
    if name[-1:] in _NAME_CLOSING:
        # a stop or comma at the end is no part of the name (ICD-10-AM's *Fracture of thoracic
        # vertebra,* beside *Fracture of thoracic vertebra*: were two names)
        name = name.rstrip(_NAME_CLOSING)
    if "(" in name or "[" in name:
        # a word in brackets is a word of the name (ICD-10-CM's *Congenital metatarsus (primus) varus*
        # and *Congenital metatarsus primus varus*: were two names, a wrong answer beside the right)
        name = name.translate(_NO_BRACKETS)
    if english and ("'" in name or "\u2019" in name):
        name = _POSSESSIVE.sub("", name)        # Brunner's gland, Brunner gland: one name
    if not english:
        singular = _WORD_PLURALS.get((language or "").lower().split("-")[0])
        if singular is None:
            return letters(name)
        return "".join(singular(letters(word)) for word in _NAME_WORDS.split(name) if word)
    key = letters(name)
    if len(key) < 9 and key in _SHORT_PLURALS:
        return _SHORT_PLURALS[key]
    if len(key) < 5:
        return key
    if key.endswith("s") and not key.endswith(("ss", "us", "is")):
        if key.endswith("ies"):
            key = key[:-3] + "y"
        elif key.endswith(("sses", "xes", "ches", "shes")) or (key.endswith("uses") and len(key) >= 7):
            key = key[:-2]                # classes, boxes, branches, viruses (not diseases, sizes)
        else:
            key = key[:-1]
        if key in _SHORT_PLURALS:       # a possessive without its apostrophe: childrens, mens (children's)
            return _SHORT_PLURALS[key]
    # a singular in -ie or -oe keyed as its plural's (movie, movies: ``movy`` as batteries' ``battery``;
    # tomato, tomatoes, canoe, canoes: ``tomato``, ``cano``)
    if key.endswith("ie"):
        key = key[:-2] + "y"
    elif key.endswith("oe"):
        key = key[:-1]
    if key.endswith("use") and len(key) >= 5:
        # *viruses* is *virus* + es, *houses* is *house* + s: a singular in -use and one in -us share
        # their key, whichever the plural is (house, houses: ``hoi``; sinus, sinuses: ``sini``)
        key = key[:-1]
    if key.endswith(_IRREGULAR_ENDINGS):
        key = _irregular(key)
    return key


#: the Latin, Greek and Germanic plurals that ontologies write (*vertebrae*, *hemangiomata*,
#: *foramina*, *ganglia*, *helices*, *testes*, *nuclei*, *diverticula*, *clubfeet*, *knives*,
#: *shelves*): a key (the regular ``-s`` already off) ending so is rewritten once, singular and
#: plural to one key (*knife*, *knives*: ``knif``; *olive*, *olives*: ``olif``). A
#: singular can land on another word's key (*basis*, *base*): two names taken for one are never
#: both offered, a question lost; two taken for two could both be right.
_IRREGULAR = (("feet", "foot"), ("teeth", "tooth"), ("nge", "nx"), ("mata", "ma"), ("ina", "en"), ("ion", "ia"),
              ("ix", "ice"), ("ex", "ice"), ("is", "e"), ("us", "i"), ("um", "a"), ("ve", "f"), ("fe", "f"))
_IRREGULAR_ENDINGS = tuple(ending for ending, _ in _IRREGULAR) + ("ae",)
#: Germanic plurals of words under five letters, which :func:`name_key` keys as their singulars
#: (*foot* / *feet*, *mouse* / *mice*; the longer ones, *clubfeet*, *teeth*, by their endings). A
#: Greek plural in *-nges* (*phalanges*, *larynges*, *meninges*) is keyed as its singular in *-nx*
#: (:data:`_IRREGULAR`: ``nge`` once the ``s`` is off).
_SHORT_PLURAL_WORDS = (("feet", "foot"), ("mice", "mouse"), ("lice", "louse"), ("men", "man"), ("oxen", "ox"),
                       ("geese", "goose"), ("women", "woman"), ("children", "child"), ("teeth", "tooth"))


def _short_plurals() -> Dict[str, str]:
    keys = {}
    for plural, singular in _SHORT_PLURAL_WORDS:
        keys[singular] = singular if len(singular) < 5 else name_key(singular)
        keys[plural] = keys[singular]
    return keys


#: :func:`name_key` of each word of :data:`_SHORT_PLURAL_WORDS` (filled once :func:`_irregular` is defined)
_SHORT_PLURALS: Dict[str, str] = {}


def _irregular(key: str) -> str:
    """``key`` with :data:`_IRREGULAR`'s first matching ending replaced; ``-ae`` is first taken to
    ``-a``, so *laminae* goes where *lamina* goes (``lamen``, as *lumina* goes to *lumen*)."""
    if key.endswith("ae"):
        key = key[:-1]
    for ending, replacement in _IRREGULAR:
        if key.endswith(ending):
            if ending in ("ve", "fe") and len(key) < 5:     # cafe, cafes: ``cafe`` as before
                return key
            return key[:-len(ending)] + replacement
    return key


_SHORT_PLURALS.update(_short_plurals())


#: the endings of a Latin, Greek or Germanic plural and of its singular (:data:`_IRREGULAR`'s pairs,
#: plural first), to tell which of two names of one key is the singular
_PLURAL_ENDINGS = (("i", "us"), ("a", "um"), ("ia", "ion"), ("es", "is"), ("ices", "ix"), ("ices", "ex"),
                   ("mata", "ma"), ("ina", "en"), ("feet", "foot"), ("teeth", "tooth"), ("ves", "fe"),
                   ("ves", "f"), ("ae", "a"), ("nges", "nx"))


def _is_plural_of(plural: str, singular: str) -> bool:
    """``plural`` (letters as :func:`letters` writes them) is the plural of ``singular``: regular
    (:func:`_plural_of`) or Latin, Greek or Germanic (*alveoli*, *alveolus*; *bacteria*, *bacterium*)."""
    return _plural_of(plural, singular) or _SHORT_PLURAL_OF.get(plural) == singular or any(
        plural.endswith(many) and singular.endswith(one) and plural[:-len(many)] == singular[:-len(one)]
        and len(singular) > len(one) + 1 for many, one in _PLURAL_ENDINGS)


def _plural_of(plural: str, singular: str) -> bool:
    """``plural`` (a :func:`name_key`) is the English plural of ``singular``: ``+s``, ``+es``, ``y`` -> ``ies``."""
    if len(singular) < 2:
        return False
    return plural in (singular + "s", singular + "es") or (_ies_plural(singular) and plural == singular[:-1] + "ies")


#: British and American spellings of one word, folded to one form (in this order) for
#: :func:`_regional_key`: *fertilisation* / *fertilization*, *colour* / *color*, *centre* / *center*,
#: *anaemia* / *anemia*, *oesophagus* / *esophagus*, *modelling* / *modeling*, *catalogue* / *catalog*,
#: *plough* / *plow*, *sulphur* / *sulfur*, *programme* / *program*, *aluminium* / *aluminum*,
#: *tyre* / *tire*, *grey* / *gray*, *ageing* / *aging*, *judgement* / *judgment*, *defence* / *defense*
_REGIONAL_FOLDS = tuple((re.compile(pattern), replacement) for pattern, replacement in (
    # words of their own first (before "ou" and "ae" take their letters): *moustache* / *mustache*,
    # *neurone*, *leucocyte*, *artefact*, *jewellery*, *axe*, *pyjamas*, *cosy*, *draught*, *disc*
    ("jewellery", "jewelry"), ("leuc", "leuk"), ("artef", "artif"), (r"\baxe\b", "ax"), ("moust", "must"),
    ("pyjam", "pajam"), (r"\bcosy", "cozy"), (r"urone(?=s?\b)", "uron"), ("draught", "draft"),
    ("doughnut", "donut"), ("cheque", "check"), ("scept", "skept"), (r"\btonne\b", "ton"), (r"\bkerb", "curb"),
    ("storey", "story"), (r"\bgaol", "jail"), (r"\bdisc\b", "disk"), (r"\bannexe\b", "annex"), ("ciality", "cialty"),
    (r"\bhaem\b", "heme"), ("mollusc", "mollusk"), ("ochre", "ocher"), ("moult", "molt"),
    ("ough", "ow"), (r"yre\b", "ire"), ("grey", "gray"), ("ae", "e"), ("oe", "e"), ("ou", "o"),
    (r"(?<=[^aeiou])re\b", "er"), (r"ogue\b", "og"), (r"mme\b", "m"), (r"nium\b", "num"), ("ll", "l"),
    ("ph", "f"), (r"(?<=[iy])s", "z"), (r"eing\b", "ing"), (r"gement\b", "gment"), (r"nce\b", "nse"),
))


def _regional_key(name: str) -> str:
    """:func:`name_key` of an English name with its British and American spellings folded
    (:data:`_REGIONAL_FOLDS`): two names of one concept with one such key are one word spelled in
    two countries' ways (a thesaurus's ``fertilisation``\\ ``@en-GB`` beside *fertilization*), not two
    names. Only names of one concept are compared so (the folds would also join words of their own)."""
    text = name.lower().replace("_", " ").replace("-", " ")
    for pattern, replacement in _REGIONAL_FOLDS:
        text = pattern.sub(replacement, text)
    return name_key(text)


#: an English possessive *'s* after a word (*Brunner's gland*, *Auerbach’s plexus*): eponyms are
#: written with and without it (*Brunner gland*), one name
_POSSESSIVE = re.compile(r"(?<=\w)['\u2019]s\b|(?<=s)['\u2019](?!\w)")

#: the British and American spellings that a text may use for another concept's name (the leakage
#: check: *The first feces passed by a newborn* names *faeces*), folded word by word: fewer and
#: narrower than :data:`_REGIONAL_FOLDS`, which compare only the names of one concept (across
#: concepts, *house* must not meet *hose*, *shoe* *she*, *canoe* *cane*). Words of their own at any
#: length, then the spelling rules in words of five letters or more.
_CROSS_WORD_FOLDS = tuple((re.compile(pattern), replacement) for pattern, replacement in (
    (r"^leuc", "leuk"), (r"^sulph", "sulf"), (r"^artef", "artif"), (r"^moust", "must"), (r"^pyjam", "pajam"),
    (r"urones?$", "uron"), (r"^aluminium", "aluminum"), (r"^tyre", "tire"), (r"^grey", "gray"), (r"^programme", "program"),
    (r"^discs?$", "disk"), (r"^mould", "mold"), (r"^smould", "smold"), (r"plough", "plow"), (r"^gaol", "jail"),
    (r"^jewellery", "jewelry"), (r"^cosy$", "cozy"), (r"^(def|lic|off|pret)ence", r"\1ense"), (r"^doughnut", "donut"),
    (r"geing$", "ging"), (r"gement(?=s?$)", "gment"), (r"ciality$", "cialty"), (r"^haem$", "heme"),
    (r"^mollusc", "mollusk"), (r"^ochre", "ocher"), (r"^moult", "molt"), (r"^(fib|cent|lit|met)re(?=[a-z])", r"\1er"),
    (r"^centred$", "centered"),
))
_CROSS_LONG_FOLDS = tuple((re.compile(pattern), replacement) for pattern, replacement in (
    (r"^oe", "e"), (r"oea$", "ea"), (r"(?<=f)oet|(?<=c)oel|(?<=m)oeb|(?<=n)oeuv|(?<=m)oeo", lambda m: m.group()[1:]),
    (r"ae(?=[a-z])", "e"),
    (r"our(?=s?$|ed$|ite|able|ful|less|al|hood|y$|ist)|(?<=[lvbnm])our(?=ing|ation|ous|igen|imetr|is|iz)", "or"), (r"(?<=[tbgv])re(?=[sd]?$)", "er"),
    (r"(?<=[a-z]{2})is(?=e$|es$|ed$|ing$|ation|ers?$|able$)", "iz"), (r"(?<=[a-z])ys(?=e$|es$|ed$|ing$|ers?$)", "yz"),
    (r"ogue(?=s?$)", "og"), (r"ogued$", "oged"), (r"(?<=e)ll(?=ing$|ed$|ors?$|ery$|ous$|ers?$)", "l"), (r"(?<=a)ll(?=ing$|ed$)", "l"),
))
#: a text (or a name) with a word that :data:`_CROSS_WORD_FOLDS` or :data:`_CROSS_LONG_FOLDS` may
#: fold, or a possessive: only such texts and names are looked at word by word (:func:`loose_spans`).
#: Each pattern is searched only in a text holding its letters (the first item: plain substring
#: tests, much cheaper than one pattern of all of them, which every text would get)
_CROSS_MARKS = tuple((letters, re.compile(pattern)) for letters, pattern in (
    (("'", "\u2019"), r"\w['\u2019]s\b|s['\u2019](?!\w)"),
    (("oe",), r"\boe|oea\b|foet|coel|moeb|noeuv|moeo"), (("ae",), r"ae(?:[a-z]|\b)"),
    (("our",), r"our(?:s?\b|ed\b|ite|able|ful|less|al|hood|y\b|ist)|[lvbnm]our(?:ing|ation|ous|igen|imetr|is|iz)"), (("re",), r"[tbgv]re[sd]?\b"),
    (("is",), r"[a-z]{2}is(?:e\b|es\b|ed\b|ing\b|ation|ers?\b|able\b)"), (("ys",), r"[a-z]ys(?:e|es|ed|ing|ers?)\b"),
    (("ogue",), r"ogue[sd]?\b"),
    (("mice", "feet", "lice", "men", "oxen", "geese", "children", "teeth"),
     r"\b(?:mice|feet|lice|men|women|oxen|geese|children|teeth)\b"), (("ll",), r"ell(?:ing|ed|ors?|ery|ous|ers?)\b|all(?:ing|ed)\b"),
    (("leuc", "sulph", "artef", "moust", "pyjam", "aluminium", "tyre", "grey", "programme", "mould", "gaol",
      "jewellery", "cosy", "disc", "ence", "plough", "urone", "doughnut", "geing", "gement", "ciality", "haem",
      "mollusc", "ochre", "moult", "ibre", "ntre", "itre", "etre", "centred"),
     r"\b(?:leuc|sulph|artef|moust|pyjam|aluminium|tyre|grey|programme|mould|smould|gaol|jewellery|cosy\b|discs?\b|"
     r"(?:def|lic|off|pret)ence|doughnut|haem\b|mollusc|ochre|moult|(?:fib|cent|lit|met)re[a-z]|centred\b)|plough|"
     r"urones?\b|geing\b|gements?\b|ciality\b"),
))
#: a name of words only (and spaces, ``-``, ``_``, apostrophes, stops): one with a symbol (*C++*,
#: *G+*, *A+*) would lose it word by word, and is left to its own pattern
_PLAIN_NAME = re.compile(r"[\w\s.'\u2019-]+")
#: a word of a text or a name, with its possessive *'s* (left out of its key)
_LOOSE_WORD = re.compile(r"\w+(?:['\u2019]s\b|(?<=s)['\u2019](?!\w))?")


@functools.lru_cache(maxsize=400_000)
def _loose_word(word: str) -> str:
    """A word in lower case with an English possessive taken off, its British spelling folded to the
    American one (:data:`_CROSS_WORD_FOLDS`, :data:`_CROSS_LONG_FOLDS`) and a regular plural (or a
    short Germanic one: *children*, *mice*) in the singular. Not :func:`name_key`'s Latin and Greek
    endings, which would take words of their own for one (*thesis*, *these*; *leaf*, *leave*). A
    short word in capitals is an acronym, as it is (*MEN* is no plural of *man*)."""
    if len(word) <= 5 and word.isupper():
        return word.lower()
    word = _POSSESSIVE.sub("", word.lower())
    for pattern, replacement in _CROSS_WORD_FOLDS:
        word = pattern.sub(replacement, word)
    if len(word) >= 5:
        for pattern, replacement in _CROSS_LONG_FOLDS:
            word = pattern.sub(replacement, word)
    if word in _SHORT_PLURAL_OF:
        return _SHORT_PLURAL_OF[word]
    if len(word) >= 5 and word.endswith("ae"):         # a Latin plural: venae cavae, chordae tendineae
        return word[:-1]
    if len(word) >= 5 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        if word.endswith("ies"):
            return word[:-3] + "y"
        return word[:-2] if word.endswith(("sses", "xes", "ches", "shes")) or (
            word.endswith("uses") and len(word) >= 7) else word[:-1]
    return word


@functools.lru_cache(maxsize=400_000)
def _loose_tokens(text: str) -> Tuple[Tuple[int, int, str], ...]:
    """``(start, end, key)`` of each word of ``text`` (without accents: one character for one)."""
    return tuple((m.start(), m.end(), _loose_word(m.group())) for m in _LOOSE_WORD.finditer(fold_accents(text)))


@functools.lru_cache(maxsize=400_000)
def _loose_letters(text: str) -> str:
    """The keys of ``text``'s words run together: a name whose words' keys, run together, are not in
    it is not in the text (the quick test before :func:`loose_spans`)."""
    return "".join(map(_loose_word, _LOOSE_WORD.findall(fold_accents(text))))


@functools.lru_cache(maxsize=200_000)
def _loose_names(names: Tuple[str, ...]) -> Tuple[Tuple[str, ...], ...]:
    """The word keys of each of ``names`` (:func:`name_variants`: longest first), as
    :func:`_loose_tokens` keys a text's words."""
    # the names as written (a short word in capitals is an acronym: _loose_word), longest first
    written = {" ".join(name.replace("_", " ").replace("-", " ").split()) for name in names if name and name.strip()}
    written = sorted((name for name in written if name and _PLAIN_NAME.fullmatch(name)), key=lambda n: (-len(n), n))
    found = [tuple(key for _, _, key in _loose_tokens(name)) for name in written]
    return tuple(dict.fromkeys(words for words in found if words and all(words)))


def loose_spans(text: str, names: Sequence[str]) -> List[Tuple[int, int]]:
    """``(start, end)`` of each place where an English ``text`` writes one of ``names`` word by word
    in another country's spelling or with or without a possessive (*feces* for *faeces*, *Auerbach
    plexus* for *Auerbach's plexus*), each word in either number, space, ``_`` or ``-`` between words;
    the longest name first, places not overlapping; looked for only where the text or a name has a
    word that a fold may change, or a possessive (:data:`_CROSS_MARKS`). The leakage check's second
    look, after the names' own patterns (:func:`mentions`, :func:`mask_names`)."""
    key = tuple(names)
    if not _loosely_named(text, key):
        return []
    wanted = _loose_names(key)
    squashed = _loose_letters(text)
    wanted = [words for words in wanted if "".join(words) in squashed]
    if not wanted:
        return []
    return _word_runs(text, _loose_tokens(text), wanted,
                      lambda tokens, index, words: all(tokens[index + k][2] == words[k] for k in range(len(words))))


def _word_runs(text: str, tokens, wanted, same: Callable) -> List[Tuple[int, int]]:
    """``(start, end)`` of each run of ``tokens`` (``(start, end, form)``) that ``same(tokens, index,
    words)`` takes for one of ``wanted`` (tuples of word forms, the first that fits taken), with only
    space, ``_`` or ``-`` between its words; runs do not overlap. The one walk of
    :func:`loose_spans` and :func:`inflected_spans`."""
    spans, index = [], 0
    while index < len(tokens):
        size = 0
        for words in wanted:
            count = len(words)
            if (index + count <= len(tokens) and same(tokens, index, words)
                    and all(_BETWEEN_WORDS.fullmatch(text, tokens[index + k][1], tokens[index + k + 1][0])
                            for k in range(count - 1))):
                size = count
                break
        if size:
            spans.append((tokens[index][0], tokens[index + size - 1][1]))
            index += size
        else:
            index += 1
    return spans


@functools.lru_cache(maxsize=400_000)
def _marked(text: str) -> bool:
    """Whether ``text`` has a word that the cross-concept folds may change, or a possessive (:data:`_CROSS_MARKS`)."""
    lowered = text.lower()
    return any(any(part in lowered for part in parts) and pattern.search(lowered) is not None
               for parts, pattern in _CROSS_MARKS)


@functools.lru_cache(maxsize=200_000)
def _names_marked(names: Tuple[str, ...]) -> bool:
    """Whether a name is :func:`_marked`, or is one whose head comes first (*unit of gene expression*:
    a text writes *units of gene expression*, the number on a word before the last, which the names'
    own patterns leave alone)."""
    return any(_marked(name) or " of " in name.lower().replace("_", " ") for name in names)


@functools.lru_cache(maxsize=200_000)
def _loose_joined(names: Tuple[str, ...]) -> Tuple[str, ...]:
    """Each name's word keys run together (:func:`_loose_names`)."""
    return tuple("".join(words) for words in _loose_names(names))


def _loosely_named(text: str, names: Tuple[str, ...]) -> bool:
    """The quick test of :func:`loose_spans` (False: it finds nothing): the text or a name is
    :func:`_marked`, and some name's word keys, run together, are in the text's (:func:`_loose_letters`)."""
    if not text:
        return False
    if not _names_marked(names) and not _marked(text):
        return False
    squashed = _loose_letters(text)
    return any(letters in squashed for letters in _loose_joined(names))


#: a name with a qualifier in brackets at its end, after a space (a thesaurus's *bow (music)*,
#: *cold (temperature)*); not a chemical name's own brackets (*iron(III) chloride*, *poly(vinyl chloride)*)
_QUALIFIED = re.compile(r"^(.*[^\W\d_].*?)\s+\([^()]*[^\W\d_][^()]*\)$")


#: what a chemical name's brackets follow (*poly (methyl methacrylate)*, *bis (2-ethylhexyl) phthalate*): no qualifier
_CHEMICAL_PREFIXES = frozenset({"poly", "bis", "tris", "tetrakis", "mono", "di", "tri", "tetra", "cyclo", "oligo"})


def with_bare_names(names: Sequence[str]) -> Tuple[str, ...]:
    """``names`` and, after them, each bracket-qualified name without its qualifier (*bow (music)*:
    *bow*), the word a definition writes: what masks and leakage checks look for."""
    return _with_bare_names(tuple(names))


@functools.lru_cache(maxsize=200_000)
def _with_bare_names(names: Tuple[str, ...]) -> Tuple[str, ...]:
    if not any(")" in name for name in names):
        return names
    bare = [match.group(1).strip() for name in names for match in [_QUALIFIED.match(name.strip())]
            if match and match.group(1).strip().lower() not in _CHEMICAL_PREFIXES]
    return tuple(dict.fromkeys([*names, *bare]))


def distinct_names(names: Sequence[str], language: Optional[str] = None) -> List[str]:
    """``names`` without the respellings of an earlier one, in their order: the same :func:`name_key`,
    or in English one the plural of the other (``Deficit in non-word repetition`` after ``Deficit in
    nonword repetition``; ``Dental anomalies`` after ``Dental anomaly``) or its British or American
    spelling (``plow`` after ``plough``: :func:`_regional_key`), in French, Spanish or German one in
    the other number (``peintures`` after ``peinture``: :func:`name_key`'s ``language``). A respelling is not another name. Of
    a plural and its singular, the singular is kept, in the plural's place (a source that sorts its
    synonyms lists *alveoli* before *alveolus*), but never in place of the first name (the label)."""
    english = is_english(language)
    numbered = (language or "").lower().split("-")[0] in _WORD_PLURALS
    kept, keys = [], []
    regional_keys: Dict[str, str] = {}

    def regional(name: str) -> str:
        """:func:`_regional_key`, made once per name and only where it is compared."""
        if name not in regional_keys:
            regional_keys[name] = _regional_key(name)
        return regional_keys[name]

    for name in names:
        # the key, and the letters as written for the plural test (a short name, "viruses" / "virus"),
        # and in English every word in one number (*venae cavae* for *vena cava*: not only the last),
        # and with its regional spellings folded, for a name about as long as the earlier one (a fold
        # changes a name by a few letters)
        key, letters = name_key(name, english, language), name_key(name, english=False)
        numberless = _every_word_key(name) if english else key
        same = next((index for index, (other, written, every, earlier) in enumerate(keys)
                     if key == other or (english and (_plural_of(letters, written) or _plural_of(written, letters)
                                                      or numberless == every
                                                      or (abs(len(written) - len(letters)) <= 3
                                                          and regional(name) == regional(earlier))))), None)
        if same is not None:
            other, written = keys[same][:2]
            # the earlier one a plural of this one (in a language of word-by-word plurals: the longer)
            if same > 0 and (_is_plural_of(written, letters) if english else
                             numbered and key == other and len(letters) < len(written)):
                keys[same] = (key, letters, numberless, name)
                kept[same] = name
            continue
        keys.append((key, letters, numberless, name))
        kept.append(name)
    return kept


def _every_word_key(name: str) -> str:
    """:func:`name_key` of each word (space, ``_`` or ``-`` between words): a name whose words are all
    another's in the other number (*chordae tendineae*, *chorda tendinea*) gives the same."""
    return "".join(name_key(word) for word in name.replace("_", " ").replace("-", " ").split())


def name_pattern(names: Sequence[str], language: Optional[str] = None) -> Optional[Pattern]:
    """A pattern matching any of ``names`` as whole words, with space, ``_`` or ``-`` between words
    and an optional plural ``s``/``es`` (in English, a last word also in its other number's Latin,
    Greek or Germanic form: :func:`_last_word_endings`); None when there is no name. Compiled once
    per set of names. The names are taken without their accents: search the pattern in
    ``fold_accents(text)`` (:func:`fold_accents`; a match there is at the same place in ``text``)."""
    return _accent_free_pattern(name_variants(names), is_english(language))


#: scripts written without spaces between their words (Chinese, Japanese, Thai, Lao, Khmer, Burmese)
#: and Korean, which writes its particles onto the word (*숲은*: *숲* + a particle): a name in them is
#: found inside a longer run of their letters, and each character of the unspaced ones is a word
_UNSPACED = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_PARTICLES_JOINED = "\u1100-\u11ff\u3130-\u318f\uac00-\ud7af"
_JOINED_LETTER = re.compile(f"[{_UNSPACED}{_PARTICLES_JOINED}]")


@functools.lru_cache(maxsize=200_000)
def _variants_pattern(variants: Tuple[str, ...], english: bool = True) -> Optional[Pattern]:
    """The pattern of :func:`name_pattern` over ``variants`` (:func:`name_variants`' order: longest first)."""
    if not variants:
        return None
    # words joined by space, _ or -, or written together as code (MediaObject: schema.org's comments);
    # a last word in consonant + y also as its plural in -ies (dystrophy, dystrophies), and one with
    # a Latin, Greek or Germanic ending in its other number (vertebra, vertebrae)
    alternatives = []
    for name in variants:
        words = name.split(" ")
        parts = [re.escape(word) for word in words[:-1]]
        stem, endings = _variant_endings(name, english)
        parts.append(re.escape(stem) + ("(?:" + "|".join(map(re.escape, endings)) + ")" if len(endings) > 1
                                        else re.escape(endings[0])))
        alternatives.append(_BETWEEN_WORDS.pattern.join(parts))
    if not any(_JOINED_LETTER.match(name[:1]) or _JOINED_LETTER.match(name[-1:]) for name in variants):
        return re.compile(r"(?<![\w])(?:" + "|".join(alternatives) + r")(?:e?s)?(?![\w])", re.IGNORECASE)
    # a name that begins or ends in a script of joined words (_UNSPACED): no word boundary on that side
    # (a class of those scripts in the pattern would cost milliseconds to compile, case-folded)
    return re.compile("|".join(
        ("" if _JOINED_LETTER.match(name[:1]) else r"(?<![\w])") + "(?:" + alternative + ")"
        + ("" if _JOINED_LETTER.match(name[-1:]) else r"(?:e?s)?(?![\w])")
        for name, alternative in zip(variants, alternatives)), re.IGNORECASE)


@functools.lru_cache(maxsize=200_000)
def _accent_free_pattern(variants: Tuple[str, ...], english: bool = True) -> Optional[Pattern]:
    """:func:`_variants_pattern` of ``variants`` without their accents (:func:`fold_accents`), to be
    searched in a text without its accents: *cafe* and *Café* find each other."""
    folded = tuple(dict.fromkeys(fold_accents(variant) for variant in variants))
    return _variants_pattern(folded, english)


#: the singular and plural endings that :func:`name_key` folds (:data:`_IRREGULAR`), as written:
#: the leakage check finds *vertebrae* for *vertebra*, *diverticulum* for *diverticula*
_IRREGULAR_NUMBERS = (("foot", "feet"), ("tooth", "teeth"), ("nx", "nges"), ("ma", "mata"), ("en", "ina"), ("ion", "ia"),
                      ("ix", "ices"), ("ex", "ices"), ("is", "es"), ("us", "i"), ("um", "a"), ("a", "ae"),
                      ("fe", "ves"), ("f", "ves"))


_SHORT_PLURAL_OF = dict(_SHORT_PLURAL_WORDS)
#: each word of :data:`_SHORT_PLURAL_WORDS` and its other number
_SHORT_PLURAL_FORMS = {**dict(_SHORT_PLURAL_WORDS), **{singular: plural for plural, singular in _SHORT_PLURAL_WORDS}}


@functools.lru_cache(maxsize=200_000)
def _last_word_endings(word: str, irregular: bool, english: bool = False) -> Tuple[str, Tuple[str, ...]]:
    """``(stem, endings)``: the forms of a name's last word that its pattern matches, ``stem`` followed
    by any of ``endings`` (longest first; the word as written is one): a consonant + ``y`` also as
    ``-ies``, and with ``irregular`` (English, a name of five letters or more) a word of four letters
    or more in its other number too (*helix*: ``hel`` + ``ices``/``ix``; *ganglia*: ``gangl`` +
    ``iae``/``ion``/``ium``/``ia``: a form that is no word costs nothing)."""
    if _ies_plural(word):
        return word[:-1], ("ies", "y")
    other = _SHORT_PLURAL_FORMS.get(word) if english else None
    if other:                                   # foot, feet; mouse, mice
        return "", tuple(sorted({word, other}, key=lambda e: (-len(e), e)))
    if english and not irregular and len(word) == 4 and word.endswith("f") and word.isalpha():
        return word[:-1], ("ves", "f")          # leaf, leaves; wolf, half, calf, loaf (not cafe, caves)
    others = []
    if irregular and len(word) >= 4:
        # a regular plural also in the singular (*Seats* names the seat of "A seat for one person"), as
        # name_key folds them: one name
        if word.endswith("s") and not word.endswith(("ss", "us", "is")):
            if word.endswith("ies"):            # batteries, movies
                others.extend([("ies", "y"), ("ies", "ie")])
            elif word.endswith("es"):           # boxes, potatoes, lenses; horses, canoes
                others.extend([("es", ""), ("s", "")])
            else:
                others.append(("s", ""))
        for singular, plural in _IRREGULAR_NUMBERS:
            for written, other in ((singular, plural), (plural, singular)):
                if word.endswith(written):         # the whole word only for foot, feet, tooth, teeth, mata
                    others.append((written, other))
    if not others:
        return word, ("",)
    stem = word[:-max(len(written) for written, _ in others)]
    endings = {word[len(stem):]} | {word[len(stem):len(word) - len(written)] + other for written, other in others}
    return stem, tuple(sorted(endings, key=lambda e: (-len(e), e)))


def _variant_endings(name: str, english: bool) -> Tuple[str, Tuple[str, ...]]:
    """:func:`_last_word_endings` of a name variant's last word, with its other number's Latin, Greek
    or Germanic forms where :func:`name_key` folds them (English, five letters or more)."""
    return _last_word_endings(name.split(" ")[-1], english and len(_squashed(name)) >= 5, english)


def _ies_plural(word: str) -> bool:
    """A word whose plural ends in -ies (``dystrophy``; not ``day``)."""
    return len(word) > 2 and word.endswith("y") and word[-2].isalpha() and word[-2] not in "aeiouy"


@functools.lru_cache(maxsize=400_000)
def _squashed(text: str) -> str:
    """``text`` in lower case without spaces, ``_``, ``-`` or ``/`` (:data:`_BETWEEN_WORDS`): the quick
    test of the names' patterns, which join words so."""
    squashed = letters(text)
    return squashed.replace("/", "") if "/" in squashed else squashed


@functools.lru_cache(maxsize=200_000)
def _squashed_names(names: Tuple[str, ...], english: bool = True) -> Tuple[str, ...]:
    # the letters every form of a variant that its pattern matches starts with: without the ending
    # of the last word that a plural changes (dystroph: dystrophy, dystrophies; gangli: ganglion, ganglia)
    found = []
    for name in _name_variants(names):
        letters, last = _squashed(name), name.split(" ")[-1]
        stem, _ = _variant_endings(name, english)
        found.append(letters[:len(letters) - (len(last) - len(stem))])
    return tuple(found)


def _named_variants(text: str, names: Sequence[str], english: bool = True) -> Tuple[str, ...]:
    """The variants of ``names`` (:func:`name_variants`) whose letters, without spaces, ``_`` or ``-``,
    are in ``text``'s: the only ones that can match there (empty: none can). The pattern of these
    alone is smaller (an ontology term has many synonyms, a text names one or two) and shared by every
    text that names the same ones: fewer and cheaper compilations."""
    if not text:
        return ()
    squashed = _squashed(text)
    key = tuple(names)
    return tuple(variant for variant, letters in zip(_name_variants(key), _squashed_names(key, english))
                 if letters in squashed)


#: an acronym: one to five capitals (digits and hyphens besides), no lower-case letter, no space
#: (*OR*, *MRI*, *COVID-19*): a text names it only in capitals ("surgery or other procedures" does
#: not name the operating room's *OR*, nor *MEN* the word "man"); one with a digit in it (*KPC-45*,
#: *PBP2A*) in any case
_ACRONYM = re.compile(r"^(?=[^A-Z]*(?:[A-Z][^A-Z]*){1,5}$)[A-Z0-9][A-Z0-9-]*$")


def _acronyms_in(names: Tuple[str, ...]) -> List[str]:
    """The acronyms among ``names`` (:data:`_ACRONYM`), as written, longest first."""
    found = {name.strip() for name in names if name and not _one_character(name) and _ACRONYM.match(name.strip())}
    return sorted(found, key=lambda a: (-len(a), a))


def _one_character(name: str) -> bool:
    stripped = name.strip()
    return len(stripped) == 1 and stripped.isascii()


@functools.lru_cache(maxsize=200_000)
def _split_acronyms(names: Tuple[str, ...]) -> Tuple[Tuple[str, ...], Optional[Pattern]]:
    """``(the names but the acronyms, a pattern of the acronyms or None)``: an acronym is matched as
    written, in capitals, as a whole word, with an optional plural ``s`` (*MRIs*); a name of one
    ASCII character is in neither."""
    if any(_one_character(name) for name in names):
        # a name of one ASCII letter or digit (the Sequence Ontology's amino acid codes *A*, *I*,
        # *V*) names nothing in a text: "A non-polar amino acid" is no mention of *alanine*
        names = tuple(name for name in names if not _one_character(name))
    acronyms = _acronyms_in(names)
    if not acronyms:
        return names, None
    rest = tuple(name for name in names if not (name and _ACRONYM.match(name.strip())))
    # one with a digit is no word in any case (*KPC-45* in "beta-lactamase kpc-45", *PBP2A* in "PBP2a":
    # were left unmasked): matched in any case
    return rest, re.compile(r"(?<![\w])(?:" + "|".join(f"(?i:{re.escape(a)})" if _has_digit(a) else re.escape(a)
                                                      for a in acronyms) + r")s?(?![\w])")


def _has_digit(name: str) -> bool:
    return any(character.isdigit() for character in name)


def mentions(text: str, names: Sequence[str], language: Optional[str] = None) -> bool:
    """Whether ``text`` names any of ``names`` (as :func:`name_pattern` finds them), an ``_`` read as a
    space: a name inside a code identifier counts (``Flow Setpoint`` in ``Outside_Air_Flow_Setpoint``).
    A name written in the text as it is listed (ASCII) is found without compiling the pattern. In a
    ``language`` other than English with a Snowball stemmer, a name inflected otherwise too (Dutch
    *clubhuizen* for *clubhuis*: :func:`inflected_spans`)."""
    names, acronyms = _split_acronyms(tuple(names))
    if acronyms is not None and text and acronyms.search(text.replace("_", " ")):
        return True
    english = is_english(language)
    found = _named_variants(text, names, english)
    stem = stemmer(language) if language is not None and text and names else None
    if not found and stem is None and not (english and _loosely_named(text.replace("_", " "), tuple(names))):
        return False
    spaced = text.replace("_", " ")
    if found and (_written_as_listed(spaced, found) or _accent_free_pattern(found, english).search(
            fold_accents(spaced)) is not None):
        return True
    if english and text and loose_spans(spaced, names):
        return True         # another country's spelling, a possessive: loose_spans
    return stem is not None and bool(inflected_spans(spaced, names, stem))


def mention_test(names: Sequence[str], language: Optional[str] = None) -> Callable[[str], bool]:
    """``lambda text: mentions(text, names, language)``, made once for the many texts one set of names
    is tested against (every candidate definition of a question): a text whose letters hold none of
    the names' letters (:func:`_named_variants`' test, most texts) is answered without the rest."""
    key, acronyms = _split_acronyms(tuple(names))
    if acronyms is not None:            # in capitals, as written (_split_acronyms); the rest as below
        rest = mention_test(key, language)
        # (a text without any of them as a substring, most texts, is answered without the pattern)
        found = _acronyms_in(tuple(names))
        written = tuple(a for a in found if not _has_digit(a))
        any_case = tuple(a.lower() for a in found if _has_digit(a))
        return lambda text: bool(text) and ((
            (any(acronym in text for acronym in written) or (any_case and any(a in text.lower() for a in any_case)))
            and acronyms.search(text.replace("_", " ")) is not None) or rest(text))
    if language is not None and stemmer(language) is not None:     # inflected forms: mentions itself
        return lambda text: mentions(text, key, language)
    english = is_english(language)
    wanted = _squashed_names(key, english)
    names_marked = english and _names_marked(key)

    def test(text: str) -> bool:
        if text:
            squashed = _squashed(text)
            for letters in wanted:
                if letters in squashed:
                    return mentions(text, key, language)
            # another country's spelling, a possessive (loose_spans): only where a name or the text has one
            if english:
                spaced = text.replace("_", " ") if "_" in text else text
                if (names_marked or _marked(spaced)) and _loosely_named(spaced, key):
                    return mentions(text, key, language)
        return False

    return test


#: Snowball's stemmers by ISO 639-1 code (English needs none: the patterns know its plurals)
_SNOWBALL = {"ar": "arabic", "da": "danish", "nl": "dutch", "fi": "finnish", "fr": "french", "de": "german",
             "hu": "hungarian", "it": "italian", "no": "norwegian", "nb": "norwegian", "nn": "norwegian",
             "pt": "portuguese", "ro": "romanian", "ru": "russian", "es": "spanish", "sv": "swedish"}


@functools.lru_cache(maxsize=None)
def stemmer(language: Optional[str]):
    """A cached word -> stem function for ``language`` (``nl``, ``fr-CA``), or None: English, no
    language, or one Snowball has no stemmer for."""
    code = (language or "").lower().split("-")[0]
    if code not in _SNOWBALL:
        return None
    from nltk.stem.snowball import SnowballStemmer  # lazy: only sources in another language need it

    stem = functools.lru_cache(maxsize=200_000)(SnowballStemmer(_SNOWBALL[code]).stem)
    if code == "nl":
        stem = _DutchStem(stem)
    return stem


class _DutchStem:
    """Snowball's Dutch stemmer, and the singular of a plural it leaves as written (:meth:`singular`):
    it takes no ``-s`` off after an ``e`` (*ambassades*, *serres*, *linies*) nor an ``-ën``
    (*pastorieën*), and ``\\w+`` cuts *villa's* in two. :func:`inflected_spans` compares a word's
    stem of its singular too, so *een ambassade* names *ambassades*."""

    def __init__(self, stem):
        self.stem = stem

    def __call__(self, word: str) -> str:
        return self.stem(word)

    @staticmethod
    def singular(word: str) -> str:
        if len(word) >= 5 and word.endswith(("ieen", "eeen")):
            return word[:-2]                    # pastorieën, zeeën, knieën (compared without accents)
        if len(word) >= 5 and word.endswith("es"):
            return word[:-1]                    # ambassades, serres, linies, depressies
        return word

    @staticmethod
    def names(names: Sequence[str]) -> Tuple[str, ...]:
        """``names`` and, of those with a plural in ``'s`` (*villa's*, *casino's*), the singular."""
        return tuple(dict.fromkeys([*names, *(re.sub(r"['\u2019]s\b", "", name) for name in names
                                              if "'s" in name or "\u2019s" in name)]))


_TOKEN = re.compile(r"\w+")
#: what may stand between a name's words in a text: spaces, ``_``, ``-`` or ``/`` (Brick's *On Off
#: Status* in "the on/off status of a relay": was left unmasked)
_BETWEEN_WORDS = re.compile(r"[ _/-]*")


def _same_stem(a: str, b: str) -> bool:
    """Two forms of one word: equal, and long enough to say so (a stem of three letters is shared by
    unrelated words: Spanish *casa*, *casado*), or one the other with its last consonant doubled
    (Dutch *brug*, *brugg*en), or, long, the same but for Dutch's s/z or f/v (*clubhuis*, *clubhuiz*en)."""
    if a == b:
        return len(a) >= 4
    short, long_ = (a, b) if len(a) <= len(b) else (b, a)
    if len(short) >= 3 and long_ == short + short[-1] and short[-1] not in "aeiouy":
        return True
    return (len(a) == len(b) >= 6 and a[:-1] == b[:-1]
            and {a[-1], b[-1]} in ({"s", "z"}, {"f", "v"}))


def _forms(word: str, stem) -> Tuple[str, ...]:
    """A word as written and stemmed (and, in Dutch, its singular's stem: :class:`_DutchStem`); a word
    with a digit as written only (1000 is not 10000)."""
    if not word.isalpha():
        return (word,)
    singular = stem.singular(word) if isinstance(stem, _DutchStem) else word
    return (word, stem(word)) if singular == word else (word, stem(word), stem(singular))


def _same_word(a: Tuple[str, ...], b: Tuple[str, ...]) -> bool:
    """Two words (as written, stemmed) are one word inflected: :func:`_same_stem` on any pair of forms;
    a word with a digit only as written, whatever its length."""
    if len(a) == 1 or len(b) == 1:
        return a[0] == b[0]
    return any(_same_stem(x, y) for x in a for y in b)


def _same_ending_apart(a: Tuple[str, ...], b: Tuple[str, ...]) -> bool:
    """Two words (as written, stemmed) with one stem of three letters, one written the other with an
    ending (*innere*, *inneren*: *inn*), neither shorter than four letters: in a name of several
    words whose other words match (not Spanish *caso* / *casa*, French *mer* / *mère*)."""
    if len(a) == 1 or len(b) == 1 or a[1] != b[1] or len(a[1]) < 3:
        return False
    short, long_ = sorted((a[0], b[0]), key=len)
    return len(short) >= 4 and long_.startswith(short)


def inflected_spans(text: str, names: Sequence[str], stem) -> list:
    """``(start, end)`` of each place in ``text`` where the words of one of ``names`` follow each
    other (space, ``_`` or ``-`` between them) with the same stems (:func:`_same_stem`), the longest
    name first, places not overlapping. In a name of several words, one of them so found vouches for
    the others' stems of three letters (German *Innere Medizin* in "der *Inneren Medizin*": *inn*)."""
    # each word as written and as stemmed: the stemmer may change a word's root (Dutch drenkplaats ->
    # drenkplat, drenkplaatsen -> drenkplaats), so the forms of the two words are compared crosswise
    # (both without accents: one character for one, so a place in the folded text is one in the text)
    tokens = [(m.start(), m.end(), _forms(m.group().lower(), stem)) for m in _TOKEN.finditer(fold_accents(text))]
    if isinstance(stem, _DutchStem):
        names = stem.names(names)
    wanted = [tuple(_forms(word, stem) for word in _TOKEN.findall(fold_accents(name))) for name in name_variants(names)]
    wanted = [words for words in wanted if words]

    def same(tokens, index, words) -> bool:
        # a short word written alike is that word (French *à*, *de*: "instruments à cordes" names
        # *instrument à cordes*), but it vouches for no short stem (Spanish "de la casado" is no *de la casa*)
        count = len(words)
        return all(_same_word(tokens[index + k][2], words[k]) or tokens[index + k][2][0] == words[k][0] or (
            count > 1 and _same_ending_apart(tokens[index + k][2], words[k])) for k in range(count)) and (
            count == 1 or any(_same_word(tokens[index + k][2], words[k]) for k in range(count)))

    return _word_runs(text, tokens, wanted, same)


def _is_word_character(character: str) -> bool:
    """``\\w`` for an ASCII character."""
    return character.isalnum() or character == "_"


def _written_as_listed(text: str, variants: Tuple[str, ...]) -> bool:
    """True when an ASCII ``text`` holds one of ``variants`` (ASCII, lower case) as the pattern of
    :func:`name_pattern` would match it: a whole word, words one space apart, an optional ``s`` or
    ``es`` after. Every such find is a match of the pattern (its alternatives include this spelling),
    so a True answer is the pattern's answer; False means only "not found this way"."""
    if not text.isascii():
        return False
    lowered, size = text.lower(), len(text)
    for variant in variants:
        if not variant.isascii():
            continue
        start = lowered.find(variant)
        while start >= 0:
            end = start + len(variant)
            if start == 0 or not _is_word_character(lowered[start - 1]):
                for plural in ("", "s", "es"):
                    after = end + len(plural)
                    if lowered.startswith(plural, end) and (after == size or not _is_word_character(lowered[after])):
                        return True
            start = lowered.find(variant, start + 1)
    return False


def _masked_span(text: str, start: int, end: int, mask: str) -> str:
    """``text`` with ``[start:end]`` replaced by ``mask``, an ``_`` joining it to a word written as a
    space (*homologous_region* with *region* masked: "homologous ___", not "homologous____")."""
    before, after = text[:start], text[end:]
    if before.endswith("_"):
        before = before[:-1] + " "
    if after.startswith("_"):
        after = " " + after[1:]
    return before + mask + after


def mask_names(text: str, names: Sequence[str], mask: str = "___", language: Optional[str] = None) -> Tuple[str, int]:
    """``text`` with every mention of ``names`` replaced by ``mask``; returns the count too (in another
    ``language``, the inflected mentions as well: :func:`mentions`)."""
    names, acronyms = _split_acronyms(tuple(names))
    masked, count = _mask_words(text, names, mask, language)
    if acronyms is not None and masked:
        # in capitals, as written (_split_acronyms); after the other names, so that a longer name
        # with the acronym in it is masked whole (the Sequence Ontology's *LINE element* in "LINE
        # elements", not "___ elements")
        spans = [match.span() for match in acronyms.finditer(masked.replace("_", " "))]
        for start, end in reversed(spans):
            masked = _masked_span(masked, start, end, mask)
        count += len(spans)
    return masked, count


def _mask_words(text: str, names: Sequence[str], mask: str, language: Optional[str]) -> Tuple[str, int]:
    """:func:`mask_names` of names that are no acronyms."""
    count = 0
    english = is_english(language)
    found = _named_variants(text, names, english)
    masked = text
    if found:            # else no pattern to compile
        # matched in the text without accents (one character for one) and with ``_`` read as a space,
        # as mentions() reads it (*frameshift* in "frameshift_variant": was found there, not masked),
        # replaced in the text as written
        spans = [match.span() for match in _accent_free_pattern(found, english).finditer(
            fold_accents(text.replace("_", " ")))]
        for start, end in reversed(spans):
            masked = _masked_span(masked, start, end, mask)
        count += len(spans)
    # (the quick test on the text as given, whose answer is cached: masking only takes words away)
    if english and masked and _loosely_named(text, tuple(names)):
        spans = loose_spans(masked, names)      # another country's spelling, a possessive
        for start, end in reversed(spans):
            masked = _masked_span(masked, start, end, mask)
        count += len(spans)
    stem = stemmer(language) if language is not None and text and names else None
    if stem is None:
        return masked, count
    spans = inflected_spans(masked, names, stem)
    for start, end in reversed(spans):
        masked = masked[:start] + mask + masked[end:]
    return masked, count + len(spans)


def content_words(text: str, mask: str = "___", also: FrozenSet[str] = frozenset()) -> int:
    """Words of a definition that are neither the mask nor a function word (a definition that only
    repeats the label, ``A hospital.``, has none once the label is masked); ``also``: more function
    words (another language's: French *Un*, *une*)."""
    words = _WORD.findall(text.replace(mask, " ").replace("(n)", ""))     # a(n) before a mask: one article
    return sum(1 for word in words if word.lower() not in _FUNCTION_WORDS and word.lower() not in also)


#: a word of any script (a letter of the unspaced ones alone: :data:`_UNSPACED`)
_WORD = re.compile(rf"[{_UNSPACED}]|[^\W_{_UNSPACED}]+")
_FUNCTION_WORDS = frozenset({"a", "an", "the", "of", "or", "and", "to", "in", "is", "any", "this", "that", "which",
                             "with", "for", "by"})
