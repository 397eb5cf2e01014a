"""requirements.txt: no floor admits a release with a published advisory, and the installed set meets every floor."""

from __future__ import annotations

from importlib.metadata import version
from pathlib import Path

from packaging.requirements import Requirement
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]
# package -> the first release without the advisories known when this was written (issue 19, item 14)
FIXED = {
    "sentencepiece": "0.2.1",
    "protobuf": "6.33.5",  # CVE-2025-4565 (6.31.1 in the 6.x line) and CVE-2026-0994 (6.33.5)
    "streamlit": "1.43.2",
}


def floors(path: Path) -> dict[str, Requirement]:
    lines = [line.split("#", 1)[0].strip() for line in path.read_text(encoding="utf-8").splitlines()]
    found = [Requirement(line) for line in lines if line and not line.startswith("-r")]
    return {req.name.lower(): req for req in found}


def test_floors_admit_no_release_with_a_known_advisory() -> None:
    runtime = floors(ROOT / "requirements.txt")
    for name, fixed in FIXED.items():
        lowest = min((Version(s.version) for s in runtime[name].specifier if s.operator == ">="), default=None)
        assert lowest is not None and lowest >= Version(fixed), f"{name}: floor {lowest}, fixed in {fixed}"


def test_the_installed_packages_meet_every_floor() -> None:
    for path in (ROOT / "requirements.txt", ROOT / "requirements-dev.txt"):
        for name, req in floors(path).items():
            assert req.specifier.contains(version(name), prereleases=True), f"{name} {version(name)} vs {req}"
