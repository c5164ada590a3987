/*
 * Benchmark firmware: compute-bound, never touches the counter, so that
 * QEMU's speed with the device attached (idle) and without can be
 * compared.  About 200 million instructions.
 *
 * SPDX-License-Identifier: MIT
 */
#include "test_support.h"

int main(void)
{
    scenario_spin(100000000);
    return 0;
}
