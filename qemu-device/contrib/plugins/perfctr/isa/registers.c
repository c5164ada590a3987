/*
 * perfctr plugin: a register of the vCPU a callback runs on
 * (registers.h).  The gdbstub's copy (a byte array grown, GDB's
 * register list walked) costs more than the rest of a probe's or an
 * interrupt mask's callback: a general register comes from QEMU's
 * hook, which reads the CPU's state itself.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "isa/registers.h"
#include "perfctr-hook.h"

#pragma weak perfctr_hook_register

uint64_t registers_read(struct qemu_plugin_register *handle, int general,
                        GByteArray *buf)
{
    uint64_t value = 0;
    int n;

    if (!handle) {
        return 0;
    }
    if (general >= 0 && perfctr_hook_register) {
        return perfctr_hook_register(general);
    }
    g_byte_array_set_size(buf, 0);
    n = MIN(qemu_plugin_read_register(handle, buf), (int)sizeof(value));
    while (n-- > 0) {
        value = value << 8 | buf->data[n];      /* little-endian guests */
    }
    return value;
}
