#!/usr/bin/env bash
# Part of npm test: the CDN-tier tests (tests/cdn) drive Debian's nginx with the brotli_static
# module. Installs them when missing and this user may (root, or passwordless sudo); otherwise
# says what to install and fails, so the tests never silently skip.
set -euo pipefail
case "${1-}" in
  -h|--help) echo "usage: bash scripts/ensure-nginx.sh"; echo; echo "Installs Debian's nginx with the brotli_static module for the CDN tests when missing (as root or with passwordless sudo); otherwise says what to install and fails."; exit 0 ;;
  "") ;;
  *) echo "ensure-nginx: unknown argument $1; see bash scripts/ensure-nginx.sh --help" >&2; exit 2 ;;
esac
PACKAGES="nginx-light libnginx-mod-http-brotli-static"
if [ -x /usr/sbin/nginx ] && [ -e /usr/lib/nginx/modules/ngx_http_brotli_static_module.so ]; then
  exit 0
fi
if [ "$(id -u)" = 0 ]; then SUDO=""; elif sudo -n true 2>/dev/null; then SUDO="sudo -n"; else
  echo "ensure-nginx: the CDN tests need Debian's nginx: run  sudo apt-get install -y $PACKAGES" >&2
  exit 1
fi
if ! command -v apt-get >/dev/null; then
  echo "ensure-nginx: no apt-get here: install nginx with the brotli_static module ($PACKAGES on Debian)" >&2
  exit 1
fi
echo "ensure-nginx: installing $PACKAGES (apt-get)"
HAD_NGINX=no
[ -x /usr/sbin/nginx ] && HAD_NGINX=yes
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get install -y -q $PACKAGES >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q $PACKAGES >/dev/null; }
# a newly installed package starts a system nginx on port 80; the tests run their own. An nginx
# that was here before is left as it was.
if [ "$HAD_NGINX" = no ]; then
  $SUDO systemctl disable --now nginx >/dev/null 2>&1 || $SUDO service nginx stop >/dev/null 2>&1 || true
fi
echo "ensure-nginx: $(/usr/sbin/nginx -v 2>&1)"
