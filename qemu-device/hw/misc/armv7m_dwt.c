/*
 * The Cortex-M Data Watchpoint and Trace unit's counters, and DEMCR,
 * as the Armv7-M Architecture Reference Manual (C1.8, C1.6.5) describes
 * them: DWT_CTRL, CYCCNT, the 8-bit CPICNT, EXCCNT, SLEEPCNT, LSUCNT
 * and FOLDCNT, PCSR, the lock (LAR, LSR) where the core has one (the
 * Cortex-M7), the identification registers; DEMCR.TRCENA gates them.
 *
 * CYCCNT counts the perf-counter core's clock: one count per
 * instruction under -icount (the clock the scripts give the boards),
 * the timing model's cycles when the perfctr plugin runs one
 * (scripts/profile --cycles), else virtual time at the CPU's clock.
 * Between two accesses, the model's cycles beyond the first of the
 * loads and stores go to LSUCNT, the others beyond one per instruction
 * to CPICNT and, when the Cortex-M7's dual issue made them fewer than
 * the instructions, the difference to FOLDCNT, so that the
 * architecture's identity holds: instructions = CYCCNT - CPICNT -
 * EXCCNT - SLEEPCNT - LSUCNT + FOLDCNT (the 8-bit counters modulo 256).
 * EXCCNT and SLEEPCNT stay 0: the model has no exception entry or
 * sleep cycles (a WFI's idle time is not the core's).  There are no
 * comparators (NUMCOMP reads 0), no trace packets (NOTRCPKT) and no
 * external triggers (NOEXTTRIG).  PCSR reads the pc of the code that
 * reads it as QEMU last stored it: an instruction of the same
 * translated block, at or before the read, which is what a PC sample
 * is.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/clock.h"
#include "hw/qdev-clock.h"
#include "hw/qdev-properties.h"
#include "hw/registerfields.h"
#include "hw/misc/armv7m_dwt.h"
#include "migration/vmstate.h"
#include "system/cpu-timers.h"
#include "accel/tcg/perfctr-hook.h"
#include "target/arm/cpu.h"
#include "armv7m-debug.h"
#include "trace.h"

REG32(DWT_CTRL, 0x000)
    FIELD(DWT_CTRL, CYCCNTENA, 0, 1)
    FIELD(DWT_CTRL, POSTPRESET, 1, 4)
    FIELD(DWT_CTRL, POSTINIT, 5, 4)
    FIELD(DWT_CTRL, CYCTAP, 9, 1)
    FIELD(DWT_CTRL, SYNCTAP, 10, 2)
    FIELD(DWT_CTRL, PCSAMPLENA, 12, 1)
    FIELD(DWT_CTRL, EXCTRCENA, 16, 1)
    FIELD(DWT_CTRL, CPIEVTENA, 17, 1)
    FIELD(DWT_CTRL, EXCEVTENA, 18, 1)
    FIELD(DWT_CTRL, SLEEPEVTENA, 19, 1)
    FIELD(DWT_CTRL, LSUEVTENA, 20, 1)
    FIELD(DWT_CTRL, FOLDEVTENA, 21, 1)
    FIELD(DWT_CTRL, CYCEVTENA, 22, 1)
    FIELD(DWT_CTRL, NOPRFCNT, 24, 1)
    FIELD(DWT_CTRL, NOCYCCNT, 25, 1)
    FIELD(DWT_CTRL, NOEXTTRIG, 26, 1)
    FIELD(DWT_CTRL, NOTRCPKT, 27, 1)
    FIELD(DWT_CTRL, NUMCOMP, 28, 4)
REG32(DWT_CYCCNT, 0x004)
REG32(DWT_CPICNT, 0x008)
REG32(DWT_EXCCNT, 0x00c)
REG32(DWT_SLEEPCNT, 0x010)
REG32(DWT_LSUCNT, 0x014)
REG32(DWT_FOLDCNT, 0x018)
REG32(DWT_PCSR, 0x01c)

/* DEMCR, alone in its region (TRCENA: armv7m-debug.h) */
REG32(DEMCR, 0x0)
    FIELD(DEMCR, VC_CORERESET, 0, 1)
    FIELD(DEMCR, VC_FAULTS, 4, 7)       /* VC_MMERR .. VC_HARDERR */
    FIELD(DEMCR, MON, 16, 4)            /* MON_EN .. MON_REQ */

