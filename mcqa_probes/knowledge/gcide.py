"""GCIDE (the Collaborative International Dictionary of English) as a knowledge source.

A parser for the dictd files (``gcide.index`` + ``gcide.dict[.dz]``, as shipped by Debian's
``dict-gcide``) that turns each dictionary article into entries and senses, and a
:class:`~mcqa_probes.knowledge.graph.KnowledgeGraph` whose concepts are the senses (TACL paper,
Table 1: GCIDE has the relations ``def``, ``ex`` and ``lemma`` and no ``isa`` links).

The dictd text is the 1913 Webster layout rendered as plain text::

    Gift \\Gift\\, n. [OE. gift, yift, ...]
       1. Anything given; anything voluntarily transferred by one
          person to another without compensation; a present.
          [1913 Webster]

                Shall I receive by gift, what of my own, . . .   --Milton.
          [1913 Webster]

       4. Some exceptional inborn quality ...; as, the gift of wit; a gift for speaking.

What the parser reads, per article (one article per distinct index offset):

* the header: headword(s) before the ``\\pro*nun*ci*a*tion\\``, the part of speech (``n.``,
  ``a.``, ``v. t.``, ...) after it; etymologies ``[...]`` and pronunciations ``(...)`` dropped;
* senses: numbered paragraphs (``   4. ...``), or the unnumbered body of a one-sense article
  (sense number 1);
* per sense: the definition; *usages* (the inline ``; as, ...`` examples, which contain the
  word); *quotes* (quoted citations ``"..." --Author.`` and indented block quotations);
  bracketed labels such as ``[Obs.]`` and a leading domain label such as ``(Law)`` are moved
  out of the definition into ``labels`` / ``domain``;
* skipped: ``Note:``, ``Syn:``, ``Usage:`` paragraphs, ``{phrase}`` sub-entries, run-on
  derivatives (``-- {Word}, adv.``) and source tags (``[1913 Webster]``, ``[PJC]``).

Markup is stripped: ``{x}`` → ``x``, accent codes (``[=o]``, ``[ae]``, ``[e^]``) → plain
letters, citations ``--Author.`` removed. Senses without any example are kept, with
``has_example`` false. Articles whose first line is not a header (a handful of dictd
conversion fragments) are counted in ``skipped_articles`` and ignored.

Sense ids follow the released DictionaryQA files: ``word.<pos>.<k>`` where ``word`` is the
lower-cased headword (spaces as ``_``), ``pos`` one of ``n a v r p c i o x`` or ``u`` when GCIDE
gives none (see :data:`POS_CODES`), and ``k`` the 1-based position of the sense among all
senses of that word in file order (so ids are unique even when a word has several entries).
"""
import logging
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, List, Optional, Tuple, Union

from mcqa_probes.knowledge.graph import Concept, KnowledgeGraph
from mcqa_probes.resources.gcide import dictionary_bytes, find_gcide

logger = logging.getLogger(__name__)

SOURCE = "gcide"

#: GCIDE part-of-speech abbreviations → the one-letter code used in sense ids (``u`` = none).
POS_CODES = {
    "n": "n", "n. pl": "n", "n. sing": "n", "prop. n": "n", "prop. n. pl": "n", "pr. n": "n",
    "n. m": "n", "n. f": "n", "n. fem": "n", "n. masc": "n", "vb. n": "n",
    "a": "a", "adj": "a", "prop. a": "a", "prop. adj": "a", "p. a": "a", "adj. prenom": "a",
    "pred. adj": "a",
    "v": "v", "v. t": "v", "v. i": "v", "v. t. & i": "v", "v. i. & t": "v", "imp": "v",
    "p. p": "v", "p. pr": "v", "imp. & p. p": "v",
    "adv": "r", "prep": "p", "conj": "c", "interj": "i", "pron": "o",
    "pref": "x", "prefix": "x", "suff": "x", "suffix": "x",
}

_B64 = {ch: i for i, ch in enumerate("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")}

