#!/usr/bin/env bash
# Best effort: the suite runs its store tests on PostgreSQL whenever one is reachable.
# When the server is installed here but stopped, start it; then create the `test` database.
set -u
host=${PGHOST:-127.0.0.1}
port=${PGPORT:-5432}
reachable() { (exec 3<>"/dev/tcp/$host/$port") 2>/dev/null; }
if ! reachable && command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  echo "starting PostgreSQL $version"
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  for _ in $(seq 1 30); do reachable && break; sleep 0.5; done
fi
if reachable && command -v psql >/dev/null 2>&1; then
  if ! psql -h "$host" -p "$port" -U postgres -tAc "select 1 from pg_database where datname='test'" | grep -q 1; then
    psql -h "$host" -p "$port" -U postgres -c 'create database test' >/dev/null && echo "created database test"
  fi
  echo "PostgreSQL reachable on $host:$port: store tests run on it too"
else
  echo "PostgreSQL not reachable on $host:$port: store tests run on SQLite only"
fi
exit 0
