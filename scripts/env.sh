# SPDX-License-Identifier: Apache-2.0
# Sourced by the scripts: puts Swift on PATH and picks a Python that has jsonschema.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
    export PATH="/opt/swift/usr/bin:$PATH"
fi
if [ -z "${EFB_PYTHON:-}" ]; then
    for candidate in python3 /usr/bin/python3; do
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import jsonschema' 2>/dev/null; then
            EFB_PYTHON=$(command -v "$candidate")
            break
        fi
    done
fi
export EFB_PYTHON="${EFB_PYTHON:-python3}"