/* What reads back as written: everything but the read-only ID fields */
#define DWT_CTRL_RW_MASK \
    (R_DWT_CTRL_CYCCNTENA_MASK | R_DWT_CTRL_POSTPRESET_MASK | \
     R_DWT_CTRL_POSTINIT_MASK | R_DWT_CTRL_CYCTAP_MASK | \
     R_DWT_CTRL_SYNCTAP_MASK | R_DWT_CTRL_PCSAMPLENA_MASK | \
     R_DWT_CTRL_EXCTRCENA_MASK | R_DWT_CTRL_CPIEVTENA_MASK | \
     R_DWT_CTRL_EXCEVTENA_MASK | R_DWT_CTRL_SLEEPEVTENA_MASK | \
     R_DWT_CTRL_LSUEVTENA_MASK | R_DWT_CTRL_FOLDEVTENA_MASK | \
     R_DWT_CTRL_CYCEVTENA_MASK)
/*
 * Read-only: no comparators (NUMCOMP 0), trace packets or external
 * triggers; the cycle and profiling counters are there (NOCYCCNT,
 * NOPRFCNT 0)
 */
#define DWT_CTRL_RO (R_DWT_CTRL_NOTRCPKT_MASK | R_DWT_CTRL_NOEXTTRIG_MASK)
/* The vector catches and the DebugMonitor bits read back and do nothing */
#define DEMCR_RW_MASK \
    (R_DEMCR_VC_CORERESET_MASK | R_DEMCR_VC_FAULTS_MASK | R_DEMCR_MON_MASK | \
     R_DEMCR_TRCENA_MASK)

/* PID4-7, PID0-3, CID0-3 (the Cortex-M3, M4 and M7 DWT's) */
static const uint8_t armv7m_dwt_id[ARMV7M_DEBUG_ID_COUNT] = {
    0x04, 0x00, 0x00, 0x00, 0x02, 0xb0, 0x3b, 0x00,
    0x0d, 0xe0, 0x05, 0xb1,
};

static void armv7m_dwt_sources(ARMv7MDWTState *s, uint64_t *clock,
                               uint64_t *insns, uint64_t *lsu)
{
    unsigned vcpu = CPU(s->cpu)->cpu_index;

    *insns = icount_enabled() ? icount_get_raw() : 0;
    *lsu = 0;
    if (perfctr_hook_read_event(vcpu, PERFCTR_EVENT_CYCLES, clock)) {
        /* the timing model's */
        perfctr_hook_read_event(vcpu, PERFCTR_EVENT_MEMORY_STALLS, lsu);
        return;
    }
    if (icount_enabled()) {
        *clock = *insns;
        return;
    }
    *clock = clock_ns_to_ticks(s->cpuclk,
                               qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
}

/*
 * Bring the counters up to now: what ran since the last sync counts if
 * TRCENA and the counter's enable were set all along (every change of
 * either syncs first)
 */
static void armv7m_dwt_sync(ARMv7MDWTState *s)
{
    uint64_t clock, insns, lsu_now, cycles, executed, lsu;
    int64_t other;

    armv7m_dwt_sources(s, &clock, &insns, &lsu_now);
    cycles = clock - s->clock_at_sync;
    executed = icount_enabled() ? insns - s->insns_at_sync : cycles;
    lsu = lsu_now - s->lsu_at_sync;
    s->clock_at_sync = clock;
    s->insns_at_sync = insns;
    s->lsu_at_sync = lsu_now;
    if (!FIELD_EX32(s->demcr, DEMCR, TRCENA)) {
        return;
    }
    if (FIELD_EX32(s->ctrl, DWT_CTRL, CYCCNTENA)) {
        s->cyccnt += cycles;
    }
    /*
     * Cycles beyond one an instruction: the loads' and stores' to LSUCNT,
     * the others' to CPICNT; fewer: instructions paired
     */
    other = (int64_t)(cycles - executed - lsu);
    if (FIELD_EX32(s->ctrl, DWT_CTRL, LSUEVTENA)) {
        s->lsucnt += lsu;
    }
    if (FIELD_EX32(s->ctrl, DWT_CTRL, CPIEVTENA) && other > 0) {
        s->cpicnt += other;
    }
    if (FIELD_EX32(s->ctrl, DWT_CTRL, FOLDEVTENA) && other < 0) {
        s->foldcnt += -other;
    }
}

static uint8_t *armv7m_dwt_event_counter(ARMv7MDWTState *s, hwaddr offset)
{
    switch (offset) {
    case A_DWT_CPICNT:
        return &s->cpicnt;
    case A_DWT_EXCCNT:
        return &s->exccnt;
    case A_DWT_SLEEPCNT:
        return &s->sleepcnt;
    case A_DWT_LSUCNT:
        return &s->lsucnt;
    case A_DWT_FOLDCNT:
        return &s->foldcnt;
    }
    return NULL;
}

static uint32_t armv7m_dwt_pcsr(ARMv7MDWTState *s)
{
    CPUState *cs = CPU(s->cpu);

    if (current_cpu != cs) {
        return 0xffffffff;              /* not the core: no sample */
    }
    return s->cpu->env.regs[15];
}

/* The register at @offset, the counters brought up to now */
static uint64_t armv7m_dwt_reg_read(ARMv7MDWTState *s, hwaddr offset)
{
    uint8_t *counter = armv7m_dwt_event_counter(s, offset);
    uint64_t value;

    armv7m_dwt_sync(s);
    if (counter) {
        return *counter;
    }
    if (armv7m_debug_read(armv7m_dwt_id, s->has_lock, s->locked, offset,
                          &value)) {
        return value;
    }
    switch (offset) {
    case A_DWT_CTRL:
        return (s->ctrl & DWT_CTRL_RW_MASK) | DWT_CTRL_RO;
    case A_DWT_CYCCNT:
        return s->cyccnt;
    case A_DWT_PCSR:
        return armv7m_dwt_pcsr(s);
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "armv7m-dwt: read of 0x%03" HWADDR_PRIx
                      ": no register there (RAZ)\n", offset);
        return 0;
    }
}

