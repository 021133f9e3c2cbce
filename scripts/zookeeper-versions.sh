#!/usr/bin/env bash
# Fetches the ZooKeeper releases the suite runs against besides the system's 3.8 (scripts/setup.sh installs that
# one): 3.9.3 from Debian 13 (trixie) and 3.4.13 from Debian 11 (bullseye), each unpacked with `dpkg -x` into
# .zookeeper/<version>/ in this repository (git-ignored). Nothing is installed system-wide: apt-get reads a sources
# list of our own, kept under .zookeeper/apt/, whose archive is the one this machine's own Debian sources name, so
# no host name is written down here. Idempotent: a release already unpacked (its `.complete` marker) is not fetched
# again. Needs apt-get and dpkg (Debian/Ubuntu); it does not need root.
#
#   bash scripts/zookeeper-versions.sh            # both releases
#   bash scripts/zookeeper-versions.sh 3.9.3      # one
#
# The jars land in .zookeeper/<version>/usr/share/java (zookeeper.jar and its own zookeeper-jute.jar), which is what
# the kit's `zooKeeperHome` takes and what test/harness/zookeeper-versions.ts hands out.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEST_ROOT="${ZKWIRE_ZOOKEEPER_DIR:-$ROOT/.zookeeper}"
SYSTEM_JARS=/usr/share/java

# version -> suite, and the packages to unpack. 3.4.13's zookeeper.jar names its dependencies relative to itself
# (jline.jar log4j-1.2.jar xercesImpl.jar xmlParserAPIs.jar); those the system has are linked in, the others fetched
# from the same suite (see link_or_fetch_dependencies).
suite_for() {
  case "$1" in
    3.9.3) echo trixie ;;
    3.4.13) echo bullseye ;;
    *) echo "zookeeper-versions: unknown version $1 (known: 3.9.3, 3.4.13)" >&2; return 1 ;;
  esac
}
packages_for() {
  case "$1" in
    3.9.3) echo libzookeeper-java zookeeper ;;
    3.4.13) echo libzookeeper-java ;;
  esac
}
# 3.4.13's Depends, as jar -> package.
declare -A DEPENDENCY_PACKAGE=([jline.jar]=libjline-java [log4j-1.2.jar]=liblog4j1.2-java [slf4j-api.jar]=libslf4j-java [xercesImpl.jar]=libxerces2-java)

fail() {
  echo "zookeeper-versions: $*" >&2
  exit 1
}

# The URI of this machine's main Debian archive: the repository serving its own release ($VERSION_CODENAME), main.
archive_uri() {
  local codename
  codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
  [[ -n "$codename" ]] || fail "/etc/os-release names no VERSION_CODENAME; cannot tell which apt source is Debian's"
  apt-get indextargets 'Identifier: Packages' --format '$(REPO_URI) $(RELEASE) $(COMPONENT)' 2>/dev/null |
    awk -v c="$codename" '$2 == c && $3 == "main" { print $1; exit }'
}

# apt-get with our own sources list, lists and cache under $APT_DIR; the system's sources, pins and state are not read
# (an empty dpkg status, so the installed 3.8 does not outrank the older release we ask for).
APT_DIR="$DEST_ROOT/apt"
apt_private() {
  apt-get -q \
    -o Dir::Etc::SourceList="$APT_DIR/sources.list" -o Dir::Etc::SourceParts="$APT_DIR/empty" \
    -o Dir::Etc::Preferences="$APT_DIR/empty/none" -o Dir::Etc::PreferencesParts="$APT_DIR/empty" \
    -o Dir::State::Lists="$APT_DIR/lists" -o Dir::State::status="$APT_DIR/status" -o Dir::Cache="$APT_DIR/cache" \
    -o APT::Sandbox::User="$(id -un)" -o Debug::NoLocking=1 "$@"
}

# Points the private sources list at `suite` and reads its package lists (once per suite per run).
UPDATED_SUITE=""
use_suite() {
  local suite="$1" uri keyring=/usr/share/keyrings/debian-archive-keyring.gpg signed=""
  [[ "$UPDATED_SUITE" == "$suite" ]] && return 0
  uri="$(archive_uri)"
  [[ -n "$uri" ]] || fail "found no Debian 'main' source for this release in apt's configuration (apt-get indextargets)"
  [[ -f "$keyring" ]] && signed="[signed-by=$keyring] "
  mkdir -p "$APT_DIR/lists/partial" "$APT_DIR/cache/archives/partial" "$APT_DIR/empty"
  : >"$APT_DIR/status"
  echo "deb ${signed}${uri} ${suite} main" >"$APT_DIR/sources.list"
  echo "zookeeper-versions: apt-get update ($suite, private sources list)"
  apt_private update >/dev/null || fail "apt-get update for $suite failed (see above)"
  UPDATED_SUITE="$suite"
}

# Downloads `packages` from `suite` and unpacks them into `dest`.
fetch_into() {
  local suite="$1" dest="$2"
  shift 2
  local work deb
  use_suite "$suite"
  work="$(mktemp -d)"
  (cd "$work" && apt_private download "$@" >/dev/null) || { rm -rf "$work"; fail "apt-get download $* ($suite) failed"; }
  for deb in "$work"/*.deb; do dpkg -x "$deb" "$dest"; done
  rm -rf "$work"
}

link_or_fetch_dependencies() {
  local suite="$1" jars="$2" jar missing=()
  for jar in "${!DEPENDENCY_PACKAGE[@]}"; do
    if [[ -e "$jars/$jar" ]]; then continue; fi
    if [[ -f "$SYSTEM_JARS/$jar" ]]; then ln -sf "$SYSTEM_JARS/$jar" "$jars/$jar"; else missing+=("${DEPENDENCY_PACKAGE[$jar]}"); fi
  done
  if ((${#missing[@]} > 0)); then
    echo "zookeeper-versions: the system lacks ${missing[*]}; fetching them from $suite"
    fetch_into "$suite" "$(dirname "$(dirname "$(dirname "$jars")")")" "${missing[@]}"
  fi
}

ensure_version() {
  local version="$1" suite dest jars
  suite="$(suite_for "$version")"
  dest="$DEST_ROOT/$version"
  jars="$dest/usr/share/java"
  if [[ -f "$dest/.complete" && -f "$jars/zookeeper.jar" ]]; then
    echo "zookeeper-versions: ZooKeeper $version already in $jars"
    return 0
  fi
  command -v apt-get >/dev/null 2>&1 && command -v dpkg >/dev/null 2>&1 ||
    fail "fetching ZooKeeper $version needs apt-get and dpkg (Debian/Ubuntu); or unpack a release yourself and pass it as zooKeeperHome"
  rm -rf "$dest"
  mkdir -p "$dest"
  # shellcheck disable=SC2046 # word splitting of the package list is intended
  fetch_into "$suite" "$dest" $(packages_for "$version")
  [[ -f "$jars/zookeeper.jar" ]] || fail "the $suite packages held no $jars/zookeeper.jar"
  [[ "$version" == 3.4.* ]] && link_or_fetch_dependencies "$suite" "$jars"
  [[ -f "$jars/zookeeper-$version.jar" ]] || fail "the $suite packages hold no zookeeper-$version.jar (a newer Debian revision?)"
  touch "$dest/.complete"
  echo "zookeeper-versions: ZooKeeper $version unpacked into $jars"
}

versions=("$@")
((${#versions[@]} > 0)) || versions=(3.9.3 3.4.13)
for v in "${versions[@]}"; do ensure_version "$v"; done
