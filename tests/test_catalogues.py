"""Translations cannot rot: messages.pot holds every wrapped message of the code as it is now,
each language's catalogue translates every one of them (nothing empty, nothing fuzzy), and a
translation keeps its original's placeholders and tags (a lost %(name)s would be a 500)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po, write_po
from pseudo_locale import TEMPLATE, pseudo

from scorekeeper.config import SUPPORTED_LOCALES

ROOT = Path(__file__).resolve().parents[1]
TRANSLATIONS = ROOT / "scorekeeper" / "translations"
LANGUAGES = [code for code in SUPPORTED_LOCALES if code != "en"]
# What must come through a translation unchanged: Python placeholders, the scripts' "{n}" and
# "__N__", and HTML tags.
PLACEHOLDER = re.compile(r"%\(\w+\)[-#0 +]*\d*(?:\.\d+)?[sdifr]|%[sdifr]|\{\w+\}|__\w+__|<[^>]+>")


def read(path: Path) -> Catalog:
    with open(path, "rb") as source:
        return read_po(source)


def _ids(catalog: Catalog) -> set[object]:
    return {message.id for message in catalog if message.id}


def _placeholders(text: str) -> list[str]:
    return sorted(PLACEHOLDER.findall(text))


def completeness_problems(catalog: Catalog, template: Catalog) -> list[str]:
    """Why `catalog` cannot ship: a message of the template missing, empty or fuzzy."""
    problems = [f"missing: {mid!r}" for mid in _ids(template) - _ids(catalog)]
    if catalog.fuzzy:
        problems.append("the whole catalogue is marked fuzzy")
    for message in catalog:
        if not message.id:
            continue
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        if not all(strings):
            problems.append(f"untranslated: {message.id!r}")
        elif message.fuzzy:
            problems.append(f"fuzzy: {message.id!r}")
    return sorted(problems)


def placeholder_problems(catalog: Catalog) -> list[str]:
    """Translations whose placeholders or tags differ from their original's."""
    problems = []
    for message in catalog:
        if not message.id or not message.string:
            continue
        if isinstance(message.id, tuple):
            # A plural form may leave the count out ("one" in words); nothing else.
            original = set(_placeholders(message.id[0])) | set(_placeholders(message.id[1]))
            for form in message.string:
                if form and set(_placeholders(form)) - {"%(num)s"} != original - {"%(num)s"}:
                    problems.append(f"{message.id[0]!r}: {form!r}")
        elif _placeholders(message.string) != _placeholders(message.id):
            problems.append(f"{message.id!r}: {message.string!r}")
    return problems


def source_messages() -> set[object]:
    """Every message the code wraps now, extracted as `make extract` does (babel.cfg)."""
    keywords = {**DEFAULT_KEYWORDS, "_l": None, "N_": None}
    found: set[object] = set()
    with (ROOT / "babel.cfg").open() as config:
        method_map, options_map = parse_mapping_cfg(config)
    for pattern_and_method in method_map:
        for _file, _line, message, _comments, _context in extract_from_dir(
            str(ROOT), method_map=[pattern_and_method], options_map=options_map, keywords=keywords
        ):
            found.add(message if isinstance(message, str) else tuple(message[:2]))
    return found


def test_messages_pot_holds_every_wrapped_message():
    """A message added or changed in the code without `make extract` fails here."""
    template = _ids(read(TEMPLATE))
    source = source_messages()
    assert sorted(map(str, source - template)) == [], "run `make extract`"
    assert sorted(map(str, template - source)) == [], "run `make extract`"
    assert len(template) > 700


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_is_translated(language):
    catalog = read(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po")
    assert completeness_problems(catalog, read(TEMPLATE)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_translations_keep_their_placeholders(language):
    catalog = read(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po")
    assert placeholder_problems(catalog) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_plural_forms_are_the_installed_cldr_ones(language):
    """Babel 2.19's CLDR gives French and Spanish a third form ("many": 1 000 000 de parties);
    a catalogue with fewer forms than its language has would leave a plural untranslated."""
    catalog = read(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po")
    assert (catalog.num_plurals, catalog.plural_expr) == (
        get_plural(language).num_plurals,
        get_plural(language).plural_expr,
    )


def test_the_many_form_reads_as_french_and_spanish_write_it():
    from gettext import GNUTranslations
    from io import BytesIO

    from babel.messages.mofile import write_mo

    said = {}
    for language in ("fr", "es"):
        out = BytesIO()
        write_mo(out, read(TRANSLATIONS / language / "LC_MESSAGES" / "messages.po"))
        out.seek(0)
        words = GNUTranslations(out)
        said[language] = [
            words.ngettext("%(num)s game", "%(num)s games", n) % {"num": n}
            for n in (1, 2, 1_000_000)
        ]
    assert said == {
        "fr": ["1 partie", "2 parties", "1000000 de parties"],
        "es": ["1 partida", "2 partidas", "1000000 de partidas"],
    }


# The checks themselves, on throwaway catalogues made from the template ----------------------


def translated(template: Catalog) -> Catalog:
    """A complete French catalogue of every template message (pseudo-translated)."""
    catalog = Catalog(locale="fr", fuzzy=False)
    for message in template:
        if not message.id:
            continue
        if isinstance(message.id, tuple):
            others = (pseudo(message.id[1]),) * (catalog.num_plurals - 1)
            catalog.add(message.id, (pseudo(message.id[0]), *others))
        else:
            catalog.add(message.id, pseudo(message.id))
    return catalog


def _round_trip(catalog: Catalog, tmp_path: Path) -> Catalog:
    """Through a .po file, as a translator's catalogue is read."""
    path = tmp_path / "messages.po"
    with open(path, "wb") as out:
        write_po(out, catalog)
    return read(path)


def test_a_complete_catalogue_passes(tmp_path):
    template = read(TEMPLATE)
    catalog = _round_trip(translated(template), tmp_path)
    assert completeness_problems(catalog, template) == []
    assert placeholder_problems(catalog) == []


def test_an_empty_fuzzy_or_missing_message_fails(tmp_path):
    template = read(TEMPLATE)
    catalog = translated(template)
    catalog["New game"].string = ""
    catalog["Scorekeeper"].flags.add("fuzzy")
    catalog.delete("Language")
    problems = completeness_problems(_round_trip(catalog, tmp_path), template)
    assert problems == ["fuzzy: 'Scorekeeper'", "missing: 'Language'", "untranslated: 'New game'"]


def test_a_lost_or_renamed_placeholder_fails(tmp_path):
    template = read(TEMPLATE)
    catalog = translated(template)
    catalog["Signed in as %(name)s."].string = "Connecté en tant que %(nom)s."
    catalog["Password set for %(email)s."].string = "Mot de passe changé."
    problems = placeholder_problems(_round_trip(catalog, tmp_path))
    assert len(problems) == 2
    assert any("%(nom)s" in problem for problem in problems)
