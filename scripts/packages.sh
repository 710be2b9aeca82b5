# packages.sh -- sourced by the cross-test scripts (test-neon.sh, test-windows.sh).
# cn_ensure_packages LABEL PACKAGE...: installs the Debian packages among PACKAGE that are not
# installed (as root, with apt-get), or names them and exits 1. Without dpkg (not Debian) it does
# nothing: the caller's own checks of the tools it needs then say what is missing.
cn_ensure_packages() {
  local label=$1 p need=()
  shift
  command -v dpkg-query >/dev/null 2>&1 || return 0
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || need+=("$p")
  done
  [ ${#need[@]} -eq 0 ] && return 0
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "$label: missing packages: ${need[*]}" >&2
    echo "install them with: sudo apt-get install ${need[*]}" >&2
    exit 1
  fi
  echo "$label: installing ${need[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  apt-get -o DPkg::Lock::Timeout=300 update -qq
  apt-get -o DPkg::Lock::Timeout=300 install -y -qq --no-install-recommends "${need[@]}" >/dev/null
}
