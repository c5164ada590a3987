/*
 * Performance counter core: the host readout
 *
 * The read-only QOM properties "report" (every counter's clocks,
 * instructions, event counts and occurrences, read now) and "timeline"
 * (the first "timeline-size" commands with their virtual time), and
 * "report-file", where both are written as JSON when QEMU exits (an
 * exit notifier: it also runs when the guest exits through
 * semihosting, which calls exit()).  Reading changes nothing the guest
 * sees.  See docs/register-map.md in the perf-counter project.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qobject/qdict.h"
#include "qobject/qjson.h"
#include "qobject/qlist.h"
#include "qobject/qnum.h"
#include "hw/misc/perf-counter.h"
#include "system/cpu-timers.h"
#include "system/system.h"
#include "perf-counter-internal.h"

/* Add a command to the timeline, or count it as dropped when full */
void perf_counter_readout_record(PerfCounterState *s, PerfCounterEventKind kind,
                                 unsigned section, const PerfCounterNow *now)
{
    PerfCounterEvent ev = {
        .ns = now->ns, .insns = now->insns, .kind = kind, .section = section,
    };

    if (!s->timeline) {
        return;
    }
    if (s->timeline->len < s->timeline_size) {
        g_array_append_val(s->timeline, ev);
    } else {
        s->timeline_dropped++;
    }
}

/* The selectable events, as the host readout names them */
static const char *const perf_counter_event_names[PERFCTR_EVENT_COUNT] = {
    [PERFCTR_EVENT_NONE] = "none",
    [PERFCTR_EVENT_INSTRUCTIONS] = "instructions",
    [PERFCTR_EVENT_LOADS] = "loads",
    [PERFCTR_EVENT_STORES] = "stores",
    [PERFCTR_EVENT_BRANCHES] = "branches",
    [PERFCTR_EVENT_CALLS] = "calls",
    [PERFCTR_EVENT_RETURNS] = "returns",
    [PERFCTR_EVENT_TAKEN_BRANCHES] = "taken-branches",
    [PERFCTR_EVENT_EXCEPTIONS] = "exceptions",
    [PERFCTR_EVENT_CYCLES] = "cycles",
    [PERFCTR_EVENT_CONDITIONAL_BRANCHES] = "conditional-branches",
    [PERFCTR_EVENT_DIRECT_JUMPS] = "direct-jumps",
    [PERFCTR_EVENT_INDIRECT_JUMPS] = "indirect-jumps",
    [PERFCTR_EVENT_MULTIPLIES] = "multiplies",
    [PERFCTR_EVENT_DIVIDES] = "divides",
    [PERFCTR_EVENT_EXCEPTION_RETURNS] = "exception-returns",
    [PERFCTR_EVENT_RETIRED_BRANCHES] = "retired-branches",
    [PERFCTR_EVENT_MEMORY_STALLS] = "memory-stalls",
};

/* Host readout: one counter's numbers, read now */
static QDict *perf_counter_counter_dict(PerfCounterState *s, unsigned counter,
                                        const PerfCounterNow *now)
{
    QDict *d = qdict_new();
    uint64_t count = perf_counter_event_count(s, counter, now);
    unsigned e = s->evsel[counter];

    qdict_put(d, "clocks", qnum_from_uint(perf_counter_ticks(s, counter,
                                                             now)));
    if (e == PERFCTR_EVENT_INSTRUCTIONS) {
        if (icount_enabled()) {
            qdict_put(d, "instructions", qnum_from_uint(count));
        }
    } else if (e != PERFCTR_EVENT_NONE) {
        qdict_put_str(d, "event", perf_counter_event_names[e]);
        qdict_put(d, "event-count", qnum_from_uint(count));
    }
    qdict_put(d, "occurrences", qnum_from_uint(s->events[counter]));
    if (s->flags[counter]) {
        qdict_put(d, "flags", qnum_from_uint(s->flags[counter]));
    }
    return d;
}

/* Host readout: the "report" property (see docs/register-map.md) */
static QDict *perf_counter_report(PerfCounterState *s)
{
    PerfCounterNow now = perf_counter_now(s);
    unsigned sections = MIN(s->num_sections, PERF_COUNTER_MAX_SECTIONS);
    g_autofree char *path = object_get_canonical_path(OBJECT(s));
    QDict *report = qdict_new();
    QList *list = qlist_new();
    unsigned i;

    qdict_put_int(report, "version", PERF_COUNTER_VERSION);
    qdict_put_str(report, "qom-path", path ? path : "");
    if (s->base != PERF_COUNTER_BASE_AUTO) {
        qdict_put(report, "base", qnum_from_uint(s->base));
    }
    qdict_put(report, "clock-frequency", qnum_from_uint(s->freq_hz));
    qdict_put_str(report, "clock", s->clock_event == PERFCTR_EVENT_CYCLES ?
                  "cycles" : "time");
    qdict_put(report, "num-sections", qnum_from_uint(s->num_sections));
    qdict_put_bool(report, "icount", icount_enabled());
    qdict_put_int(report, "virtual-ns", now.ns);
    qdict_put_bool(report, "enabled", s->enabled);
    qdict_put(report, "global", perf_counter_counter_dict(s, 0, &now));
    for (i = 1; i <= sections; i++) {
        QDict *d = perf_counter_counter_dict(s, i, &now);

        qdict_put_int(d, "section", i);
        qdict_put_bool(d, "running", !!(s->section_running & BIT_ULL(i)));
        qlist_append(list, d);
    }
    qdict_put(report, "sections", list);
    return report;
}

