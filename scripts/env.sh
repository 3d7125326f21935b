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

# SwiftPM, with Swift's hashing seeded the same in every run. SwiftPM writes a package's enabled traits
# into every compile command (-DBrlAPI -DLouis ...) in the order of a Swift Set, which follows the
# process's random hash seed; when it plans a build again (it does on the second build in a new scratch
# folder) the new order changes every module's command line, and every module compiles again: 45 s for
# the fuzzers' second product in CI, 35 s for the package's second link. Only SwiftPM gets the fixed
# seed: the game and the tests keep Swift's random one, so a dictionary's order leaking into output
# still shows.
#
# EFB_BUILD_NICE (default 0) is the niceness SwiftPM runs at: scripts/test's builds lane sets it, so
# its compiles take what the tests beside them leave.
swiftpm() { SWIFT_DETERMINISTIC_HASHING=1 nice -n "${EFB_BUILD_NICE:-0}" swift "$@"; }
