#!/usr/bin/env bash
# Prints one hash of Package.swift and every file under Sources: the stamp by which
# release-build.sh and test.sh tell that a source changed since their last build.
set -euo pipefail
cd "$(dirname "$0")/.."
find Package.swift Sources -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -d' ' -f1
