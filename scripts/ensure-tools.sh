#!/usr/bin/env bash
# Tools the suite uses beyond Python packages, from Debian's packages:
# - docker-compose validates docker-compose.yml without a Docker engine;
# - chromium (with chromium-driver) is the real browser of the web page tests (tests/web), driven by
#   Playwright with executable_path=/usr/bin/chromium — no browser is ever downloaded (no `playwright
#   install`); fonts-noto-color-emoji lets its screenshots show the croupier's emoji.
# Installed when missing and we are root (CI and the dev machines are); otherwise the tests that need
# them say what is missing (and fail under CI).
set -u
missing=()
command -v docker-compose >/dev/null 2>&1 || missing+=(docker-compose)
if [ ! -x /usr/bin/chromium ]; then
  missing+=(chromium chromium-driver)
fi
if [ ! -d /usr/share/fonts/truetype/noto ] || ! ls /usr/share/fonts/truetype/noto 2>/dev/null | grep -qi emoji; then
  missing+=(fonts-noto-color-emoji)
fi
if [ "${#missing[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "installing ${missing[*]} (Debian packages the suite uses)"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null) \
      || echo "could not install ${missing[*]}; the tests that need them will report it"
  else
    echo "missing ${missing[*]}: install them (apt-get install ${missing[*]}) for the deploy and browser tests"
  fi
fi
exit 0