static MemTxResult armv7m_dwt_read(void *opaque, hwaddr offset,
                                   uint64_t *data, unsigned size,
                                   MemTxAttrs attrs)
{
    ARMv7MDWTState *s = ARMV7M_DWT(opaque);

    if (attrs.user) {
        return MEMTX_ERROR;             /* BusFault, as the PPB's */
    }
    *data = armv7m_dwt_reg_read(s, offset);
    trace_armv7m_dwt_read(offset, *data, size);
    return MEMTX_OK;
}

static void armv7m_dwt_reg_write(ARMv7MDWTState *s, hwaddr offset,
                                 uint64_t value)
{
    uint8_t *counter = armv7m_dwt_event_counter(s, offset);

    if (offset == A_ARMV7M_DEBUG_LAR) {
        s->locked = armv7m_debug_lar_write(s->has_lock, value);
        return;
    }
    if (s->locked) {
        qemu_log_mask(LOG_GUEST_ERROR,
                      "armv7m-dwt: write of 0x%03" HWADDR_PRIx
                      " while locked (write 0xC5ACCE55 to LAR): ignored\n",
                      offset);
        return;
    }
    armv7m_dwt_sync(s);
    if (counter) {
        *counter = value;
        return;
    }
    switch (offset) {
    case A_DWT_CTRL:
        s->ctrl = value & DWT_CTRL_RW_MASK;
        break;
    case A_DWT_CYCCNT:
        s->cyccnt = value;
        break;
    default:
        qemu_log_mask(LOG_GUEST_ERROR,
                      "armv7m-dwt: write of 0x%" PRIx64 " to 0x%03"
                      HWADDR_PRIx ": read-only or no register (ignored)\n",
                      value, offset);
    }
}

static MemTxResult armv7m_dwt_write(void *opaque, hwaddr offset,
                                    uint64_t value, unsigned size,
                                    MemTxAttrs attrs)
{
    ARMv7MDWTState *s = ARMV7M_DWT(opaque);

    if (attrs.user) {
        return MEMTX_ERROR;
    }
    trace_armv7m_dwt_write(offset, value, size);
    armv7m_dwt_reg_write(s, offset, value);
    return MEMTX_OK;
}

