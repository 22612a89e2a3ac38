"""The OWL syntaxes that rdflib does not read, through ``py-horned-owl``: OWL/XML (Protégé's "OWL/XML
Syntax", ``.owx``), the functional syntax (ROBOT's ``.ofn``, what ODK ontologies keep their edit file
in) and the Manchester syntax (``.omn``). The file is opened as an OWL 2 ontology and written back as
RDF/XML by the OWL 2 mapping to RDF, which :mod:`mcqa_probes.knowledge.rdf` then reads as any
RDF/XML file: the same ontology in any of the syntaxes gives the same graph and the same probe files.
The prefixes the file declares (``Prefix(obo:=<...>)``, ``<Prefix name="obo" .../>``) are bound in
the graph, as an RDF/XML file's ``xmlns:obo`` is, so concept ids keep them.

Two shims, each keeping every line where it was:

* an OWL/XML file that declares XML entities in its DOCTYPE (Protégé 4 wrote
  ``<!ENTITY xsd "http://www.w3.org/2001/XMLSchema#">`` and ``datatypeIRI="&xsd;string"``), which
  py-horned-owl's XML parser does not expand, has them expanded first;
* a functional-syntax file that py-horned-owl rejects is read again with its abbreviated IRIs whose
  local name holds a character the grammar does not allow there written out in full
  (``obo:hp.obo#layperson`` -> ``<http://purl.obolibrary.org/obo/hp.obo#layperson>``): fastobo's
  OBO-to-OWL writer (``fastobo.dump_owl``, which pronto's ``ofn`` output goes through) writes its
  synonym types, subsets, relations without a shared id and the ontology's IRI so. Each is counted
  in the source's validity report (``spelled_out_iri``) with its line.

A parse error is a :class:`~mcqa_probes.knowledge.ontology.SourceError` with the line where the
parser gives one (or, for XML that is not well formed, where Python's XML parser finds it).
"""
import contextlib
import os
import re
import sys
from typing import List, Optional, Tuple, Union

from mcqa_probes.knowledge.ontology import SourceError, SourceReport, not_utf8, source_text

#: the syntaxes read here, by py-horned-owl's name for them, as an error names them
OWL_SYNTAXES = {"owx": "OWL/XML", "ofn": "OWL functional syntax", "omn": "OWL Manchester syntax"}

_DOCTYPE = re.compile(r"<!DOCTYPE\b[^\[>]*(?:\[(.*?)\])?\s*>", re.DOTALL)
_ENTITY = re.compile(r"""<!ENTITY\s+([\w.-]+)\s+(?:"([^"]*)"|'([^']*)')\s*>""")


def expand_entities(text: str) -> str:
    """``text`` with the internal XML entities its DOCTYPE declares written out (``&xsd;string`` ->
    ``http://www.w3.org/2001/XMLSchema#string``) and the DOCTYPE left as blank lines, so that every
    other line keeps its number; the text as it is where it declares none."""
    doctype = _DOCTYPE.search(text)
    if doctype is None:
        return text
    entities = {match.group(1): match.group(2) if match.group(2) is not None else match.group(3)
                for match in _ENTITY.finditer(doctype.group(1) or "")}
    body = text[:doctype.start()] + "\n" * doctype.group(0).count("\n") + text[doctype.end():]
    if not entities:
        return body
    pattern = re.compile("&(" + "|".join(re.escape(name) for name in entities) + ");")
    return pattern.sub(lambda match: entities[match.group(1)], body)


#: in the functional syntax, what is read past as it is (a literal, a full IRI, a comment, a prefix
#: declaration), or an abbreviated IRI (``prefix:local``, ``:local``)
_OFN_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|<[^>]*>|(?<![^\s(])#[^\n]*|Prefix\s*\([^)]*\)'
                        r'|(?<![\w.\-])(?P<prefix>[^\W\d][\w.\-]*)?:(?P<local>[^\s()"<>]+)')
_OFN_PREFIX = re.compile(r"Prefix\s*\(\s*([^\W\d][\w.\-]*)?:\s*=\s*<([^>]*)>\s*\)")
#: a local name the grammar allows (SPARQL's PN_LOCAL, as py-horned-owl reads it): no '#', '/', ...
_PN_LOCAL = re.compile(r"[\w.\-]*[\w\-]\Z")


