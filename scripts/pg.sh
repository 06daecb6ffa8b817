# Sourced by the test scripts: a throwaway PostgreSQL cluster on loopback.
#   pg_start   installs Debian's postgresql when missing, runs initdb in a temporary directory
#              as an unprivileged user, starts the server on 127.0.0.1 on a free port and
#              exports ARBITER_TEST_PG=postgres://arbiter@127.0.0.1:PORT/arbiter
#   pg_stop    stops it and removes the directory (also run from an EXIT trap)
# The caller defines `log`.

pg_bin() {
  local d
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && { echo "$d"; return 0; }
  done
  return 1
}

pg_free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# Runs a command as the cluster's owner: the `postgres` user when we are root (initdb and
# postgres refuse to run as root), else ourselves.
pg_as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

pg_start() {
  if ! pg_bin >/dev/null; then
    # shellcheck source=scripts/apt.sh
    source "$(dirname "${BASH_SOURCE[0]}")/apt.sh"
    apt_install postgresql
  fi
  local bin port
  bin=$(pg_bin) || { echo "PostgreSQL could not be installed" >&2; return 1; }
  port=$(pg_free_port)
  # Not in /tmp: nothing that cleans or binds /tmp (a bot's scratch, a tmp cleaner) can reach
  # the cluster's files (PostgreSQL shuts down when its data directory's lock file goes away);
  # not in the checkout either, which the postgres user may not be able to enter.
  PG_DIR=$(mktemp -d /var/tmp/arbiter-pg.XXXXXX)
  chmod 755 "$PG_DIR"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$PG_DIR"
  pg_as_owner "$bin/initdb" -D "$PG_DIR/data" -U arbiter --auth=trust -E UTF8 --no-locale >"$PG_DIR/initdb.log" 2>&1 \
    || { cat "$PG_DIR/initdb.log" >&2; return 1; }
  pg_as_owner "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 30 \
    -o "-h 127.0.0.1 -p $port -k $PG_DIR -c max_connections=300 -c fsync=off" start >/dev/null \
    || { cat "$PG_DIR/server.log" >&2; return 1; }
  pg_as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U arbiter arbiter
  PG_BIN=$bin
  PG_PORT=$port
  export ARBITER_TEST_PG="postgres://arbiter@127.0.0.1:$port/arbiter"
  log "PostgreSQL $("$bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$port ($PG_DIR)"
}

# What the cluster said, and whether it still answers: for a failed run's log.
pg_report() {
  [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ] || return 0
  echo "--- PostgreSQL: $("$PG_BIN/pg_isready" -h 127.0.0.1 -p "$PG_PORT" 2>&1); last lines of its log:" >&2
  tail -n 40 "$PG_DIR/server.log" >&2 || true
}

pg_stop() {
  if [ -n "${PG_DIR:-}" ] && [ -d "$PG_DIR/data" ]; then
    pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -w -m fast stop >/dev/null 2>&1 || true
    rm -rf "$PG_DIR"
  fi
  PG_DIR=
}
