#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages this project needs, once.  Idempotent: a
# machine that already has everything is checked in well under a second.
#
# Adds two apt sources the first time: bookworm-backports (meson >= 1.5,
# which QEMU 10.0 needs) and a deb-src entry for trixie (Debian's QEMU 10.0
# source package), on the mirror and with the keyring that the machine's
# own apt configuration uses for bookworm (a local mirror or proxy stays
# in use).  Nothing else is downloaded from anywhere.
set -eu

case $0 in */*) lib=${0%/*} ;; *) lib=. ;; esac
. "$lib/host-packages-list.sh"
SOURCES=/etc/apt/sources.list.d/perf-counter.sources
RELEASE=bookworm
KEYRING=/usr/share/keyrings/debian-archive-keyring.gpg

say() { printf 'setup: %s\n' "$*" >&2; }

missing() {
    # One dpkg-query for all: this runs before every command
    # shellcheck disable=SC2086
    dpkg-query -W -f='${Package} ${db:Status-Status}\n' $PACKAGES 2>/dev/null |
        awk '$2 == "installed" { ok[$1] = 1 }
             END { n = split(want, p, " ")
                   for (i = 1; i <= n; i++) if (!(p[i] in ok)) printf "%s ", p[i] }' \
            want="$(echo $PACKAGES)"
    # meson must come from bookworm-backports: bookworm's 1.0 is too old.
    if ! meson_ok; then printf 'meson '; fi
}

meson_ok() {
    v=$(dpkg-query -W -f='${Version}' meson 2>/dev/null) || return 1
    major=${v%%.*}; rest=${v#*.}; minor=${rest%%.*}
    [ "$major" -gt 1 ] 2>/dev/null ||
        { [ "$major" -eq 1 ] && [ "$minor" -ge 5 ]; } 2>/dev/null
}

# Every command runs this first (scripts/profile makes the same check
# before, without starting this): while dpkg's database is older than
# the last check that found everything, that check stands (dpkg-query
# took 17 ms of each command)
host_packages_ready && exit 0
ready() {
    mkdir -p "$LOG_DIR" && echo "$host_packages_wanted" > "$STAMP" || :
}

need=$(missing)
[ -n "$need" ] || { ready; exit 0; }

if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        SUDO=sudo
    else
        say "missing packages: $need"
        say "run this script as root (or install sudo) to install them"
        exit 1
    fi
else
    SUDO=
fi

# "URI KEYRING" of the machine's apt entry for $RELEASE itself, from
# one-line (sources.list, *.list) or deb822 (*.sources) files
debian_mirror() {
    for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
        [ -f "$f" ] || continue
        awk -v rel="$RELEASE" '
            $1 == "deb" {
                keyring = ""; i = 2
                if ($2 ~ /^\[/) {
                    for (; i <= NF; i++) {
                        if ($i ~ /signed-by=/) {
                            keyring = $i; sub(/.*signed-by=/, "", keyring)
                            sub(/\]$/, "", keyring)
                        }
                        if ($i ~ /\]$/) break
                    }
                    i++
                }
                if ($(i + 1) == rel) { print $i, keyring; exit }
            }' "$f"
    done
    for f in /etc/apt/sources.list.d/*.sources; do
        [ -f "$f" ] && [ "$f" != "$SOURCES" ] || continue
        awk -v rel="$RELEASE" '
            function flush() {
                if (types ~ /(^| )deb( |$)/ && (" " suites " ") ~ (" " rel " "))
                    { print uri, keyring; found = 1; exit }
                types = suites = uri = keyring = ""
            }
            /^[ \t]*$/ { flush(); next }
            /^Types:/ { sub(/^Types:[ \t]*/, ""); types = $0 }
            /^Suites:/ { sub(/^Suites:[ \t]*/, ""); suites = $0 }
            /^URIs:/ { uri = $2 }
            /^Signed-By:/ { keyring = $2 }
            END { if (!found) flush() }' "$f"
    done
}

if [ ! -f "$SOURCES" ]; then
    set -- $(debian_mirror | head -n 1)
    if [ -z "${1:-}" ]; then
        say "no apt entry for Debian $RELEASE found in /etc/apt: add your"
        say "Debian mirror there, then run this again"
        exit 1
    fi
    mirror=$1 keyring=${2:-$KEYRING}
    say "adding apt sources on your Debian mirror $mirror:"
    say "  $RELEASE-backports (meson), trixie deb-src (QEMU's source)"
    $SUDO sh -c "cat > $SOURCES" <<SRC
# Added by perf-counter's scripts/lib/host-packages.sh, on the mirror of
# this machine's own $RELEASE entry.
Types: deb
URIs: $mirror
Suites: $RELEASE-backports
Components: main
Signed-By: $keyring

Types: deb-src
URIs: $mirror
Suites: trixie
Components: main
Signed-By: $keyring
SRC
fi

# One line per step; apt's and dpkg's own output in a log, shown (its
# end, and where the rest is) only if a step fails
LOG=$LOG_DIR/host-packages.log
mkdir -p "$LOG_DIR"
: > "$LOG"
step() {
    what=$1
    shift
    say "$what"
    if ! "$@" >> "$LOG" 2>&1; then
        tail -n 20 "$LOG" | sed 's/^/    /' >&2
        say "failed: $what; the whole log: $LOG"
        exit 1
    fi
}

say "missing: $need"
export DEBIAN_FRONTEND=noninteractive
step "apt-get update" $SUDO apt-get update -q
# shellcheck disable=SC2086
step "installing $(echo $need | wc -w) packages with what they need (a few minutes)" \
    $SUDO apt-get install -y -q --no-install-recommends $PACKAGES
step "installing meson from $RELEASE-backports" \
    $SUDO apt-get install -y -q --no-install-recommends -t bookworm-backports meson

need=$(missing)
if [ -n "$need" ]; then
    say "still missing after apt-get: $need"
    exit 1
fi
ready
say "host packages ready"