def spell_out_iris(text: str) -> Tuple[str, list]:
    """``text`` (the functional syntax) with each abbreviated IRI whose local name the grammar does not
    allow (``obo:hp.obo#layperson``) and whose prefix the file declares written as the full IRI, and
    ``(line, abbreviated IRI)`` of each one so written."""
    namespaces = {prefix or "": namespace for prefix, namespace in _OFN_PREFIX.findall(text)}
    pieces, spelled, start, line, counted = [], [], 0, 1, 0
    for token in _OFN_TOKEN.finditer(text):
        local = token.group("local")
        if local is None or _PN_LOCAL.match(local):
            continue
        namespace = namespaces.get(token.group("prefix") or "")
        if namespace is None:
            continue
        line += text.count("\n", counted, token.start())
        counted = token.start()
        spelled.append((line, token.group(0)))
        pieces.append(text[start:token.start()])
        pieces.append(f"<{namespace}{local}>")
        start = token.end()
    if not spelled:
        return text, []
    pieces.append(text[start:])
    return "".join(pieces), spelled


def _line_of_byte(text: str, offset: int) -> int:
    """The line of the last character before byte ``offset`` that is not white space (the OWL/XML
    parser gives the place after the tag it rejects)."""
    return text.encode("utf-8")[:offset].rstrip().count(b"\n") + 1


def _line_of_context(text: str, line: int, context: str) -> int:
    """The line nearest ``line`` whose text is ``context`` (the Manchester parser counts lines from its
    first one that is not blank), else ``line``."""
    lines = text.split("\n")
    near = [number for number in range(max(1, line - 3), min(len(lines), line + 3) + 1)
            if lines[number - 1].strip() == context.strip()]
    return min(near, key=lambda number: abs(number - line)) if near else line


def _where(message: str, text: str, syntax: str, shown: Optional[str] = None) -> Tuple[str, Optional[int]]:
    """What py-horned-owl's error says, in a few words, and its line: the functional and Manchester
    parsers give ``line_col: Pos((line, column))``, the OWL/XML one a ``BytePosition`` (0 where it
    knows none); OWL/XML that is not well formed XML is said as Python's XML parser says it. The
    line quoted is ``shown``'s where given (the file as written, ``text`` being the one read)."""
    if syntax == "owx":
        malformed = xml_error(text) or _owx_root_error(text)
        if malformed is not None:
            return malformed
    line: Optional[int] = None
    context = re.search(r'line: "((?:[^"\\]|\\.)*)"', message)
    # the line as the parser quotes it, its quotes and backslashes escaped
    quoted = re.sub(r"\\(.)", r"\1", context.group(1)).strip() if context else ""
    quoted = quoted.replace("\u240a", "").strip()     # the parser shows the line's end as a visible ␊
    found = re.search(r"line_col: Pos\(\((\d+), \d+\)\)", message)
    if found:
        line = int(found.group(1))
        if quoted:
            line = _line_of_context(text, line, quoted)
            shown_lines = shown.split("\n") if shown is not None else []
            if 0 < line <= len(shown_lines):
                quoted = shown_lines[line - 1].strip()
    else:
        found = re.search(r"BytePosition\((\d+)\)", message)
        if found and int(found.group(1)) > 0:
            offset = int(found.group(1))
            # the parser has read on past the element it names ("Unexpected tag: found SubClassOff")
            tag = re.search(r'ValidityError\("[^"]*found (\w+)', message)
            start = text.encode("utf-8").rfind(b"<" + tag.group(1).encode(), 0, offset) if tag else -1
            line = _line_of_byte(text, start + 1 if start >= 0 else offset)
    span = re.search(r"ByteSpan\((\d+)\.\.(\d+)\)", message)
    if line is None and span:       # a ValidityError of a stretch of the file: its line, and what it holds
        data = text.encode("utf-8")
        start, end = int(span.group(1)), int(span.group(2))
        line = _line_of_byte(text, start + 1)
        # the name the stretch falls in (the Manchester parser's count may be a byte off: a blank first line)
        token = next((found for found in re.finditer(rb"[^\s()<>\"]+", data[max(0, start - 2):end + 2])
                      if found.start() >= 1 and b":" in found.group()), None)
        written = token.group().decode("utf-8", errors="replace") if token else data[start:end].decode(
            "utf-8", errors="replace").strip()
        if "undefined prefix" in message and ":" in written:
            prefix = written.split(":", 1)[0]
            declaration = f"Prefix({prefix}:=<...>)" if syntax == "ofn" else f"Prefix: {prefix}: <...>"
            return (f"undefined prefix '{prefix}' ({written}; expected a declaration {declaration} at the top, or "
                    "a full IRI in <...>)"), line
    expected = re.search(r"positives: \[([^\]]*)\]", message)
    validity = re.search(r'ValidityError\("((?:[^"\\]|\\.)*)"', message)
    if expected and all(rule.startswith("RFC3987") for rule in expected.group(1).split(", ")):
        # the grammar's rules for the characters of an IRI: the file ends, or a line does, inside one
        reason = "an IRI not closed (expected the rest of the IRI and its closing '>')"
        if quoted:
            reason += f" at: {quoted[:80]}"
    elif expected:
        reason = f"expected {' or '.join(expected.group(1).split(', ')) or 'something else'}"
        if quoted:
            reason += f" at: {quoted[:80]}"
    elif validity:
        reason = validity.group(1)
    else:
        reason = re.sub(r"^Failed to open ontology:\s*", "", message)[:200]
    return reason, line


