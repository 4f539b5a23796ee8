# Sourced by quickstart.sh and setup-test.sh: installs what the project needs from outside npm —
# bun itself (through npm, which ships its binary) and Debian packages — only when missing.

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else return 1
  fi
}

ensure_bun() {
  if ! command -v bun >/dev/null 2>&1; then
    echo "==> 安装 bun：npm i -g bun"
    if [ -w "$(npm prefix -g)" ]; then npm i -g bun; else as_root npm i -g bun; fi
    export PATH="$(npm prefix -g)/bin:$PATH"
  fi
  if ! bun --version >/dev/null 2>&1; then
    # npm can skip install scripts; the package's own installer puts the real binary in place.
    echo "==> bun 的安装脚本未运行，补运行 install.js"
    (cd "$(npm root -g)/bun" && as_root node install.js)
  fi
  if ! bun --version >/dev/null 2>&1; then
    echo "错误：bun 安装失败，请手动运行 npm i -g bun 后重试" >&2
    exit 1
  fi
  echo "==> bun $(bun --version)"
}

# ensure_apt PKG...: installs the Debian packages not yet installed (one apt-get update first).
ensure_apt() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ ${#missing[@]} -eq 0 ]; then
    echo "==> 系统软件包已就绪：$*"
    return 0
  fi
  echo "==> 安装系统软件包：${missing[*]}"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q &&
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}
