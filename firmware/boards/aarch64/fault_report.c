/*
 * Board support for bare-metal AArch64 (aarch64-virt): from
 * board_fault_report_install() on, a data abort (a load or store where
 * nothing answers, such as PERF_RESET on a wrong base) calls
 * perfctr_fault_report(address, pc), which explains and exits.  In a
 * file of its own, so that only programs that install it (those that
 * check their core's base: perfctr_require_core.c) link
 * perfctr_fault_report.
 *
 * SPDX-License-Identifier: MIT
 */
#include "board.h"
#include "fault.h"

void board_fault_report_install(void)
{
    aarch64_data_abort_report = perfctr_fault_report;
}