def xml_error(data: Union[str, bytes]) -> Optional[Tuple[str, int]]:
    """What Python's XML parser says of ``data`` (text, or a file's bytes in the encoding it
    declares) where it is not well formed XML, with what was expected, and the line (None where it
    is well formed): an element never closed names its tag and the line that opened it. The one
    home of this test for RDF/XML and OWL/XML."""
    import xml.parsers.expat  # lazy: only for a file that an XML-based reader could not read

    parser = xml.parsers.expat.ParserCreate()
    opened: List[Tuple[str, int]] = []
    parser.StartElementHandler = lambda name, attributes: opened.append((name, parser.CurrentLineNumber))
    parser.EndElementHandler = lambda name: opened.pop()
    try:
        parser.Parse(data.encode("utf-8") if isinstance(data, str) else data, True)
    except xml.parsers.expat.ExpatError as error:
        what = re.sub(r"^not well-formed \((.*)\)$", r"\1", xml.parsers.expat.ErrorString(error.code))
        errors = xml.parsers.expat.errors
        inner = opened[-1] if opened else None
        if error.code == errors.codes[errors.XML_ERROR_TAG_MISMATCH] and inner:
            expected = f"expected the <{inner[0]}> opened at line {inner[1]} to be closed by </{inner[0]}> first"
            text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
            written = text.split("\n")[error.lineno - 1] if error.lineno <= text.count("\n") + 1 else ""
            # (the parser's column is at the end tag's name or its "</")
            closing = re.match(r"(?:</)?\s*([^\s>]+)", written[error.offset:])
            if closing and any(name == closing.group(1) for name, _ in opened[:-1]):
                # the end tag of an element further out: the inner one's end tag is missing (no typo
                # here), and the place to mend is where it was opened, not where the parser noticed
                return (f"XML that is not well formed (mismatched tag: the <{inner[0]}> opened here is not closed; "
                        f"expected </{inner[0]}> before the </{closing.group(1)}> at line {error.lineno})"), inner[1]
        elif error.code == errors.codes[errors.XML_ERROR_NO_ELEMENTS] and inner:
            expected = (f"expected </{inner[0]}> for the <{inner[0]}> opened at line {inner[1]}: the file ends "
                        f"inside it, cut short?")
        else:
            expected = _XML_EXPECTED.get(what, "expected well-formed XML")
            if what == "invalid token":
                text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
                lines = text.split("\n")
                at = lines[error.lineno - 1][error.offset:error.offset + 1] if error.lineno <= len(lines) else ""
                if at and ord(at) < 32 and at not in "\t\r\n":      # a NUL: no '&' or '<' to blame
                    expected = f"a control character (0x{ord(at):02x}) that XML does not allow; expected text without it"
        return f"XML that is not well formed ({what}; {expected})", error.lineno
    return None


#: the namespace of OWL/XML's elements
OWL_NAMESPACE = "http://www.w3.org/2002/07/owl#"


