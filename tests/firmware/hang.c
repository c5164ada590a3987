/*
 * Test firmware that never finishes, for the scripts' timeout.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

int main(void)
{
    printf("hanging\n");
    for (;;) {
        __asm__ volatile("");
    }
}
