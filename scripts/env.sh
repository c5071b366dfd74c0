# Sourced by the other scripts: puts the Swift toolchain on PATH.
if ! command -v swift >/dev/null 2>&1 && [ -x /opt/swift/usr/bin/swift ]; then
  export PATH="/opt/swift/usr/bin:$PATH"
fi
command -v swift >/dev/null 2>&1 || { echo "error: Swift 6 not found (expected on PATH or at /opt/swift)" >&2; exit 1; }
