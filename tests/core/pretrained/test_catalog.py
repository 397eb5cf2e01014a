"""core.pretrained.catalog: the pickers' groups, labels and search (name, vendor, model name)."""

from __future__ import annotations

import re

import pytest

from core.pretrained import catalog, registry


def picker_finds(typed: str) -> list[str]:
    """The keys a picker offers for ``typed``: Streamlit's search box keeps a label holding the typed
    characters in order (case-insensitive), as a browser showed for "gpt-4o" and "o3"."""
    pattern = re.compile(".*".join(map(re.escape, typed.lower())))
    return [key for key, spec in registry().items() if pattern.search(catalog.search_label(key, spec.name).lower())]


@pytest.mark.parametrize(("typed", "key"), [
    ("gpt-4o", "o200k_base"), ("llama 3.1", "llama3"), ("gemma 3", "gemma3"), ("deepseek r1", "deepseek_v3"),
    ("microsoft", "phi3"), ("cohere", "command_r"), ("anthropic", "claude_legacy"), ("eleutherai", "gpt_neox"),
    ("bigcode", "starcoder"), ("google", "t5"), ("google", "bert_uncased"), ("google", "gemma"),
])
def test_the_picker_finds_a_tokenizer_by_name_or_vendor(typed: str, key: str) -> None:
    assert key in picker_finds(typed)


def test_a_label_names_the_vendor_once() -> None:
    assert catalog.search_label("phi3", "Phi-3") == "Phi-3 · Others · Microsoft"
    assert catalog.search_label("gemma3", "Gemma 3") == "Gemma 3 · Google"
    assert catalog.search_label("refact", "Refact 1.6B") == "Refact 1.6B · Others"
    assert catalog.search_label("upload:0123", "mine.json") == "mine.json · Yours"


@pytest.mark.parametrize(("typed", "key"), [("o3", "o200k_base"), ("pixtral", "mistral_nemo"), ("qwq", "qwen"),
                                            ("gpt-oss", "o200k_harmony"), ("mpt-7b", "gpt_neox")])
def test_model_names_outside_the_labels_are_found_by_search(typed: str, key: str) -> None:
    assert catalog.search(typed) == [key]


def test_the_model_name_table_names_only_registry_keys_and_every_key_has_a_model() -> None:
    lines = [line for line in catalog.MODEL_NAMES_PATH.read_text(encoding="utf-8").splitlines()
             if line.strip() and not line.startswith("#")]
    assert {line.split("\t")[1].strip() for line in lines} == set(registry())


def test_groups_are_in_the_pickers_order() -> None:
    groups = [catalog.group_of(key) for key in catalog.ordered(list(registry()))]
    assert groups == sorted(groups, key=catalog.GROUPS.index)
    assert {catalog.group_of("gemma3"), catalog.group_of("deepseek_v3")} == {"Google", "DeepSeek"}


def test_the_readmes_tokenizer_table_lists_every_registry_key() -> None:
    readme = (catalog.MODEL_NAMES_PATH.parents[1] / "README.md").read_text(encoding="utf-8")
    table = readme.split("\n## Tokenizers in the registry\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in table.splitlines() if line.startswith("| `")]
    keys = {key for row in rows for key in re.findall(r"`([a-z0-9_]+)`", row.split("|")[1])}
    assert keys == set(registry())