static const MemoryRegionOps armv7m_dwt_ops = {
    .read_with_attrs = armv7m_dwt_read,
    .write_with_attrs = armv7m_dwt_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static MemTxResult armv7m_dwt_demcr_read(void *opaque, hwaddr offset,
                                        uint64_t *data, unsigned size,
                                        MemTxAttrs attrs)
{
    ARMv7MDWTState *s = ARMV7M_DWT(opaque);

    if (attrs.user) {
        return MEMTX_ERROR;
    }
    *data = s->demcr;
    trace_armv7m_dwt_demcr_read(*data);
    return MEMTX_OK;
}

static MemTxResult armv7m_dwt_demcr_write(void *opaque, hwaddr offset,
                                         uint64_t value, unsigned size,
                                         MemTxAttrs attrs)
{
    ARMv7MDWTState *s = ARMV7M_DWT(opaque);

    if (attrs.user) {
        return MEMTX_ERROR;
    }
    trace_armv7m_dwt_demcr_write(value);
    armv7m_dwt_sync(s);
    s->demcr = value & DEMCR_RW_MASK;
    return MEMTX_OK;
}

static const MemoryRegionOps armv7m_dwt_demcr_ops = {
    .read_with_attrs = armv7m_dwt_demcr_read,
    .write_with_attrs = armv7m_dwt_demcr_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid.min_access_size = 4,
    .valid.max_access_size = 4,
};

static void armv7m_dwt_reset_hold(Object *obj, ResetType type)
{
    ARMv7MDWTState *s = ARMV7M_DWT(obj);

    s->demcr = 0;
    s->ctrl = 0;
    s->cyccnt = 0;
    s->cpicnt = s->exccnt = s->sleepcnt = s->lsucnt = s->foldcnt = 0;
    s->locked = s->has_lock;
    armv7m_dwt_sources(s, &s->clock_at_sync, &s->insns_at_sync,
                       &s->lsu_at_sync);
}

static void armv7m_dwt_init(Object *obj)
{
    ARMv7MDWTState *s = ARMV7M_DWT(obj);

    memory_region_init_io(&s->iomem, obj, &armv7m_dwt_ops, s,
                          TYPE_ARMV7M_DWT, ARMV7M_DEBUG_UNIT_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->iomem);
    memory_region_init_io(&s->demcr_iomem, obj, &armv7m_dwt_demcr_ops, s,
                          "armv7m-dwt-demcr", 4);
    sysbus_init_mmio(SYS_BUS_DEVICE(obj), &s->demcr_iomem);
    s->cpuclk = qdev_init_clock_in(DEVICE(obj), "cpuclk", NULL, NULL, 0);
}

static void armv7m_dwt_realize(DeviceState *dev, Error **errp)
{
    ARMv7MDWTState *s = ARMV7M_DWT(dev);

    if (!s->cpu) {
        error_setg(errp, "armv7m-dwt: 'cpu' link not set");
        return;
    }
    s->has_lock = armv7m_debug_has_lock(s->cpu);
}

static int armv7m_dwt_pre_save(void *opaque)
{
    armv7m_dwt_sync(ARMV7M_DWT(opaque));
    return 0;
}

static const VMStateDescription vmstate_armv7m_dwt = {
    .name = TYPE_ARMV7M_DWT,
    .version_id = 2,
    .minimum_version_id = 2,
    .pre_save = armv7m_dwt_pre_save,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(demcr, ARMv7MDWTState),
        VMSTATE_UINT32(ctrl, ARMv7MDWTState),
        VMSTATE_UINT32(cyccnt, ARMv7MDWTState),
        VMSTATE_UINT8(cpicnt, ARMv7MDWTState),
        VMSTATE_UINT8(exccnt, ARMv7MDWTState),
        VMSTATE_UINT8(sleepcnt, ARMv7MDWTState),
        VMSTATE_UINT8(lsucnt, ARMv7MDWTState),
        VMSTATE_UINT8(foldcnt, ARMv7MDWTState),
        VMSTATE_BOOL(locked, ARMv7MDWTState),
        VMSTATE_UINT64(clock_at_sync, ARMv7MDWTState),
        VMSTATE_UINT64(insns_at_sync, ARMv7MDWTState),
        VMSTATE_UINT64(lsu_at_sync, ARMv7MDWTState),
        VMSTATE_END_OF_LIST()
    }
};

static const Property armv7m_dwt_properties[] = {
    DEFINE_PROP_LINK("cpu", ARMv7MDWTState, cpu, TYPE_ARM_CPU, ARMCPU *),
};

static void armv7m_dwt_class_init(ObjectClass *klass, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(klass);
    ResettableClass *rc = RESETTABLE_CLASS(klass);

    dc->realize = armv7m_dwt_realize;
    dc->vmsd = &vmstate_armv7m_dwt;
    device_class_set_props(dc, armv7m_dwt_properties);
    rc->phases.hold = armv7m_dwt_reset_hold;
}

static const TypeInfo armv7m_dwt_types[] = {
    {
        .name = TYPE_ARMV7M_DWT,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(ARMv7MDWTState),
        .instance_init = armv7m_dwt_init,
        .class_init = armv7m_dwt_class_init,
    },
};

DEFINE_TYPES(armv7m_dwt_types)
