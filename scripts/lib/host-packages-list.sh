# SPDX-License-Identifier: MIT
# The Debian packages this project needs (host-packages.sh installs
# them), and whether the last check that found them all still stands:
# sourced by host-packages.sh and by scripts/profile, which checks with
# the shell's builtins only (starting host-packages.sh took 7 ms of
# every run).
PACKAGES="
    ca-certificates dpkg-dev xz-utils patch perl
    python3 python3-venv python3-pip python3-setuptools python3-wheel
    ninja-build pkg-config gcc libc6-dev make
    libglib2.0-dev libfdt-dev zlib1g-dev flex bison
    gcc-arm-none-eabi binutils-arm-none-eabi picolibc-arm-none-eabi
    gcc-aarch64-linux-gnu binutils-aarch64-linux-gnu picolibc-aarch64-linux-gnu
    gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf
    device-tree-compiler clang libclang-rt-14-dev cmake
    python3-jsonschema libxml2-utils python3-pytest python3-pytest-xdist
    python3-pyelftools python3-junitparser lcov gcovr ccache
    chromium chromium-driver python3-selenium
"
LOG_DIR=${PERF_COUNTER_CACHE:-$HOME/.cache/perf-counter}
STAMP=$LOG_DIR/host-packages.ok

# True while the stamp names these packages (host_packages_wanted: on
# one line) and is newer than dpkg's database
host_packages_ready() {
    # (its own arguments: the caller's are left as they are)
    # shellcheck disable=SC2086
    set -- $PACKAGES
    host_packages_wanted="$*"
    [ -f "$STAMP" ] && [ "$STAMP" -nt /var/lib/dpkg/status ] &&
        read -r checked < "$STAMP" && [ "$checked" = "$host_packages_wanted" ]
}
