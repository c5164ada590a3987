/*
 * Calls zcmp.S's function (tests/boot/test_cpu.py).
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

int zcmp_fn(int x);

int main(void)
{
    printf("zcmp %d\n", zcmp_fn(41));
    return 0;
}
