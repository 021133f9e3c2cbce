#!/usr/bin/env bash
# Installs what zkwire's tests run against: Java, the ZooKeeper 3.8 server jars and Apache Curator (recipes for the
# lock interop tests, curator-x-discovery for the service-discovery ones), tcpdump and tshark (the packet-capture
# tests record real traffic), chromium (the HTML report is checked in a headless browser) and tmux (`zkwire shell`
# is tested in a real terminal: keys in, screen read back). Idempotent: does nothing when everything is already
# there. Starts no server; tests start their own.
#
# Debian/Ubuntu only, as root:  sudo bash scripts/setup.sh
#
# The other ZooKeeper releases the suite runs against (3.9.3 from Debian 13, 3.4.13 from Debian 11) are fetched by
# scripts/zookeeper-versions.sh into .zookeeper/<version>/ in the repository, never installed system-wide; this script
# runs it last, on both paths (its own check makes it instant when they are there).
#
# Packages: libzookeeper-java holds the server and its jars (/usr/share/java/zookeeper.jar); the `zookeeper` package
# adds only init scripts and a system user on top, and depends on the full desktop JRE, so it is not needed here.
set -euo pipefail

ZOOKEEPER_JAR=/usr/share/java/zookeeper.jar
CURATOR_JAR=/usr/share/java/curator-recipes.jar
DISCOVERY_JAR=/usr/share/java/curator-x-discovery.jar
PACKAGES=(libzookeeper-java libcurator-recipes-java libcurator-discovery-java default-jre-headless openssl tcpdump tshark chromium tmux krb5-kdc krb5-admin-server krb5-user)

# 3.9.3 and 3.4.13, unpacked beside the repository (see the header); fails with its own message when it cannot.
fetch_other_versions() {
  bash "$(dirname "${BASH_SOURCE[0]}")/zookeeper-versions.sh"
}

find_java() {
  if [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]]; then echo "$JAVA_HOME/bin/java"; return 0; fi
  if command -v java >/dev/null 2>&1; then command -v java; return 0; fi
  if [[ -x /usr/bin/java ]]; then echo /usr/bin/java; return 0; fi
  return 1
}

all_present() {
  find_java >/dev/null && [[ -f "$ZOOKEEPER_JAR" && -f "$CURATOR_JAR" && -f "$DISCOVERY_JAR" ]] && command -v openssl >/dev/null 2>&1 &&
    command -v tcpdump >/dev/null 2>&1 && command -v tshark >/dev/null 2>&1 && command -v chromium >/dev/null 2>&1 && command -v tmux >/dev/null 2>&1 &&
    [[ -x /usr/sbin/krb5kdc && -x /usr/sbin/kadmin.local ]]
}

report() {
  echo "setup: java: $(find_java) ($("$(find_java)" -version 2>&1 | head -n 1))"
  echo "setup: ZooKeeper: $ZOOKEEPER_JAR"
  echo "setup: Curator: $CURATOR_JAR, $DISCOVERY_JAR"
  echo "setup: tcpdump: $(command -v tcpdump), tshark: $(command -v tshark), chromium: $(command -v chromium), tmux: $(command -v tmux)"
}

if all_present; then
  echo "setup: Java, ZooKeeper, Curator (recipes, discovery), tcpdump, tshark, chromium and tmux are already installed; nothing to do."
  report
  fetch_other_versions
  exit 0
fi

missing=()
find_java >/dev/null || missing+=("java")
[[ -f "$ZOOKEEPER_JAR" ]] || missing+=("$ZOOKEEPER_JAR")
[[ -f "$CURATOR_JAR" ]] || missing+=("$CURATOR_JAR")
[[ -f "$DISCOVERY_JAR" ]] || missing+=("$DISCOVERY_JAR (curator-x-discovery interop tests)")
command -v openssl >/dev/null 2>&1 || missing+=("openssl (TLS test certificates)")
command -v tcpdump >/dev/null 2>&1 || missing+=("tcpdump (packet-capture tests)")
command -v tshark >/dev/null 2>&1 || missing+=("tshark (pcapng conversion in the capture tests)")
command -v chromium >/dev/null 2>&1 || missing+=("chromium (HTML report test)")
command -v tmux >/dev/null 2>&1 || missing+=("tmux (shell tests in a real terminal)")
[[ -x /usr/sbin/krb5kdc && -x /usr/sbin/kadmin.local ]] || missing+=("MIT Kerberos krb5kdc, kadmin.local (Kerberos tests, TestingKdc)")
echo "setup: missing: ${missing[*]}"

if ! command -v apt-get >/dev/null 2>&1; then
  cat >&2 <<EOF
setup: this script installs packages with apt-get (Debian/Ubuntu), which is not available here.
Install these yourself, then run the tests again:
  - Java 11 or newer (java on PATH, or JAVA_HOME)
  - Apache ZooKeeper 3.8.x: unpack the binary release and export ZOOKEEPER_HOME=/path/to/it
    (the tests start servers from \$ZOOKEEPER_HOME/lib/*.jar)
  - or point the integration tests at a running server: export ZK_CONNECT=host:port
EOF
  exit 1
fi

if [[ "$(id -u)" -ne 0 ]]; then
  # CI runners (e.g. GitHub Actions) are not root but have password-less sudo.
  if command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
    echo "setup: not root; continuing with sudo"
    exec sudo -n bash "$0" "$@"
  fi
  echo "setup: installing packages needs root. Run:  sudo bash scripts/setup.sh" >&2
  echo "setup: (or yourself:  sudo apt-get install --no-install-recommends ${PACKAGES[*]})" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
# wireshark-common (pulled in by tshark) asks whether non-root users may capture; answer "no" up front.
echo "wireshark-common wireshark-common/install-setuid boolean false" | debconf-set-selections
echo "setup: apt-get update"
apt-get update -q
echo "setup: apt-get install ${PACKAGES[*]}"
apt-get install -y -q --no-install-recommends "${PACKAGES[@]}"

if ! all_present; then
  echo "setup: packages installed, but Java, $ZOOKEEPER_JAR, $CURATOR_JAR, $DISCOVERY_JAR, tcpdump, tshark, chromium or tmux is still missing." >&2
  exit 1
fi
report
fetch_other_versions
