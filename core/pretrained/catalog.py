"""How the pickers group and find the registry's tokenizers: family groups and model names.

``group_of(key)`` puts each tokenizer in one of ``GROUPS`` (OpenAI, Meta, Mistral, Qwen, DeepSeek,
Google, encoders, others; uploads are "yours"); ``model_names(key)`` lists the models that use it,
read from ``data/model_names.tsv`` (written for this project); ``search_label(key, name)`` is the
text a picker shows and searches, so typing "gpt-4o" finds o200k_base and "llama 3.1" finds Llama 3;
``search(query)`` is the same match in Python. Imports nothing heavy.

>>> search("gpt-4o")
['o200k_base']
"""

from __future__ import annotations

import functools
from pathlib import Path

from core.pretrained.registry import registry

GROUPS: tuple[str, ...] = ("OpenAI", "Meta", "Mistral", "Qwen", "DeepSeek", "Google", "Encoders", "Others", "Yours")
_FAMILY_GROUP = {
    "OpenAI": "OpenAI", "Meta Llama": "Meta", "Mistral": "Mistral", "Qwen": "Qwen", "DeepSeek": "DeepSeek",
    "Google Gemma": "Google", "Google BERT": "Encoders", "Meta XLM-R": "Encoders", "Google T5": "Encoders",
}
MODEL_NAMES_PATH = Path(__file__).resolve().parents[2] / "data" / "model_names.tsv"


@functools.cache
def _names() -> dict[str, tuple[str, ...]]:
    table: dict[str, list[str]] = {}
    for line in MODEL_NAMES_PATH.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            model, key = line.split("\t")
            table.setdefault(key.strip(), []).append(model.strip())
    return {key: tuple(models) for key, models in table.items()}


def group_of(key: str) -> str:
    """The picker group of a registry key ("Yours" for anything not in the registry)."""
    spec = registry().get(key)
    return "Yours" if spec is None else _FAMILY_GROUP.get(spec.family, "Others")


def model_names(key: str) -> tuple[str, ...]:
    """The models that use tokenizer ``key``, as ``data/model_names.tsv`` lists them."""
    return _names().get(key, ())


def search_label(key: str, name: str) -> str:
    """``"o200k_base (GPT-4o) · OpenAI"``: the picker's label, name then group, then the vendor if neither names it.

    Subtle: a picker's chip shows the whole label, so it holds no model names: four chips with their
    model lists took four lines of a 1280×720 screen and pushed the tokens below it. Streamlit's search
    box is fuzzy (the typed characters in order), so "gpt-4o" still finds o200k_base (GPT-4o) and
    "llama 3.1" Llama 3 / 3.1 / 3.2 / 3.3; ``search`` (the command line) also reads the model names.
    The vendor (``"Phi-3 (mini, medium) · Others · Microsoft"``) is one word, so "microsoft" or
    "google" finds a tokenizer whose group does not say who made it.
    """
    group = group_of(key)
    vendor = _vendor(key)
    shown = f"{name} · {group}".lower()
    return f"{name} · {group}" + (f" · {vendor}" if vendor and vendor.lower() not in shown else "")


def _vendor(key: str) -> str:
    """The maker, the first word of the registry's family ("Microsoft Phi" → "Microsoft"); "" for uploads."""
    spec = registry().get(key)
    return spec.family.split()[0] if spec is not None and spec.family else ""


def _search_text(key: str, name: str) -> str:
    """Name, group, vendor and model names: what ``search`` matches."""
    spec = registry().get(key)
    parts = [name, group_of(key)]
    if spec is not None and spec.family not in (group_of(key), name):
        parts.append(spec.family)
    parts.extend(model_names(key))
    return " · ".join(parts)


def ordered(keys: list[str]) -> list[str]:
    """``keys`` by group (in ``GROUPS`` order), keeping their order within a group."""
    return sorted(keys, key=lambda k: GROUPS.index(group_of(k)))


def search(query: str) -> list[str]:
    """Registry keys whose search label holds every word of ``query`` (case-insensitive)."""
    words = query.lower().split()
    return [key for key, spec in registry().items() if all(w in _search_text(key, spec.name).lower() for w in words)]
