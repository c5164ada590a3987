/*
 * The Cortex-M Instrumentation Trace Macrocell, as firmware uses it for
 * printf over SWO: the 32 stimulus ports, the Trace Enable (TER),
 * Trace Privilege (TPR) and Trace Control (TCR) registers, the lock
 * where the core has one (the Cortex-M7), the identification
 * registers, after the Armv7-M Architecture Reference Manual (C1.7).
 *
 * A write to stimulus port N, while DEMCR.TRCENA (the DWT's), TCR.ITMENA
 * and TER bit N are set, sends its bytes (1, 2 or 4, as the access is
 * wide; little-endian) to the "chardev" property's character device:
 * the scripts put it with the guest's other output.  There is no trace
 * packet protocol: the bytes go out as they are, whatever the port.
 * Reading a stimulus port returns 1 (FIFOREADY) while the ITM is
 * enabled, so that firmware polling for room goes on at once.
 * Timestamps, synchronisation and the DWT's hardware-source packets
 * are not modelled: their TCR bits read back and do nothing.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qapi/error.h"
#include "hw/qdev-properties.h"
#include "hw/qdev-properties-system.h"
#include "hw/registerfields.h"
#include "hw/misc/armv7m_itm.h"
#include "migration/vmstate.h"
#include "target/arm/cpu.h"
#include "armv7m-debug.h"
#include "trace.h"

/* Stimulus ports 0-31, one word each */
REG32(ITM_STIM0, 0x000)
    FIELD(ITM_STIM0, FIFOREADY, 0, 1)   /* read */
#define ITM_NUM_STIM 32
#define ITM_STIM_END (A_ITM_STIM0 + 4 * ITM_NUM_STIM)
REG32(ITM_TER, 0xe00)
REG32(ITM_TPR, 0xe40)
    FIELD(ITM_TPR, PRIVMASK, 0, 4)      /* bit n: ports 8n .. 8n+7 */
REG32(ITM_TCR, 0xe80)
    FIELD(ITM_TCR, ITMENA, 0, 1)
    FIELD(ITM_TCR, TSENA, 1, 1)
    FIELD(ITM_TCR, SYNCENA, 2, 1)
    FIELD(ITM_TCR, TXENA, 3, 1)
    FIELD(ITM_TCR, SWOENA, 4, 1)
    FIELD(ITM_TCR, TSPRESCALE, 8, 2)
    FIELD(ITM_TCR, GTSFREQ, 10, 2)
    FIELD(ITM_TCR, TRACEBUSID, 16, 7)
    FIELD(ITM_TCR, BUSY, 23, 1)

/* All but BUSY read back as written; only ITMENA does anything */
#define ITM_TCR_RW_MASK \
    (R_ITM_TCR_ITMENA_MASK | R_ITM_TCR_TSENA_MASK | R_ITM_TCR_SYNCENA_MASK | \
     R_ITM_TCR_TXENA_MASK | R_ITM_TCR_SWOENA_MASK | \
     R_ITM_TCR_TSPRESCALE_MASK | R_ITM_TCR_GTSFREQ_MASK | \
     R_ITM_TCR_TRACEBUSID_MASK)

/* PID4-7, PID0-3, CID0-3 (the Cortex-M3, M4 and M7 ITM's) */
static const uint8_t armv7m_itm_id[ARMV7M_DEBUG_ID_COUNT] = {
    0x04, 0x00, 0x00, 0x00, 0x01, 0xb0, 0x3b, 0x00,
    0x0d, 0xe0, 0x05, 0xb1,
};

static bool armv7m_itm_enabled(ARMv7MITMState *s)
{
    return FIELD_EX32(s->dwt->demcr, DEMCR, TRCENA) &&
           FIELD_EX32(s->tcr, ITM_TCR, ITMENA);
}

/* The register at @offset */
static uint64_t armv7m_itm_reg_read(ARMv7MITMState *s, hwaddr offset)
{
    uint64_t value;

    if (offset < ITM_STIM_END) {
        return armv7m_itm_enabled(s) ? R_ITM_STIM0_FIFOREADY_MASK : 0;
    }
    if (armv7m_debug_read(armv7m_itm_id, s->has_lock, s->locked, offset,
                          &value)) {
        return value;
    }
    switch (offset) {
    case A_ITM_TER:
        return s->ter;
    case A_ITM_TPR:
        return s->tpr;
    case A_ITM_TCR:
        return s->tcr;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "armv7m-itm: read of 0x%03" HWADDR_PRIx
                      ": no register there (RAZ)\n", offset);
        return 0;
    }
}

static MemTxResult armv7m_itm_read(void *opaque, hwaddr offset,
                                   uint64_t *data, unsigned size,
                                   MemTxAttrs attrs)
{
    ARMv7MITMState *s = ARMV7M_ITM(opaque);

    /* BusFault, as the PPB's, but for the stimulus ports */
    if (offset >= ITM_STIM_END && attrs.user) {
        return MEMTX_ERROR;
    }
    *data = armv7m_itm_reg_read(s, offset);
    trace_armv7m_itm_read(offset, *data, size);
    return MEMTX_OK;
}