# accent / ligature codes of the GCIDE ASCII rendering → plain text
_ACCENTS = {
    "ae": "ae", "AE": "AE", "oe": "oe", "OE": "OE", "imac": "i", "aum": "a", "asl": "a", "udd": "u",
    "eth": "th", "th": "th", "ng": "ng", "yogh": "y", "deg": "°", "sect": "§", "root": "√",
    "beta": "beta", "phi": "phi", "add": "", "bar": "|", "oo": "oo", "=oo": "oo", "oo^": "oo",
    "=ae": "ae", "ddag": "‡", "dag": "†", "hand": "",
}
_ACCENT_RE = re.compile(r"\[([=\-~\"'`^.,*]?)([A-Za-z]{1,4})([\^]?)\]")
_BRACES_RE = re.compile(r"[{}]")
_SPACES_RE = re.compile(r"\s+")
_CITATION_RE = re.compile(r"\s*--\s?[A-Z][^\"]*$")          # trailing  --Milton.  --Deut. xvi. 19.
_INLINE_QUOTE_RE = re.compile(r"\"([^\"]{3,}?)\"\s*(?:--\s?[A-Z][\w.&' ]*?\.(?=\s|$))?")
_LABEL_RE = re.compile(r"\s*\[(?:Obs|R|Colloq|Archaic|Poetic|Prov\. Eng|Scot|U\.\s?S|Eng|Local|Slang|"
                       r"Cant|Law|Rare|Vulgar|Humorous|Low|Dial|Fig|Chiefly|Now|Often|Sometimes|Also)"
                       r"[^\]]{0,40}\]")
_DOMAIN_RE = re.compile(r"^\(([A-Z][A-Za-z. &]{1,30})\)\s*")
_USAGE_RE = re.compile(r"[;:,.]\s+as,\s+")
_SOURCE_TAG_RE = re.compile(r"^\s*\[(?:[0-9]{4} Webster|Webster|WordNet|PJC|RDH|RHUD|MW|Century|"
                            r"Chambers|JA|DOM|f\.|Vocab|Wikipedia|[A-Z]{2,5})[^\]]*\]\s*[A-Za-z ]*$")
_LEADING_TAG_RE = re.compile(r"^(\s*)\[(?:[0-9]{4} Webster|Webster|WordNet|PJC)[^\]]*\]\s*(\S.*)$")
_SENSE_RE = re.compile(r"^ {2,6}(\d{1,2})\.\s+(.*)$")
_NOTE_RE = re.compile(r"^ {2,6}(?:Note|Syn|Usage)\s?:")
_PHRASE_RE = re.compile(r"^ {2,6}(?:--\s*)?\{")
_POS_HEAD_RE = re.compile(r"^[\s,]*((?:[a-z]{1,6}\.\s*(?:&\s*)?)+)")
_CROSS_REF_RE = re.compile(r"^(?:See|Same as|Variant of|Alt\. of|Alt\. pl\. of|Obs\. form of|"
                           r"Pl\. of|Plural of|imp\. of|p\. p\. of|Imp\. of|Obs\. imp\. of|An obsolete|"
                           r"Archaic|of\b)", re.IGNORECASE)


# precompiled patterns of the parser's hot loop
_POS_ONLY_LINE_RE = re.compile(r"^(?:[a-z]{1,6}\.\s*(?:&\s*)?)+(?:\s*\[|$)")
_HEADER_END_RE = re.compile(r"[.\\\])]$")
_PRONUNCIATION_RE = re.compile(r"\\[^\\]*\\")
_BRACKETS_RE = re.compile(r"\[[^\[\]]*\]")
_PARENS_RE = re.compile(r"\([^()]*\)")
_POS_PREFIX_RE = re.compile(r"^(?:obs|prop)\.\s*")
_LEADING_ETYMOLOGY_RE = re.compile(r"^(?:\[[^\]]*\]\s*)+")
_USAGE_END_RE = re.compile(r"\s--\s?|\s\[")
_TRAILING_AUTHOR_RE = re.compile(r"\s--\s?[A-Z][\w.]*(?:\s[\w.]+){0,3}\.?\s*$")
_COMMENT_RE = re.compile(r"[;,]?\s--\s?")
_SENSE_POINTER_RE = re.compile(r"\[\d\]")
_TRAILING_SEE_RE = re.compile(r"(?<=[.;])\s*(?:See|Cf\.|Compare)\s[^.;]{1,60}\.?$")
_ABBREVIATION_END_RE = re.compile(r"\b(?:etc|[A-Z])\.$")


