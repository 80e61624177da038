#!/usr/bin/env bash
# Tools the suite uses beyond Python packages, from Debian's packages:
# - docker-compose validates docker-compose.yml without a Docker engine;
# - chromium (with chromium-driver) is the real browser of the web page tests (tests/web), driven by
#   Playwright with executable_path=/usr/bin/chromium — no browser is ever downloaded (no `playwright
#   install`); fonts-noto-color-emoji lets its screenshots show the croupier's emoji.
# Installed when missing and we are root (CI and the dev machines are); otherwise the tests that need
# them say what is missing (and fail under CI). Another apt or dpkg at work (an unattended upgrade,
# a colleague's install) is waited for, up to ten minutes, rather than taken for a failure. An
# install that fails anyway stops `make test` under CI (CI set), and is only reported elsewhere.
set -u
LOCK_WAIT=600 # seconds to wait for another apt/dpkg to let go of its lock
missing=()
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
if [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium chromium-driver)
fi
if [ ! -d /usr/share/fonts/truetype/noto ] || ! ls /usr/share/fonts/truetype/noto 2>/dev/null | grep -qi emoji; then
  missing+=(fonts-noto-color-emoji)
fi
[ "${#missing[@]}" -eq 0 ] && exit 0

under_ci() { [ -n "${CI:-}" ] && [ "${CI}" != 0 ] && [ "${CI}" != false ]; }

# `apt-get update` takes the package lists' lock without waiting (DPkg::Lock::Timeout covers dpkg's
# lock only), so it is tried again while another apt holds that lock.
update_lists() {
  local waited=0 output
  while :; do
    if output=$(LC_ALL=C apt-get -o "DPkg::Lock::Timeout=$LOCK_WAIT" update -qq 2>&1); then
      return 0
    fi
    if ! grep -q "Could not get lock" <<<"$output" || [ "$waited" -ge "$LOCK_WAIT" ]; then
      printf '%s\n' "$output" >&2
      return 1
    fi
    [ "$waited" -eq 0 ] && echo "another apt holds the package lists; waiting (at most ${LOCK_WAIT}s)"
    sleep 5
    waited=$((waited + 5))
  done
}

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "installing ${missing[*]} (Debian packages the suite uses)"
  if update_lists && DEBIAN_FRONTEND=noninteractive apt-get -o "DPkg::Lock::Timeout=$LOCK_WAIT" \
    install -y -qq "${missing[@]}" >/dev/null; then
    exit 0
  fi
  if under_ci; then
    echo "could not install ${missing[*]}: the deploy and browser tests cannot run (CI is set)" >&2
    exit 1
  fi
  echo "could not install ${missing[*]}; the tests that need them will report it"
else
  echo "missing ${missing[*]}: install them (apt-get install ${missing[*]}) for the deploy and browser tests"
fi
exit 0
