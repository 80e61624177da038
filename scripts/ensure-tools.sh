#!/usr/bin/env bash
# Tools the suite uses beyond Python packages: Debian's docker-compose validates docker-compose.yml
# without a Docker engine. Installed when missing and we are root (CI and the dev machines are);
# otherwise the deploy test says what is missing (and fails under CI).
set -u
if ! command -v docker-compose >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing docker-compose (validates docker-compose.yml, no engine needed)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null) \
      || echo "could not install docker-compose; the deploy test will report it"
  fi
fi
exit 0
