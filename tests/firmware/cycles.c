/*
 * Instruction sequences of known cycle counts (ARCH/cycles.S), each run
 * once, for the timing models' tests (tests/boot/test_cycles.py).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

void cycles_run(void);

int main(void)
{
    cycles_run();
    printf("cycles_run done\n");
    return 0;
}