static const char *const perf_counter_command_names[] = {
    [PERF_COUNTER_EV_RESET] = "reset",
    [PERF_COUNTER_EV_START] = "start",
    [PERF_COUNTER_EV_STOP] = "stop",
    [PERF_COUNTER_EV_BEGIN] = "begin",
    [PERF_COUNTER_EV_END] = "end",
};

/* Host readout: the "timeline" property */
static QDict *perf_counter_timeline(PerfCounterState *s)
{
    QDict *timeline = qdict_new();
    QList *events = qlist_new();
    unsigned i;

    qdict_put(timeline, "capacity", qnum_from_uint(s->timeline_size));
    qdict_put(timeline, "dropped", qnum_from_uint(s->timeline_dropped));
    for (i = 0; s->timeline && i < s->timeline->len; i++) {
        PerfCounterEvent *ev = &g_array_index(s->timeline, PerfCounterEvent,
                                              i);
        QDict *d = qdict_new();

        qdict_put_str(d, "event", perf_counter_command_names[ev->kind]);
        if (ev->kind == PERF_COUNTER_EV_BEGIN ||
            ev->kind == PERF_COUNTER_EV_END) {
            qdict_put_int(d, "section", ev->section);
        }
        qdict_put_int(d, "ns", ev->ns);
        if (icount_enabled()) {
            qdict_put_int(d, "instructions", ev->insns);
        }
        qlist_append(events, d);
    }
    qdict_put(timeline, "events", events);
    return timeline;
}

static void perf_counter_get_report(Object *obj, Visitor *v, const char *name,
                                    void *opaque, Error **errp)
{
    QObject *report = QOBJECT(perf_counter_report(PERF_COUNTER(obj)));

    visit_type_any(v, name, &report, errp);
    qobject_unref(report);
}

static void perf_counter_get_timeline(Object *obj, Visitor *v,
                                      const char *name, void *opaque,
                                      Error **errp)
{
    QObject *timeline = QOBJECT(perf_counter_timeline(PERF_COUNTER(obj)));

    visit_type_any(v, name, &timeline, errp);
    qobject_unref(timeline);
}

/* When QEMU exits: the report, and the timeline if kept, to report-file */
static void perf_counter_exit_notify(Notifier *notifier, void *data)
{
    PerfCounterState *s = container_of(notifier, PerfCounterState,
                                       exit_notifier);
    g_autoptr(QDict) report = perf_counter_report(s);
    g_autoptr(GString) json = NULL;
    g_autoptr(GError) err = NULL;

    if (s->timeline) {
        qdict_put(report, "timeline", perf_counter_timeline(s));
    }
    json = qobject_to_json_pretty(QOBJECT(report), true);
    g_string_append_c(json, '\n');
    if (!g_file_set_contents(s->report_file, json->str, json->len, &err)) {
        error_report("perf-counter: cannot write property 'report-file' "
                     "(%s): %s", s->report_file, err->message);
    }
}

bool perf_counter_readout_realize(PerfCounterState *s, Error **errp)
{
    if (s->report_file) {
        g_autoptr(GError) err = NULL;

        /* Fail now, not at exit: create the file, empty until then */
        if (!*s->report_file ||
            !g_file_set_contents(s->report_file, "", 0, &err)) {
            error_setg(errp, "perf-counter: property 'report-file' ('%s'): "
                       "cannot create it: %s", s->report_file,
                       err ? err->message : "no file name");
            return false;
        }
        s->exit_notifier.notify = perf_counter_exit_notify;
        qemu_add_exit_notifier(&s->exit_notifier);
    }
    if (s->timeline_size) {
        s->timeline = g_array_sized_new(false, false,
                                        sizeof(PerfCounterEvent),
                                        MIN(s->timeline_size, 1024));
    }
    return true;
}

void perf_counter_readout_unrealize(PerfCounterState *s)
{
    if (s->exit_notifier.notify) {
        qemu_remove_exit_notifier(&s->exit_notifier);
        s->exit_notifier.notify = NULL;
    }
    if (s->timeline) {
        g_array_free(s->timeline, true);
        s->timeline = NULL;
    }
}

void perf_counter_readout_class_init(ObjectClass *oc)
{
    object_class_property_add(oc, "report", "any", perf_counter_get_report,
                              NULL, NULL, NULL);
    object_class_property_set_description(oc, "report",
        "every counter's clocks, instructions and occurrences, read now");
    object_class_property_add(oc, "timeline", "any",
                              perf_counter_get_timeline, NULL, NULL, NULL);
    object_class_property_set_description(oc, "timeline",
        "the first timeline-size commands with their virtual time");
}
