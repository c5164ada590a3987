/*
 * raspi board support: the BCM2835 peripherals it uses, at their ARM
 * physical addresses (the bus addresses 0x7exxxxxx appear at 0x20xxxxxx).
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef RASPI_H
#define RASPI_H

/* System timer: 1 MHz, four compare channels (GPU interrupts 0-3) */
#define BCM2835_SYSTIMER_BASE 0x20003000
#define BCM2835_SYSTIMER_CS 0x00        /* match flags, write 1 to clear */
#define BCM2835_SYSTIMER_CLO 0x04
#define BCM2835_SYSTIMER_CHI 0x08
#define BCM2835_SYSTIMER_C1 0x10
#define BCM2835_SYSTIMER_M1 (1u << 1)
#define BCM2835_IRQ_SYSTIMER_1 1        /* in IRQ pending 1 / enable 1 */

/* Interrupt controller */
#define BCM2835_IC_BASE 0x2000b200
#define BCM2835_IC_PENDING_BASIC 0x00
#define BCM2835_IC_PENDING_1 0x04
#define BCM2835_IC_ENABLE_1 0x10
#define BCM2835_IC_ENABLE_BASIC 0x18
#define BCM2835_IC_DISABLE_1 0x1c
#define BCM2835_IC_DISABLE_BASIC 0x24
/*
 * ARM basic interrupt 6: the ARM1176's nPMUIRQ, in our QEMU (the real
 * SoC does not route it; see docs/arm11-pmu.md)
 */
#define BCM2835_IRQ_BASIC_PMU 6

#endif
