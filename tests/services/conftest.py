"""Fixtures of the services tests: the shared club, exported once (JSON and CSV)."""

import json

import pytest

from scorekeeper.services import export_csv, export_json

from .club_data import build_club, source_instance


@pytest.fixture(scope="session")
def exported(migrated_database, tmp_path_factory):
    """(JSON export, CSV export) of build_club(), made once on an instance of its own."""
    with source_instance(migrated_database, tmp_path_factory.mktemp("source")):
        club_id = build_club()
        document = export_json.export_club_json(club_id)
        again = export_json.export_club_json(club_id)
        table = export_csv.export_club_csv(club_id)
    assert export_json.dumps(again) == export_json.dumps(document)
    return document, table


@pytest.fixture
def document(exported):
    """A fresh copy of the JSON export, as a file would give it back."""
    return json.loads(export_json.dumps(exported[0]))
