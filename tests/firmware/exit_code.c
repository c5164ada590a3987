/*
 * Test firmware whose exit code the scripts must pass on.
 *
 * SPDX-License-Identifier: MIT
 */
#include <stdio.h>

int main(void)
{
    printf("exiting with 7\n");
    return 7;
}
