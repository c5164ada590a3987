/*
 * perfctr plugin: a register of the vCPU a callback runs on (one that
 * reads registers), for the modules that read them as the run goes
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#ifndef PERFCTR_REGISTERS_H
#define PERFCTR_REGISTERS_H

#include <glib.h>
#include <stdint.h>
#include <qemu-plugin.h>

/*
 * The register QEMU's plugin API names handle (0 without one), with
 * buf as the gdbstub's scratch; general, its number as a general
 * register (Arm's r0 to r14 or x0 to x30, RISC-V's x0 to x31) or -1,
 * is read by QEMU's hook without the gdbstub's copying
 */
uint64_t registers_read(struct qemu_plugin_register *handle, int general,
                        GByteArray *buf);

#endif
