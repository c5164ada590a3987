# The boards perf-counter attaches to, and nothing else (minimal build):
# the AArch64 virt board (the 32-bit boards run in qemu-system-arm)
CONFIG_ARM_VIRT=y
CONFIG_PERF_COUNTER=y
