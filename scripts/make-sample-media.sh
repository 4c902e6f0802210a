#!/usr/bin/env bash
# Regenerates public/media/sample-{480,240}.webm, the demo catalogue's playable media (see
# public/media/README.md). Not part of the build: the files are small and committed. Needs ffmpeg
# with libvpx and libopus; without one on PATH, it fetches a static build from npm into a temp dir.
set -euo pipefail
case "${1-}" in
  -h|--help) echo "usage: bash scripts/make-sample-media.sh"; echo; echo "Regenerates public/media/sample-{480,240}.webm with ffmpeg (fetched from npm into a temp dir when not on PATH)."; exit 0 ;;
  "") ;;
  *) echo "make-sample-media: unknown argument $1; see bash scripts/make-sample-media.sh --help" >&2; exit 2 ;;
esac
cd "$(dirname "$0")/.."
FFMPEG=$(command -v ffmpeg || true)
if [ -z "$FFMPEG" ]; then
  tmp=$(mktemp -d)
  (cd "$tmp" && npm init -y >/dev/null && npm install --silent @ffmpeg-installer/ffmpeg >/dev/null)
  FFMPEG=$(ls "$tmp"/node_modules/@ffmpeg-installer/linux-x64/ffmpeg)
fi
for spec in "480 854 110k" "240 426 45k"; do
  set -- $spec
  "$FFMPEG" -hide_banner -loglevel error -y \
    -f lavfi -i "testsrc2=size=$2x$1:rate=15:duration=8" \
    -f lavfi -i "sine=frequency=440:beep_factor=4:sample_rate=48000:duration=8" -af "volume=0.25" \
    -c:v libvpx -b:v "$3" -deadline good -cpu-used 2 -g 30 -auto-alt-ref 0 \
    -c:a libopus -b:a 20k -ac 1 "public/media/sample-$1.webm"
  echo "wrote public/media/sample-$1.webm ($(stat -c %s "public/media/sample-$1.webm") bytes)"
done
