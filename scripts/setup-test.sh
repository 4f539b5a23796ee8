#!/usr/bin/env bash
# The whole test suite from a fresh clone on Debian (as root or with sudo): bun through npm,
# Chromium, Chinese fonts and the PDF tools the tests use, dependencies from the lock file, the
# browser assets, then `bun run test`, whose last line is `N passed, N failed`.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh

ensure_bun
ensure_apt chromium fonts-noto-cjk fonts-wqy-microhei poppler-utils mupdf-tools \
  libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui calibre
bun install --frozen-lockfile
bun run build
exec bun run --silent test