def decode_b64_number(text: str) -> int:
    """dictd index numbers: base64 digits, most significant first (``"kV"`` → 2325)."""
    value = 0
    for char in text:
        try:
            value = value * 64 + _B64[char]
        except KeyError:
            raise ValueError(f"not a dictd base64 number: {text!r}") from None
    return value


def encode_b64_number(value: int) -> str:
    """Inverse of :func:`decode_b64_number` (used to write consistent fixture indexes)."""
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    if value == 0:
        return "A"
    digits = []
    while value:
        value, rest = divmod(value, 64)
        digits.append(alphabet[rest])
    return "".join(reversed(digits))


def strip_markup(text: str) -> str:
    """Remove GCIDE ASCII markup: ``{x}`` → x, accent codes → letters, collapse whitespace."""

    def accent(match: "re.Match") -> str:
        prefix, letters, suffix = match.groups()
        code = prefix + letters + suffix
        if code in _ACCENTS:
            return _ACCENTS[code]
        if letters in _ACCENTS and (prefix or suffix):
            return _ACCENTS[letters]
        if (prefix or suffix) and len(letters) <= 2:
            return letters
        if letters in ("ae", "oe", "AE", "OE"):
            return letters
        return match.group(0)  # a real bracket such as [Obs.] is not an accent code

    text = _ACCENT_RE.sub(accent, text)
    text = _BRACES_RE.sub("", text)
    text = text.replace("\ufffd", "'")
    return _SPACES_RE.sub(" ", text).strip()


@dataclass(frozen=True)
class GcideSense:
    """One (word, pos, sense, definition) tuple with its examples."""

    id: str
    word: str                 # lower-cased headword (the split unit / cluster)
    headword: str             # as written in the header, e.g. "Old"
    lemmas: Tuple[str, ...]   # all headwords of the article (e.g. Color, Colour)
    pos: str                  # one-letter code, "u" when GCIDE gives none
    pos_label: str            # GCIDE's abbreviation, e.g. "v. t." ("" when none)
    sense_number: int         # the number printed in the article (1 for an unnumbered one)
    definition: str           # markup stripped; usages, quotes, labels and domain removed
    usages: Tuple[str, ...] = ()   # inline "as, ..." examples
    quotes: Tuple[str, ...] = ()   # quoted citations and block quotations
    labels: Tuple[str, ...] = ()   # e.g. ("Obs.",)
    domain: str = ""               # e.g. "Law"
    entry: int = 0                 # article number in file order
    number: int = 0                # global sense number in file order

    @property
    def examples(self) -> Tuple[str, ...]:
        return self.usages + self.quotes

    @property
    def has_example(self) -> bool:
        return bool(self.usages or self.quotes)

    @property
    def is_cross_reference(self) -> bool:
        """A definition that only points elsewhere ("See Weir", "Same as ...", "Pl. of ...")."""
        return bool(_CROSS_REF_RE.match(self.definition)) or len(self.definition) < 3

    def to_concept(self) -> Concept:
        return Concept(
            id=self.id,
            pos=self.pos,
            lemmas=tuple(lemma.replace(" ", "_") for lemma in self.lemmas),
            definition=self.definition,
            examples=self.examples,
            number=self.number,
            attributes=(
                ("headword", self.headword),
                ("pos_label", self.pos_label),
                ("sense_number", str(self.sense_number)),
                ("entry", str(self.entry)),
                ("usages", str(len(self.usages))),
                ("labels", ";".join(self.labels)),
                ("domain", self.domain),
            ),
        )


