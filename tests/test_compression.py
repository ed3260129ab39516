"""scorekeeper.compression: gzip answers decode to exactly the page, whatever opening they share
with other pages (the opening up to the inline stylesheets is compressed once per process)."""

from __future__ import annotations

import gzip

import pytest

from scorekeeper.compression import gzipped, opening_length

GZIP = {"Accept-Encoding": "gzip"}


@pytest.mark.parametrize(
    "page",
    [
        b"<!doctype html><head><style>a{b:c}</style><title>1</title></head>" + b"x" * 900,
        b"<!doctype html><head><style>a</style><style>b</style><title>2</title>" + b"y" * 900,
        b'{"no": "style"}' * 80,
        b"<style>unclosed" + b"z" * 900,
    ],
)
def test_every_answer_decodes_to_itself(page):
    assert gzip.decompress(gzipped(page)) == page
    assert gzip.decompress(gzipped(page)) == page  # the second time from the kept opening


def test_the_opening_ends_after_the_last_of_its_stylesheets():
    page = b"<html><style>a</style><style>b</style><title>t</title><style>c</style>"
    assert page[: opening_length(page)] == b"<html><style>a</style><style>b</style>"
    assert opening_length(b"<html><title>t</title>") == 0


@pytest.mark.parametrize("language", ["en", "fr", "hi"])
def test_pages_sharing_an_opening_decode_to_their_own_text(client, language):
    client.set_cookie("lang", language)
    for path in ("/", "/"):
        plain = client.get(path).data
        packed = client.get(path, headers=GZIP)
        assert packed.headers["Content-Encoding"] == "gzip"
        assert gzip.decompress(packed.data) == plain
