/*
 * Call counting for code built with -pg (GCC's instrumentation): the
 * compiler's hook (__gnu_mcount_nc on Arm, _mcount on RISC-V) records
 * every call as an arc (call site, callee) in a bounded table, and at
 * exit the arcs are written to gmon.out on the host through semihosting,
 * where scripts/profile --gprof adds the pc histogram it recorded
 * host-side.  Nothing to call: building with -pg and linking the
 * library is enough.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef PERFCTR_GPROF_H
#define PERFCTR_GPROF_H

#include <stdint.h>

/*
 * Arcs the table holds: different (call site, callee) pairs, 12 bytes
 * each (a board with little RAM sets fewer in its cross file)
 */
#ifndef PERFCTR_GPROF_ARCS
#define PERFCTR_GPROF_ARCS 4096
#endif
/* The file written at exit, relative to QEMU's working directory */
#define PERFCTR_GPROF_FILE "gmon.out"

/* Count one call from the call site from_pc to the callee at self_pc */
void perfctr_gprof_arc(uintptr_t from_pc, uintptr_t self_pc);

/* Write gmon.out now (at exit, it is written anyway) */
int perfctr_gprof_write(void);

#endif