@dataclass
class GcideDictionary:
    """The parsed dictionary: senses in file order, grouped by word, plus the sense graph."""

    source: str
    version: str
    senses: List[GcideSense]
    skipped_articles: int = 0
    articles: int = 0
    path: str = ""
    words: Dict[str, List[GcideSense]] = field(default_factory=dict)
    _graph: Optional[KnowledgeGraph] = None

    def __post_init__(self):
        if not self.words:
            for sense in self.senses:
                self.words.setdefault(sense.word, []).append(sense)

    @property
    def graph(self) -> KnowledgeGraph:
        """The senses as a :class:`KnowledgeGraph` (built on first use)."""
        if self._graph is None:
            graph = KnowledgeGraph(source=self.source, version=self.version)
            for sense in self.senses:
                graph.add(sense.to_concept())
            self._graph = graph
        return self._graph

    def senses_of(self, word: str) -> List[GcideSense]:
        return self.words.get(word.lower(), [])

    def __len__(self) -> int:
        return len(self.senses)

    def counts(self) -> Dict[str, int]:
        with_example = sum(1 for s in self.senses if s.has_example)
        with_usage = sum(1 for s in self.senses if s.usages)
        return {
            "articles": self.articles,
            "skipped_articles": self.skipped_articles,
            "senses": len(self.senses),
            "words": len(self.words),
            "senses_with_example": with_example,
            "senses_with_usage": with_usage,
            "senses_with_quote_only": with_example - with_usage,
        }


# --------------------------------------------------------------------------------------------
# parsing


def read_index(index_path: Union[str, Path]) -> List[Tuple[str, int, int]]:
    """``(headword, offset, length)`` rows of a dictd index; errors name the file and line."""
    rows = []
    with open(index_path, encoding="utf-8", errors="replace") as handle:
        for line_number, line in enumerate(handle, 1):
            line = line.rstrip("\n")
            if not line:
                continue
            parts = line.split("\t")
            if len(parts) != 3:
                raise ValueError(f"{index_path}:{line_number}: expected headword<TAB>offset<TAB>length, got {line!r}")
            try:
                rows.append((parts[0], decode_b64_number(parts[1]), decode_b64_number(parts[2])))
            except ValueError as error:
                raise ValueError(f"{index_path}:{line_number}: {error}") from None
    return rows


def _split_header(lines: List[str]) -> Tuple[str, int]:
    """The header text and the index of the first body line."""
    header = lines[0]
    i = 1

    def open_count(text: str) -> bool:
        return (text.count("\\") % 2 == 1 or text.count("[") > text.count("]")
                or text.count("(") > text.count(")"))

    while i < len(lines):
        nxt = lines[i].strip()
        if not nxt:
            break
        stripped = header.rstrip()
        continues = (
            open_count(header)
            or nxt.startswith("\\") or nxt.startswith("(")
            or _POS_ONLY_LINE_RE.match(nxt) is not None
            or stripped.endswith(",")
            or ("\\" in stripped and not _HEADER_END_RE.search(stripped) and not _SENSE_RE.match(lines[i]))
        )
        if not continues:
            break
        header += " " + nxt
        i += 1
    return header, i


def _parse_header(header: str) -> Optional[Tuple[List[str], str]]:
    """(headwords, pos label) or None when this is not an article header."""
    if "\\" not in header or header[:1] in (" ", "-", "{", "[", "\t"):
        return None
    # drop accent codes, then (nested) etymologies and pronunciations; keep headwords and pos
    text = _ACCENT_RE.sub(lambda m: m.group(2), header)
    text = _PRONUNCIATION_RE.sub("\u0000", text)
    previous = None
    while previous != text:
        previous = text
        text = _BRACKETS_RE.sub(" ", text)
        text = _PARENS_RE.sub(" ", text)
    parts = text.split("\u0000")
    headwords = [strip_markup(p).strip(" ,;") for p in parts[:-1]]
    headwords = [h for h in headwords if h and len(h) < 60]
    if not headwords:
        return None
    pos_label = ""
    for tail in reversed(parts[1:]):      # "A \a\, B \b\, a." : the pos follows the last form
        match = _POS_HEAD_RE.match(tail)
        if match:
            pos_label = _SPACES_RE.sub(" ", match.group(1)).strip()
            break
    return headwords, pos_label


def _pos_code(pos_label: str) -> str:
    label = pos_label.rstrip(". ").replace(".,", ".").strip()
    if not label:
        return "u"
    if label in POS_CODES:
        return POS_CODES[label]
    label = _POS_PREFIX_RE.sub("", label)
    if label in POS_CODES:
        return POS_CODES[label]
    first = label.split(".")[0]
    return POS_CODES.get(first, "u")


