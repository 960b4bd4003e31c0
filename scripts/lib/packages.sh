# Installs the Debian packages that are missing, and nothing else. Sourced by scripts/run and scripts/test.
ensure_debian_packages() {
    local missing=()
    for package in "$@"; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing ${missing[*]}" >&2
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

require_swift() {
    command -v swift >/dev/null || {
        echo "swift is not on PATH: install the Swift 6 toolchain (swift.org) first." >&2
        exit 1
    }
}

# Installs the pip packages that python3 cannot find, quietly; nothing when all are there.
ensure_pip_packages() {
    command -v python3 >/dev/null || ensure_debian_packages python3
    python3 -m pip --version >/dev/null 2>&1 || ensure_debian_packages python3-pip
    local missing
    missing=($(python3 -c '
import sys
from importlib.metadata import PackageNotFoundError, distribution
for name in sys.argv[1:]:
    try:
        distribution(name)
    except PackageNotFoundError:
        print(name)
' "$@"))
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing (pip) ${missing[*]}" >&2
    local pip=(python3 -m pip install -q --disable-pip-version-check)
    # Debian's own python3 refuses system-wide installs (PEP 668) unless told.
    "${pip[@]}" "${missing[@]}" 2>/dev/null || "${pip[@]}" --break-system-packages "${missing[@]}"
}
