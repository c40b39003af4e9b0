# Shared by bin/serve and bin/test; sourced from the repository root.

# ensure_system_packages PKG...: install the Debian packages that are missing (as root).
ensure_system_packages() {
    local missing=() pkg
    for pkg in "$@"; do
        dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg")
    done
    ((${#missing[@]})) || return 0
    if [[ "$(id -u)" != 0 ]]; then
        echo "Missing system packages; install them as root: ${missing[*]}" >&2
        return 1
    fi
    echo "Installing system packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

# ensure_venv EXTRA: make .venv and `pip install -e .[EXTRA]`, only when pyproject.toml
# changed since the last install of that extra (or of dev, which includes everything).
ensure_venv() {
    local extra="$1" spec="." want
    if [[ -n "$extra" ]]; then spec=".[$extra]"; fi
    [[ -x .venv/bin/python ]] || python3 -m venv .venv
    want="$(sha256sum pyproject.toml | cut -d' ' -f1)"
    if [[ "$(cat ".venv/.installed-${extra:-base}" 2>/dev/null)" == "$want" ||
          "$(cat .venv/.installed-dev 2>/dev/null)" == "$want" ]]; then
        return 0
    fi
    echo "Installing Python packages into .venv ($spec)"
    .venv/bin/python -m pip install --quiet --disable-pip-version-check -e "$spec"
    echo "$want" >".venv/.installed-${extra:-base}"
}
