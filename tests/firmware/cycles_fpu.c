/*
 * Floating-point sequences of known cycle counts (arm/cycles_fpu.S),
 * each run once, for the timing models' tests
 * (tests/boot/test_cycles_fpu.py).  The FPU is off at reset: CP10 and
 * CP11 get full access first.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdint.h>
#include <stdio.h>

#define CPACR (*(volatile uint32_t *)0xe000ed88)

void cycles_fpu_run(void);

int main(void)
{
    CPACR |= 0xfu << 20;
    __asm__ volatile("dsb\n\tisb" ::: "memory");
    cycles_fpu_run();
    printf("cycles_fpu_run done\n");
    return 0;
}
