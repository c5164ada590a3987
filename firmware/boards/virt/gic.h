/*
 * QEMU's Arm virt board (arm-virt, aarch64-virt): the GICv2's registers
 * (QEMU's hw/arm/virt.c puts the distributor at 0x08000000 and the CPU
 * interface at 0x08010000), for the board support and for firmware that
 * drives the GIC itself.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef ARM_VIRT_GIC_H
#define ARM_VIRT_GIC_H

#define GICD_BASE 0x08000000
#define GICD_CTLR 0x000
#define GICD_ISENABLER 0x100
#define GICD_ICENABLER 0x180
#define GICD_IPRIORITYR 0x400
#define GICD_ITARGETSR 0x800
#define GICC_BASE 0x08010000
#define GICC_CTLR 0x000
#define GICC_PMR 0x004
#define GICC_IAR 0x00c
#define GICC_EOIR 0x010
#define GIC_SPURIOUS 1023

#endif