def _clean_sense(raw: str, block_quotes: List[str]):
    """(definition, usages, quotes, labels, domain) from the joined text of one sense."""
    text = strip_markup(raw)
    text = _LEADING_ETYMOLOGY_RE.sub("", text)    # a sense-level etymology "[F. seconde.]"
    quotes: List[str] = []

    def take_quote(match: "re.Match") -> str:
        quote = match.group(1).strip()
        if len(quote.split()) >= 2:
            quotes.append(quote)
        return " "

    usage_text = ""
    usage_match = _USAGE_RE.search(text)
    if usage_match:
        usage_text = text[usage_match.end():]
        text = text[: usage_match.start()]
    text = _INLINE_QUOTE_RE.sub(take_quote, text)
    if usage_text:
        usage_text = _INLINE_QUOTE_RE.sub(take_quote, usage_text)
        usage_text = _USAGE_END_RE.split(usage_text)[0]
    labels = tuple(m.strip(" []") for m in _LABEL_RE.findall(text))
    text = _LABEL_RE.sub("", text)
    text = _TRAILING_AUTHOR_RE.sub("", text)  # trailing --Author.
    domain = ""
    domain_match = _DOMAIN_RE.match(text)
    if domain_match:
        domain = domain_match.group(1)
        text = text[domain_match.end():]
    # "; -- used in ..." / "; -- called also ..." comments are not part of the definition proper
    text = _COMMENT_RE.split(text)[0]
    text = _SENSE_POINTER_RE.sub("", text)
    text = _TRAILING_SEE_RE.sub("", text)  # trailing "See World."
    definition = _SPACES_RE.sub(" ", text).strip(" ;:,")
    if definition.endswith(".") and not _ABBREVIATION_END_RE.search(definition):
        definition = definition[:-1]
    usages = []
    usage_text = _SPACES_RE.sub(" ", usage_text).strip(" ;:,")
    if usage_text:
        usages.append(usage_text)
    for block in block_quotes:
        quote = _CITATION_RE.sub("", strip_markup(block)).strip()
        if len(quote.split()) >= 2:
            quotes.append(quote)
    return definition, tuple(usages), tuple(quotes), labels, domain


def parse_article(text: str):
    """One dictd article → (headwords, pos label, [(sense number, raw text, block quotes)]) or None."""
    lines = text.split("\n")
    while lines and not lines[0].strip():
        lines.pop(0)
    if not lines:
        return None
    header, i = _split_header(lines)
    parsed = _parse_header(header)
    if parsed is None:
        return None
    headwords, pos_label = parsed
    units: List[List] = []      # [number, [text lines], [quote blocks]]
    current = None               # the sense receiving text
    mode = "body"                # body | skip | quote
    after_blank = True
    quote_lines: List[str] = []
    numbered = False
    closed = False

    def flush_quote():
        nonlocal quote_lines
        if quote_lines and current is not None:
            current[2].append(" ".join(quote_lines))
        quote_lines = []

    for line in lines[i:]:
        if not line.strip():
            if mode == "quote":
                flush_quote()
                mode = "body"
            after_blank = True
            continue
        if _SOURCE_TAG_RE.match(line):
            if mode == "quote":
                flush_quote()
                mode = "body"
            after_blank = True   # a source tag closes a paragraph like a blank line
            continue
        tagged = _LEADING_TAG_RE.match(line)
        if tagged:   # "[1913 Webster] -- {Wag"gish*ly}, adv." : a source tag, then a new paragraph
            if mode == "quote":
                flush_quote()
                mode = "body"
            line = tagged.group(1) + tagged.group(2)
            after_blank = True
        sense_match = _SENSE_RE.match(line)
        indent = len(line) - len(line.lstrip(" "))
        if sense_match:
            flush_quote()
            numbered = True
            current = [int(sense_match.group(1)), [sense_match.group(2)], []]
            closed = False
            units.append(current)
            mode = "body"
        elif _NOTE_RE.match(line) or (after_blank and _PHRASE_RE.match(line)):
            # notes, synonyms, {phrase} sub-entries and run-on derivatives close the current sense
            flush_quote()
            mode = "skip"
            current = None
            closed = True
        elif mode == "quote":
            quote_lines.append(line.strip())
        elif after_blank and indent >= 8 and current is not None:
            mode = "quote"
            quote_lines = [line.strip()]
        elif mode == "skip" and not after_blank:
            pass
        elif mode == "skip" and indent > 3:
            pass
        elif current is None and not numbered and not closed:
            current = [1, [line.strip()], []]
            units.append(current)
            mode = "body"
        elif mode == "body" and current is not None and not after_blank:
            current[1].append(line.strip())
        else:
            # an unindented paragraph after the senses (a stray fragment): ignore
            mode = "skip"
        after_blank = False
    flush_quote()
    return headwords, pos_label, [(number, " ".join(body), quotes) for number, body, quotes in units]


