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

# start_test_postgres PORT: a throwaway PostgreSQL cluster on 127.0.0.1:PORT for the tests,
# stopped and deleted when the calling shell exits. Sets TEST_DATABASE_URL.
start_test_postgres() {
    local port="$1" pgbin dir as_pg=()
    pgbin="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
    if [[ -z "$pgbin" ]]; then
        echo "PostgreSQL server binaries not found (package postgresql)" >&2
        return 1
    fi
    dir="$(mktemp -d /tmp/scorekeeper-pg.XXXXXX)"
    if [[ "$(id -u)" == 0 ]]; then
        chown postgres:postgres "$dir"
        as_pg=(runuser -u postgres --)
    fi
    "${as_pg[@]}" "$pgbin/initdb" -D "$dir/data" -U test -A trust -E UTF8 --no-locale >/dev/null
    "${as_pg[@]}" "$pgbin/pg_ctl" -D "$dir/data" -l "$dir/log" -w -o \
        "-c listen_addresses=127.0.0.1 -p $port -k $dir -c fsync=off -c full_page_writes=off" \
        start >/dev/null
    # shellcheck disable=SC2064  # expand now: the trap must stop this very cluster
    trap "${as_pg[*]} $pgbin/pg_ctl -D $dir/data -m immediate stop >/dev/null 2>&1; rm -rf $dir" EXIT
    "$pgbin/psql" -h 127.0.0.1 -p "$port" -U test -d postgres -qc \
        'create database scorekeeper_test' >/dev/null
    export TEST_DATABASE_URL="postgresql+psycopg://test@127.0.0.1:$port/scorekeeper_test"
}
