"""The order the xdist workers take the test files in (tests/suite_time.py)."""

from __future__ import annotations

from tests.suite_time import expected_seconds, longest_first


def test_files_go_out_longest_first_and_a_new_one_counts_as_the_median_of_its_kind() -> None:
    seconds = {"tests/core/a.py": 40.0, "tests/core/b.py": 2.0, "tests/core/c.py": 1.0,
               "tests/browser/x.py": 90.0, "tests/browser/y.py": 30.0, "tests/browser/z.py": 10.0}
    files = ["tests/core/c.py", "tests/core/b.py", "tests/browser/new.py", "tests/core/a.py",
             "tests/browser/z.py", "tests/core/new.py", "tests/browser/x.py"]
    assert longest_first(files, seconds) == [
        "tests/browser/x.py", "tests/core/a.py",
        "tests/browser/new.py",  # the median browser file: 30 s
        "tests/browser/z.py", "tests/core/b.py", "tests/core/new.py",  # the rest's median: 2 s (a tie keeps the order)
        "tests/core/c.py",
    ]


def test_without_measurements_the_browser_files_go_first() -> None:
    assert longest_first(["tests/core/a.py", "tests/browser/x.py", "tests/ui/b.py"], {}) == [
        "tests/browser/x.py", "tests/core/a.py", "tests/ui/b.py"]


def test_the_measured_seconds_are_there() -> None:
    """A file moved or renamed since they were measured only counts as new (the median of its kind)."""
    from tests.suite_time import FILE_SECONDS

    seconds = expected_seconds()
    assert len(seconds) > 100, f"{FILE_SECONDS} is missing or nearly empty"
    assert all(value >= 0 for value in seconds.values())
