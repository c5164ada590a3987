# The boards perf-counter attaches to, and nothing else (minimal build)
CONFIG_RISCV_VIRT=y
CONFIG_PERF_COUNTER=y
CONFIG_SIFIVE_E=y