def parse_dictionary(index_rows: Iterable[Tuple[str, int, int]], body: bytes, version: str,
                     path: str = "", progress: bool = False) -> GcideDictionary:
    """Parse every article referenced by the index (each distinct offset once, in file order)."""
    spans = sorted({(offset, length) for headword, offset, length in index_rows if not headword.startswith("00-")})
    iterator = spans
    if progress:
        from tqdm import tqdm

        iterator = tqdm(spans, desc="parsing GCIDE", unit="article", mininterval=1.0)
    senses: List[GcideSense] = []
    per_word: Dict[str, int] = {}
    skipped = 0
    for entry, (offset, length) in enumerate(iterator):
        text = body[offset: offset + length].decode("utf-8", errors="replace")
        parsed = parse_article(text)
        if parsed is None:
            skipped += 1
            continue
        headwords, pos_label, units = parsed
        headword = headwords[0]
        word = headword.lower()
        pos = _pos_code(pos_label)
        for sense_number, raw, block_quotes in units:
            definition, usages, quotes, labels, domain = _clean_sense(raw, block_quotes)
            if not definition:
                continue
            per_word[word] = per_word.get(word, 0) + 1
            senses.append(GcideSense(
                id=f"{word.replace(' ', '_')}.{pos}.{per_word[word]}",
                word=word, headword=headword, lemmas=tuple(headwords), pos=pos, pos_label=pos_label,
                sense_number=sense_number, definition=definition, usages=usages, quotes=quotes,
                labels=labels, domain=domain, entry=entry, number=len(senses),
            ))
    return GcideDictionary(source=SOURCE, version=version, senses=senses, skipped_articles=skipped,
                           articles=len(spans), path=path)


def read_version(index_rows: List[Tuple[str, int, int]], body: bytes) -> str:
    """The version from the ``00-database-short`` entry ("... English v.0.48" → "0.48")."""
    for headword, offset, length in index_rows:
        if headword in ("00-database-short", "00-gcide-short"):
            text = body[offset: offset + length].decode("utf-8", errors="replace")
            match = re.search(r"v(?:ersion)?\.?\s*(\d+(?:\.\d+)+)", text)
            if match:
                return match.group(1)
    return "unknown"


def load_gcide(path: Optional[str] = None, progress: bool = False) -> GcideDictionary:
    """Find (see :func:`mcqa_probes.resources.gcide.find_gcide`) and parse GCIDE.

    ``path`` is a directory holding ``gcide.index`` and ``gcide.dict.dz`` (or plain
    ``gcide.dict``); by default ``$MCQA_GCIDE_DIR`` then ``/usr/share/dictd``. The whole
    dictionary (about 126k articles) parses in a few seconds.
    """

    files = find_gcide(path)
    rows = read_index(files.index)
    body = dictionary_bytes(files)
    for headword, offset, length in rows:
        if offset + length > len(body):
            raise ValueError(f"{files.index}: entry {headword!r} points past the end of {files.dictionary}")
    version = read_version(rows, body)
    dictionary = parse_dictionary(rows, body, version, path=str(files.dictionary.parent), progress=progress)
    logger.info("GCIDE %s: %s", version, dictionary.counts())
    return dictionary
