"""Shared fixtures: the data folder (skip with a reason when absent) and the default cache dir."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def data_dir_or_none() -> Path | None:
    """The folder named by PLAYGROUND_DATA_DIR, when it is set and exists."""
    value = os.environ.get("PLAYGROUND_DATA_DIR", "")
    path = Path(value) if value else None
    return path if path is not None and path.is_dir() else None


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """PLAYGROUND_DATA_DIR, or skip: these tests compare against the verified files in it."""
    path = data_dir_or_none()
    if path is None:
        pytest.skip("PLAYGROUND_DATA_DIR is not set to an existing folder (see README: offline use)")
    return path
