# SPDX-License-Identifier: Apache-2.0
"""What the Python tests share: finding the built engine the way the repository's other tests do.

The engine is ``$EFB_BINARY`` when set; else the efb of ``swift build --show-bin-path`` (the build
that scripts/test and the Swift tests use) when this file sits in the repository and Swift is on
PATH; else the client's own search (``.build/release/efb``, then ``.build/debug/efb``). When there
is none, :func:`require_binary` raises, so a test run without an engine fails instead of skipping.
"""

import os
import shutil
import subprocess
import sys

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from efb_client import find_binary  # noqa: E402

REPOSITORY = os.path.dirname(os.path.dirname(HERE))


def built_binary():
    """The engine to test, or ``None`` (see the module's documentation)."""
    if os.environ.get("EFB_BINARY"):
        try:
            return find_binary()
        except FileNotFoundError:
            return None
    swift = shutil.which("swift")
    if swift and os.path.isfile(os.path.join(REPOSITORY, "Package.swift")):
        try:
            result = subprocess.run(
                [swift, "build", "--show-bin-path"],
                cwd=REPOSITORY,
                capture_output=True,
                text=True,
                timeout=120,
            )
            candidate = os.path.join(result.stdout.strip(), "efb")
            if result.returncode == 0 and os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
        except (OSError, subprocess.TimeoutExpired):
            pass
    try:
        return find_binary()
    except FileNotFoundError:
        return None


BINARY = built_binary()


def require_binary():
    """The engine to test; raises ``RuntimeError`` (failing the run) when there is none."""
    if BINARY is None:
        where = os.environ.get("EFB_BINARY")
        raise RuntimeError(
            f"no efb binary at $EFB_BINARY ({where})" if where else
            "no efb binary: build it (swift build) or set $EFB_BINARY; the tests need the real engine"
        )
    return BINARY