def _owx_root_error(text: str) -> Optional[Tuple[str, int]]:
    """What is wrong with the root element of well-formed XML read as OWL/XML, and its line: OWL/XML
    has an ``<Ontology>`` in OWL's namespace (py-horned-owl says only "Unexpected EoF" of any other
    root, at the file's end); None where the root is one."""
    import xml.parsers.expat  # lazy: only for a file that the OWL/XML reader could not read

    parser = xml.parsers.expat.ParserCreate(namespace_separator=" ")
    root: List[Tuple[str, int]] = []

    def start(name, attributes):
        if not root:
            root.append((name, parser.CurrentLineNumber))
    parser.StartElementHandler = start
    try:
        parser.Parse(text.encode("utf-8"), True)
    except xml.parsers.expat.ExpatError:    # (an unbound prefix: said by xml_error, which reads it first)
        return None
    if not root:
        return None
    name, line = root[0]
    namespace, _, local = name.rpartition(" ")
    if (namespace, local) == (OWL_NAMESPACE, "Ontology"):
        return None
    if local == "Ontology":
        return (f"expected the root element <Ontology> in OWL's namespace {OWL_NAMESPACE} "
                f"(xmlns=\"{OWL_NAMESPACE}\"), found it in {namespace or 'no namespace'}"), line
    within = f" of namespace {namespace}" if namespace else ""
    return f"expected the root element <Ontology> of OWL/XML, found <{local}>{within}", line


#: what each of the parser's usual complaints expected instead
_XML_EXPECTED = {
    "invalid token": "expected a tag, text or an entity: a '&' in text is written &amp;, a '<' &lt;",
    "unclosed token": "expected the tag closed by '>'",
    "undefined entity": "expected an entity the file declares, or &amp; for a '&'",
    "junk after document element": "expected nothing but comments after the root element's closing tag",
    "no element found": "expected a root element: is the file empty or cut short?",
    "duplicate attribute": "expected each attribute once in a tag",
    "unbound prefix": "expected a prefix declared by an xmlns: attribute",
}


def owl_syntax_as_rdf(path: str, syntax: str, report: Optional[SourceReport] = None) -> Tuple[str, list]:
    """``path`` in ``syntax`` (a key of :data:`OWL_SYNTAXES`) as RDF/XML text, with the ``(prefix,
    namespace)`` pairs it declares; a :class:`SourceError` where it cannot be read. What the
    functional syntax's shim writes out (:func:`spell_out_iris`) goes to ``report``."""
    import pyhornedowl  # lazy: needed only for these syntaxes

    name = OWL_SYNTAXES[syntax]
    encoding_error = not_utf8(path, f"a UTF-8 {name} file")
    if encoding_error is not None:
        raise encoding_error
    text = source_text(path).lstrip("\ufeff")
    if syntax == "owx":
        text = expand_entities(text)
    try:
        with _rust_call():
            ontology = pyhornedowl.open_ontology_from_string(text, syntax)
    except (ValueError, RuntimeError) as error:
        spelled_text, spelled = spell_out_iris(text) if syntax == "ofn" else (text, [])
        ontology, read = None, text
        if spelled:     # read again with them written out; an error is then the file's next fault
            try:
                with _rust_call():
                    ontology = pyhornedowl.open_ontology_from_string(spelled_text, syntax)
            except (ValueError, RuntimeError) as again:
                error, read = again, spelled_text
        if ontology is None:
            reason, line = _where(str(error), read, syntax, shown=text if read is not text else None)
            raise SourceError(path, f"not valid {name}: {reason}", line) from None
        for line, abbreviated in spelled if report is not None else ():
            report.add("spelled_out_iri", path, line, abbreviated)
    try:
        with _rust_call():
            rdf_xml = ontology.save_to_string("owl")
    except (ValueError, RuntimeError) as error:
        raise SourceError(path, f"read as {name}, but py-horned-owl cannot write it as RDF ({str(error)[:140]}); "
                                "save the ontology as RDF/XML or Turtle") from None
    prefixes = [(str(prefix), str(namespace)) for prefix, namespace in ontology.prefix_mapping]
    # XML 1.0 has no control characters; py-horned-owl writes a literal's as they are (a text syntax holds them)
    return _XML_CONTROL.sub("", rdf_xml), prefixes


@contextlib.contextmanager
def _rust_call():
    """A call into py-horned-owl: file descriptor 2 sent to nothing while it runs (a Rust panic prints
    its own message there, past Python's ``sys.stderr``), and a panic (pyo3's ``PanicException``, a
    ``BaseException``) raised as a ``RuntimeError`` that names it, so that a failure is the build's one
    error line."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as devnull:
            os.dup2(devnull.fileno(), 2)
            yield
    except (Exception, KeyboardInterrupt, SystemExit, GeneratorExit):
        raise
    except BaseException as error:
        raise RuntimeError(f"{type(error).__name__}: {error}") from None
    finally:
        os.dup2(saved, 2)
        os.close(saved)


#: the characters XML 1.0 does not allow, not even as a character reference
_XML_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f]")
