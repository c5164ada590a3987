# The boards perf-counter attaches to, and nothing else (minimal build)
CONFIG_MPS2=y
CONFIG_ARM_VIRT=y
CONFIG_PERF_COUNTER=y
CONFIG_RASPI=y
CONFIG_STELLARIS=y
CONFIG_MICROBIT=y
