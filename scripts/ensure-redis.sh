#!/usr/bin/env bash
# Part of npm test: the shared-state tests (tests/topology, tests/http/shared-limits.test.ts) start
# their own Debian redis-server on a loopback port. Installs it when missing and this user may
# (root, or passwordless sudo); otherwise says what to install and fails, so the tests never
# silently skip.
set -euo pipefail
case "${1-}" in
  -h|--help) echo "usage: bash scripts/ensure-redis.sh"; echo; echo "Installs Debian's redis-server for the shared-state tests when missing (as root or with passwordless sudo); otherwise says what to install and fails."; exit 0 ;;
  "") ;;
  *) echo "ensure-redis: unknown argument $1; see bash scripts/ensure-redis.sh --help" >&2; exit 2 ;;
esac
PACKAGES="redis-server"
if [ -x /usr/bin/redis-server ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
  echo "ensure-redis: the shared-state tests need Debian's redis-server: run  sudo apt-get install -y $PACKAGES" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "ensure-redis: no apt-get here: install redis-server (Redis 7 or Valkey)" >&2
  exit 1
fi
echo "ensure-redis: installing $PACKAGES (apt-get)"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -q $PACKAGES >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q $PACKAGES >/dev/null; }
# the package starts a system Redis on port 6379; the tests run their own on other ports
$SUDO systemctl disable --now redis-server >/dev/null 2>&1 || $SUDO service redis-server stop >/dev/null 2>&1 || true
echo "ensure-redis: $(/usr/bin/redis-server --version)"
