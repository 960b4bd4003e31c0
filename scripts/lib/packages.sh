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
