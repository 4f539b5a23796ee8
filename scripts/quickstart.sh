#!/usr/bin/env bash
# Quick start: from a fresh clone to a running demo site on the embedded SQLite database.
# Installs bun (through npm) and the Debian packages for document conversion and Chinese fonts when
# missing, installs dependencies, seeds demo content and starts the server on PORT (default 8880).
# ADMIN_USERNAME / ADMIN_PASSWORD choose the first administrator; otherwise a password is generated.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/deps.sh

ensure_bun
ensure_apt poppler-utils mupdf-tools fonts-noto-cjk fonts-wqy-microhei \
  libreoffice-writer-nogui libreoffice-impress-nogui libreoffice-calc-nogui calibre ||
  echo "提示：系统软件包未能安装（需要 root 或 sudo）；网站可以运行，但文档转换不可用" >&2
bun install
seed_out="$(bun run seed)"
echo "$seed_out"
login="$(echo "$seed_out" | grep -E "用户名：|密  码：|随机生成|管理员账号已存在" || true)"

cat <<INFO

  魔豆文库已就绪
  网站地址：http://localhost:${PORT:-8880}/
  管理后台：http://localhost:${PORT:-8880}/admin
${login}

INFO
exec bun run start
