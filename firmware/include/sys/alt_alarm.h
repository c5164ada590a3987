/*
 * Nios II HAL system clock API.
 *
 * alt_nticks() counts a real system tick: BOARD_TICKS_PER_SECOND (100)
 * ticks a second of virtual time since reset, read from a free-running
 * board counter (no interrupt; see system.h for the source per board).
 *
 * Alarms (callbacks from the tick interrupt) are not offered: there is
 * no tick interrupt.  alt_alarm_start() and alt_alarm_stop() are
 * compile-time errors that say so; the alt_alarm type exists so that
 * the error points at the call, not at a declaration.
 *
 * SPDX-License-Identifier: MIT
 */
#ifndef __ALT_ALARM_H__
#define __ALT_ALARM_H__

#include "alt_types.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct alt_alarm_s alt_alarm;

struct alt_alarm_s {
    void *llist[2];
    alt_u32 time;
    alt_u32 (*callback)(void *context);
    alt_u8 rollover;
    void *context;
};

/* System clock ticks per second: BOARD_TICKS_PER_SECOND */
extern alt_u32 alt_ticks_per_second(void);
/* System clock ticks since reset */
extern alt_u32 alt_nticks(void);

#define ALT_ALARM_NOT_OFFERED_(name) \
    (__extension__({ \
        _Static_assert(0, name " is not offered: this board has no " \
                       "system clock interrupt to call alarms from; poll " \
                       "alt_nticks() instead (see " \
                       "docs/porting-from-nios2.md)"); \
        0; \
    }))
#define alt_alarm_start(...) ALT_ALARM_NOT_OFFERED_("alt_alarm_start")
#define alt_alarm_stop(...) ALT_ALARM_NOT_OFFERED_("alt_alarm_stop")

#ifdef __cplusplus
}
#endif

#endif