static void armv7m_itm_stimulus(ARMv7MITMState *s, unsigned port,
                                uint64_t value, unsigned size,
                                MemTxAttrs attrs)
{
    uint8_t bytes[4];
    unsigned i;

    if (!armv7m_itm_enabled(s) || !(s->ter & BIT(port))) {
        return;                             /* ignored, as on silicon */
    }
    /* TPR bit n: ports 8n..8n+7 are for privileged code only */
    if (attrs.user && (s->tpr & BIT(port / 8))) {
        return;
    }
    for (i = 0; i < size; i++) {
        bytes[i] = value >> (8 * i);
    }
    qemu_chr_fe_write_all(&s->chr, bytes, size);
}

static void armv7m_itm_reg_write(ARMv7MITMState *s, hwaddr offset,
                                 uint64_t value)
{
    if (offset == A_ARMV7M_DEBUG_LAR) {
        s->locked = armv7m_debug_lar_write(s->has_lock, value);
        return;
    }
    if (s->locked) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "armv7m-itm: write of 0x%03" HWADDR_PRIx
                      " while locked (write 0xC5ACCE55 to LAR): ignored\n",
                      offset);
        return;
    }
    switch (offset) {
    case A_ITM_TER:
        s->ter = value;
        break;
    case A_ITM_TPR:
        s->tpr = value & R_ITM_TPR_PRIVMASK_MASK;
        break;
    case A_ITM_TCR:
        s->tcr = value & ITM_TCR_RW_MASK;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "armv7m-itm: write of 0x%" PRIx64 " to 0x%03"
                      HWADDR_PRIx ": read-only or no register (ignored)\n",
                      value, offset);
    }
}

static MemTxResult armv7m_itm_write(void *opaque, hwaddr offset,
                                    uint64_t value, unsigned size,
                                    MemTxAttrs attrs)
{
    ARMv7MITMState *s = ARMV7M_ITM(opaque);

    if (offset >= ITM_STIM_END && attrs.user) {
        return MEMTX_ERROR;
    }
    trace_armv7m_itm_write(offset, value, size);
    if (offset < ITM_STIM_END) {
        armv7m_itm_stimulus(s, offset / 4, value, size, attrs);
    } else {
        armv7m_itm_reg_write(s, offset, value);
    }
    return MEMTX_OK;
}

static const MemoryRegionOps armv7m_itm_ops = {
    .read_with_attrs = armv7m_itm_read,
    .write_with_attrs = armv7m_itm_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 1,
    .valid.max_access_size = 4,
};

static void armv7m_itm_reset_hold(Object *obj, ResetType type)
{
    ARMv7MITMState *s = ARMV7M_ITM(obj);

    s->ter = 0;
    s->tpr = 0;
    s->tcr = 0;
    s->locked = s->has_lock;
}

static void armv7m_itm_init(Object *obj)
{
    ARMv7MITMState *s = ARMV7M_ITM(obj);

    memory_region_init_io(&s->iomem, obj, &armv7m_itm_ops, s,
                          TYPE_ARMV7M_ITM, ARMV7M_DEBUG_UNIT_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
}

static void armv7m_itm_realize(DeviceState *dev, Error **errp)
{
    ARMv7MITMState *s = ARMV7M_ITM(dev);

    if (!s->dwt || !s->dwt->cpu) {
        error_setg(errp, "armv7m-itm: 'dwt' link not set");
        return;
    }
    s->has_lock = armv7m_debug_has_lock(s->dwt->cpu);
}

static const VMStateDescription vmstate_armv7m_itm = {
    .name = TYPE_ARMV7M_ITM,
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(ter, ARMv7MITMState),
        VMSTATE_UINT32(tpr, ARMv7MITMState),
        VMSTATE_UINT32(tcr, ARMv7MITMState),
        VMSTATE_BOOL(locked, ARMv7MITMState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property armv7m_itm_properties[] = {
    DEFINE_PROP_CHR("chardev", ARMv7MITMState, chr),
    DEFINE_PROP_LINK("dwt", ARMv7MITMState, dwt, TYPE_ARMV7M_DWT,
                     ARMv7MDWTState *),
};

static void armv7m_itm_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = armv7m_itm_realize;
    dc->vmsd = &vmstate_armv7m_itm;
    device_class_set_props(dc, armv7m_itm_properties);
    rc->phases.hold = armv7m_itm_reset_hold;
}

static const TypeInfo armv7m_itm_types[] = {
    {
        .name = TYPE_ARMV7M_ITM,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(ARMv7MITMState),
        .instance_init = armv7m_itm_init,
        .class_init = armv7m_itm_class_init,
    },
};

DEFINE_TYPES(armv7m_itm_types)
