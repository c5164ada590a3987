#!/bin/sh
# SPDX-License-Identifier: MIT
# Install the Debian packages this project needs, once.  Idempotent: a
# machine that already has everything is checked in well under a second.
#
# Adds two apt sources the first time: bookworm-backports (meson >= 1.5,
# which QEMU 10.0 needs) and a deb-src entry for trixie (Debian's QEMU 10.0
# source package).  Nothing else is downloaded from anywhere.
set -eu

PACKAGES="
    ca-certificates dpkg-dev xz-utils patch perl
    python3 python3-venv ninja-build pkg-config gcc libc6-dev make
    libglib2.0-dev libfdt-dev zlib1g-dev flex bison
    gcc-arm-none-eabi binutils-arm-none-eabi picolibc-arm-none-eabi
    gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
    device-tree-compiler clang libclang-rt-14-dev
"
SOURCES=/etc/apt/sources.list.d/perf-counter.sources

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

need=$(missing)
[ -n "$need" ] || exit 0

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

if [ ! -f "$SOURCES" ]; then
    say "adding apt sources: bookworm-backports, trixie (deb-src only)"
    $SUDO sh -c "cat > $SOURCES" <<'SRC'
# Added by perf-counter's scripts/lib/host-packages.sh.
Types: deb
URIs: http://deb.debian.org/debian
Suites: bookworm-backports
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian
Suites: trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
fi

say "installing: $need"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
# shellcheck disable=SC2086
$SUDO apt-get install -y -q --no-install-recommends $PACKAGES
$SUDO apt-get install -y -q --no-install-recommends -t bookworm-backports meson

need=$(missing)
if [ -n "$need" ]; then
    say "still missing after apt-get: $need"
    exit 1
fi
say "host packages ready"
