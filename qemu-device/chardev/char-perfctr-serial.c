/*
 * perfctr-serial: a serial port's backend whose input arrives in
 * virtual time, so that the same input gives the same run
 *
 * Under -icount a run is repeatable because everything the guest sees
 * follows the instructions it executes.  Input that a host backend
 * hands over whenever QEMU's main loop reads it breaks that: a guest
 * polling its UART sees the byte after as many instructions as the host
 * took.  Here the input is held, and handed to the UART from a
 * QEMU_CLOCK_VIRTUAL timer (run in the vCPU's thread, between two
 * instructions): a byte at a time, char-ns nanoseconds of virtual time
 * after the one before (a character's time on the line: 86806 ns, 10
 * bits at 115200 baud, by default), or as soon after that as the UART
 * can take it (its receive buffer has room).  Where the input comes
 * from decides when it is known, never when it arrives:
 *
 *   input-path=FILE  read to its end when the backend opens (a file, or
 *                    a pipe: QEMU waits for the writer to close it),
 *                    from virtual time 0
 *   control=PATH     a controller on a UNIX socket (perfcounter's
 *                    Session) drives the run in lockstep: the guest
 *                    waits for it at the start, after every byte it
 *                    sends (or those of a set the controller gives)
 *                    and at the deadlines it sets, with nothing
 *                    running meanwhile (the BQL is released, so that
 *                    QMP can read the devices, and QEMU can still shut
 *                    down); what it sends while the guest waits is
 *                    delivered from that moment
 *
 * Without -icount the virtual clock follows the host's, and the run is
 * no more repeatable than with any other backend.
 *
 * What the guest sends goes to path=FILE, as the file backend's output.
 * With eof-quiet-ns=N, the run stops (as a stop of the plugin's does:
 * at once, every exit handler writing what it counted) once the input
 * has ended (the file's end, or the controller said so), every byte
 * of it has been taken, and the guest has sent nothing for N ns.
 *
 * The control protocol: frames of a kind byte, a 32-bit little-endian
 * payload length, and the payload; numbers are 64-bit little-endian.
 *   to the controller:   'S' start, 'O' output (the bytes follow the
 *                        numbers; sent where the guest waits, at a
 *                        line's end, at 4 KiB and at QEMU's exit, not a
 *                        byte at a time),
 *                        'D' deadline reached: each with the
 *                        virtual ns, retired instructions and estimated
 *                        cycles (0 without a timing model) then
 *                        'C' counts, the answer to 'Q': the numbers,
 *                        then a 32-bit mask of the events counted (bit
 *                        e for PerfctrEvent e) and every event's count
 *                        since the run began (0 where not counted)
 *   from the controller: 'I' input bytes, 'E' end of input,
 *                        'G' go (a deadline in virtual ns, 0 for none,
 *                        and a mode byte: 0 wait after each byte the
 *                        guest sends, 1 wait only at the deadline, 2
 *                        wait after a byte of the 256-bit set that
 *                        follows: those a match could end with),
 *                        'Q' query the counts, with a path to have the
 *                        plugin write its results so far there first
 *                        (a step's profile is what ran between two),
 *                        'X' end the run where the guest waits (QEMU
 *                        exits at once, every exit handler writing what
 *                        it counted, as at a stop of the plugin's)
 * A controller that goes away lets the guest run on.
 *
 * SPDX-License-Identifier: GPL-2.0-or-later
 */

#include "qemu/osdep.h"
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "chardev/char.h"
#include "chardev/char-fd.h"
#include "hw/core/cpu.h"
#include "io/channel-file.h"
#include "qapi/error.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "qemu/module.h"
#include "qemu/option.h"
#include "qemu/timer.h"
#include "system/cpu-timers.h"
#include "system/runstate.h"
#include "system/system.h"
#include "accel/tcg/perfctr-hook.h"
#include "accel/tcg/perfctr-stop.h"
#include "trace.h"

#define TYPE_CHARDEV_PERFCTR_SERIAL "chardev-perfctr-serial"
OBJECT_DECLARE_SIMPLE_TYPE(PerfctrSerialChardev, CHARDEV_PERFCTR_SERIAL)

/* 10 bits (start, 8 data, stop) at 115200 baud */
#define DEFAULT_CHAR_NS 86806
/* How often a controller that keeps the guest waiting is checked on */
#define WAIT_POLL_MS 20
/* Output is reported where the guest waits, a line's end, or this much */
#define REPORT_MAX_BYTES 4096
/* A UART that cannot take a byte is offered it again after this long */
#define RETRY_MAX_CHARS 64

enum {
    MODE_EACH_BYTE,     /* wait after every byte the guest sends */
    MODE_DEADLINE,      /* wait at the deadline only */
    MODE_AT_BYTES,      /* wait after a byte of wait_at */
};

/* A 'G' frame: the deadline, the mode and, for MODE_AT_BYTES, the set */
#define GO_LEN 9
#define WAIT_AT_LEN 32

struct PerfctrSerialChardev {
    Chardev parent;

    int out_fd;
    QIOChannel *out;        /* out_fd's, for the watches a UART asks for */
    int control_fd;         /* -1: no controller (or it went away) */
    uint64_t char_ns;
    uint64_t eof_quiet_ns;  /* 0: the end of input stops nothing */

    GByteArray *input;      /* received, not yet delivered from next */
    GByteArray *unreported; /* output not yet sent to the controller */
    Notifier at_exit;       /* sends it */
    guint next;
    bool input_ended;
    int64_t last_delivery;  /* virtual ns of the last byte delivered */
    uint64_t retry_ns;      /* backoff while the UART takes nothing */
    QEMUTimer *deliver;

    int mode;
    uint8_t wait_at[WAIT_AT_LEN];   /* MODE_AT_BYTES's bytes, bit by bit */
    QEMUTimer *deadline;
    QEMUTimer *started;
    QEMUTimer *quiet;

    /* While a controller drives: every event counted, for its queries */
    PerfctrHookClient counting;

    /* A wait the vCPUs' stop cut short: waited again when they run */
    bool wait_pending;
    VMChangeStateEntry *vm_state;
};

/* What receiving from the controller came to */
typedef enum {
    RECEIVED,
    CONTROLLER_GONE,
    VCPUS_STOPPING,     /* QEMU stops the vCPUs: a shutdown, a QMP stop */
} Received;

/* Where the guest is: virtual ns, retired instructions, model cycles */
static void perfctr_serial_position(uint64_t pos[3])
{
    pos[0] = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
    pos[1] = icount_enabled() ? icount_get_raw() : 0;
    pos[2] = 0;
    perfctr_hook_read_event(0, PERFCTR_EVENT_CYCLES, &pos[2]);
}

static bool perfctr_serial_send_all(int fd, const void *buf, size_t len)
{
    const uint8_t *p = buf;

    while (len) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return false;
        }
        p += n;
        len -= n;
    }
    return true;
}

/* A frame to the controller: kind, the position, then data */
static void perfctr_serial_report(PerfctrSerialChardev *s, char kind,
                                  const uint8_t *data, uint32_t len)
{
    uint64_t pos[3];
    uint8_t head[5 + sizeof(pos)];
    int i;

    if (s->control_fd < 0) {
        return;
    }
    perfctr_serial_position(pos);
    head[0] = kind;
    stl_le_p(head + 1, sizeof(pos) + len);
    for (i = 0; i < 3; i++) {
        stq_le_p(head + 5 + 8 * i, pos[i]);
    }
    if (!perfctr_serial_send_all(s->control_fd, head, sizeof(head)) ||
        (len && !perfctr_serial_send_all(s->control_fd, data, len))) {
        close(s->control_fd);
        s->control_fd = -1;
    }
}

/*
 * The output not reported yet goes to the controller, with where the
 * guest is now (after its last byte)
 */
static void perfctr_serial_flush(PerfctrSerialChardev *s)
{
    if (s->unreported->len) {
        perfctr_serial_report(s, 'O', s->unreported->data,
                              s->unreported->len);
        g_byte_array_set_size(s->unreported, 0);
    }
}

static void perfctr_serial_flush_at_exit(Notifier *notifier, void *data)
{
    perfctr_serial_flush(container_of(notifier, PerfctrSerialChardev,
                                      at_exit));
}

/*
 * Read exactly len bytes from the controller.  With stoppable, give up
 * before the first byte if QEMU stops the vCPUs (it shuts down, or QMP
 * stops the guest), which must not wait on the controller.
 */
static Received perfctr_serial_receive(PerfctrSerialChardev *s, void *buf,
                                       size_t len, bool stoppable)
{
    uint8_t *p = buf;

    while (len) {
        struct pollfd pfd = { .fd = s->control_fd, .events = POLLIN };
        ssize_t n;

        if (stoppable && p == buf && first_cpu &&
            qatomic_read(&first_cpu->stop)) {
            return VCPUS_STOPPING;
        }
        if (poll(&pfd, 1, WAIT_POLL_MS) <= 0) {
            continue;
        }
        n = recv(s->control_fd, p, len, 0);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            return CONTROLLER_GONE;
        }
        p += n;
        len -= n;
    }
    return RECEIVED;
}

static void perfctr_serial_schedule(PerfctrSerialChardev *s, int64_t now);

static void perfctr_serial_nothing_reached(PerfctrHookClient *client)
{
}

/* From the guest's first instruction, count every event the hook can */
static void perfctr_serial_count_all(PerfctrSerialChardev *s)
{
    s->counting.reached = perfctr_serial_nothing_reached;
    memset(s->counting.target, 0xff, sizeof(s->counting.target));
    s->counting.want = perfctr_hook_events() & ~BIT(PERFCTR_EVENT_NONE);
    perfctr_hook_add_client(&s->counting);
    perfctr_hook_arm(&s->counting);
}

/*
 * The controller's 'Q': with a path, the plugin's results so far written
 * there; then the counts ('C').  Called with the BQL held, the guest
 * waiting.
 */
static void perfctr_serial_answer_query(PerfctrSerialChardev *s,
                                        const char *path)
{
    uint8_t counts[4 + 8 * PERFCTR_EVENT_COUNT] = { 0 };
    uint32_t mask = 0;
    int e;

    if (*path && !perfctr_hook_write_results(path)) {
        warn_report("perfctr-serial: the plugin wrote no results to %s",
                    path);
    }
    for (e = PERFCTR_EVENT_NONE + 1; e < PERFCTR_EVENT_COUNT; e++) {
        uint64_t count;

        if (perfctr_hook_read_event(0, e, &count)) {
            mask |= BIT(e);
            stq_le_p(counts + 4 + 8 * e, count);
        }
    }
    stl_le_p(counts, mask);
    perfctr_serial_report(s, 'C', counts, sizeof(counts));
}

/*
 * The guest waits here, nothing running, until the controller says go;
 * if QEMU stops the vCPUs meanwhile, until they run again (wait_pending)
 */
static void perfctr_serial_wait(PerfctrSerialChardev *s)
{
    bool locked = bql_locked();
    uint64_t deadline = 0;
    bool go = false;

    /*
     * Not while the vCPUs are stopped: QEMU runs their queued work once
     * it has marked them stopped, and a wait, letting go of the BQL, then
     * raced QEMU's shutdown, which frees this chardev (its timers were
     * written after they were freed)
     */
    if (!runstate_is_running()) {
        s->wait_pending = true;
        return;
    }
    if (locked) {
        bql_unlock();
    }
    while (s->control_fd >= 0 && !go) {
        uint8_t head[5];
        g_autofree uint8_t *body = NULL;
        uint32_t len;
        Received got = perfctr_serial_receive(s, head, sizeof(head), true);

        if (got == VCPUS_STOPPING) {
            s->wait_pending = true;
            break;
        }
        if (got != RECEIVED) {
            break;
        }
        len = ldl_le_p(head + 1);
        body = g_malloc(len + 1);
        if (perfctr_serial_receive(s, body, len, false) != RECEIVED) {
            break;
        }
        switch (head[0]) {
        case 'I':
            g_byte_array_append(s->input, body, len);
            break;
        case 'E':
            s->input_ended = true;
            break;
        case 'Q':
            body[len] = 0;
            bql_lock();
            perfctr_serial_answer_query(s, (char *)body);
            bql_unlock();
            break;
        case 'G':
            if (len >= GO_LEN) {
                deadline = ldq_le_p(body);
                s->mode = body[8] == MODE_DEADLINE ? MODE_DEADLINE
                                                   : MODE_EACH_BYTE;
                if (body[8] == MODE_AT_BYTES &&
                    len >= GO_LEN + WAIT_AT_LEN) {
                    s->mode = MODE_AT_BYTES;
                    memcpy(s->wait_at, body + GO_LEN, WAIT_AT_LEN);
                }
                go = true;
            }
            break;
        case 'X':
            /* As a stop of the plugin's: at once, exit handlers and all */
            bql_lock();
            exit(0);
        }
    }
    if (s->wait_pending) {
        if (locked) {
            bql_lock();
        }
        return;
    }
    if (s->control_fd >= 0 && !go) {
        close(s->control_fd);
        s->control_fd = -1;
    }
    if (locked) {
        bql_lock();
    }
    if (s->control_fd < 0) {
        /* No controller: the guest runs on, its input is what it has */
        s->mode = MODE_DEADLINE;
        s->input_ended = true;
        timer_del(s->deadline);
    } else if (deadline) {
        timer_mod(s->deadline, deadline);
    } else {
        timer_del(s->deadline);
    }
    perfctr_serial_schedule(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
}

static void perfctr_serial_wait_work(CPUState *cpu, run_on_cpu_data data)
{
    perfctr_serial_wait(data.host_ptr);
}

static void perfctr_serial_nothing_to_do(CPUState *cpu, run_on_cpu_data data)
{
}

/*
 * Every wait happens as the vCPUs' queued work, before any of them runs
 * another instruction (an I/O instruction ends its block under
 * -icount): not where it is asked for, which may be a virtual-clock
 * timer (the start, a deadline, a UART that sends from one), whose end
 * QEMU waits for with the BQL held when it stops the vCPUs (a shutdown:
 * SIGTERM, or the controller's death), while the wait would need the
 * BQL back to end.  Every vCPU gets work, so that none runs on first.
 */
static void perfctr_serial_wait_soon(PerfctrSerialChardev *s)
{
    CPUState *cpu;

    CPU_FOREACH(cpu) {
        async_run_on_cpu(cpu, cpu == first_cpu ? perfctr_serial_wait_work :
                         perfctr_serial_nothing_to_do,
                         RUN_ON_CPU_HOST_PTR(s));
    }
}

/* A wait the vCPUs' stop cut short goes on when they run again */
static void perfctr_serial_vm_state(void *opaque, bool running,
                                    RunState state)
{
    PerfctrSerialChardev *s = opaque;

    if (running && s->wait_pending) {
        s->wait_pending = false;
        perfctr_serial_wait_soon(s);
    }
}

/* Deliver the next byte when its time comes and the UART can take it */
static void perfctr_serial_schedule(PerfctrSerialChardev *s, int64_t now)
{
    if (s->next < s->input->len) {
        int64_t at = s->last_delivery < 0 ? now :
                     MAX(now, s->last_delivery + (int64_t)s->char_ns);

        timer_mod(s->deliver, at);
    } else if (s->input_ended && s->eof_quiet_ns) {
        if (!timer_pending(s->quiet)) {
            timer_mod(s->quiet, now + s->eof_quiet_ns);
        }
    }
}

static void perfctr_serial_deliver(void *opaque)
{
    PerfctrSerialChardev *s = opaque;
    Chardev *chr = CHARDEV(s);
    int64_t now = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);

    if (s->next >= s->input->len) {
        return;
    }
    if (qemu_chr_be_can_write(chr) <= 0) {
        /* Offered again when the UART takes input, or a while later */
        s->retry_ns = MIN(MAX(s->retry_ns * 2, s->char_ns),
                          s->char_ns * RETRY_MAX_CHARS);
        timer_mod(s->deliver, now + s->retry_ns);
        return;
    }
    s->retry_ns = 0;
    qemu_chr_be_write(chr, s->input->data + s->next, 1);
    trace_perfctr_serial_deliver(chr->label, s->input->data[s->next], now);
    s->next++;
    s->last_delivery = now;
    if (s->next == s->input->len) {
        g_byte_array_set_size(s->input, 0);
        s->next = 0;
    }
    perfctr_serial_schedule(s, now);
}

/* The UART has room again: offer the next byte from its due time */
static void perfctr_serial_accept_input(Chardev *chr)
{
    PerfctrSerialChardev *s = CHARDEV_PERFCTR_SERIAL(chr);

    if (s->next < s->input->len) {
        s->retry_ns = 0;
        perfctr_serial_schedule(s, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL));
    }
}

static void perfctr_serial_quiet(void *opaque)
{
    PerfctrSerialChardev *s = opaque;

    if (s->input_ended && s->next >= s->input->len) {
        perfctr_stop_now("input-end");
    }
}

static void perfctr_serial_deadline(void *opaque)
{
    PerfctrSerialChardev *s = opaque;

    perfctr_serial_flush(s);
    perfctr_serial_report(s, 'D', NULL, 0);
    perfctr_serial_wait_soon(s);
}

static void perfctr_serial_started(void *opaque)
{
    PerfctrSerialChardev *s = opaque;

    perfctr_serial_count_all(s);
    perfctr_serial_report(s, 'S', NULL, 0);
    perfctr_serial_wait_soon(s);
}

/* Whether the guest waits for the controller once it has sent buf */
static bool perfctr_serial_waits_after(PerfctrSerialChardev *s,
                                       const uint8_t *buf, int len)
{
    int i;

    if (s->mode != MODE_AT_BYTES) {
        return s->mode == MODE_EACH_BYTE;
    }
    for (i = 0; i < len; i++) {
        if (s->wait_at[buf[i] / 8] & (1 << (buf[i] % 8))) {
            return true;
        }
    }
    return false;
}

/* Called with chr_write_lock held, from the guest's write to its UART */
static int perfctr_serial_write(Chardev *chr, const uint8_t *buf, int len)
{
    PerfctrSerialChardev *s = CHARDEV_PERFCTR_SERIAL(chr);
    int done = 0;

    while (done < len) {
        ssize_t n = write(s->out_fd, buf + done, len - done);

        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;
        }
        done += n;
    }
    if (s->input_ended && s->eof_quiet_ns && s->next >= s->input->len) {
        timer_mod(s->quiet, qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) +
                            s->eof_quiet_ns);
    }
    if (s->control_fd >= 0) {
        /*
         * Reported where the guest waits, at a line's end (what QEMU
         * dying at once would lose) or by the buffer: a report a byte
         * cost the controller a wake-up each
         */
        g_byte_array_append(s->unreported, buf, len);
        if (perfctr_serial_waits_after(s, buf, len)) {
            perfctr_serial_flush(s);
            perfctr_serial_wait_soon(s);
        } else if (s->unreported->len >= REPORT_MAX_BYTES ||
                   memchr(buf, '\n', len)) {
            perfctr_serial_flush(s);
        }
    }
    return len;
}

/* Output is never refused, but a UART may ask to be told it can write */
static GSource *perfctr_serial_add_watch(Chardev *chr, GIOCondition cond)
{
    return qio_channel_create_watch(CHARDEV_PERFCTR_SERIAL(chr)->out, cond);
}

static int perfctr_serial_connect(const char *path, Error **errp)
{
    struct sockaddr_un addr = { .sun_family = AF_UNIX };
    int fd;

    if (strlen(path) >= sizeof(addr.sun_path)) {
        error_setg(errp, "perfctr-serial: control path too long: %s", path);
        return -1;
    }
    strcpy(addr.sun_path, path);
    fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0) {
        error_setg_errno(errp, errno, "perfctr-serial: cannot connect to "
                         "the controller at %s", path);
        if (fd >= 0) {
            close(fd);
        }
        return -1;
    }
    return fd;
}

static void perfctr_serial_open(Chardev *chr, ChardevBackend *backend,
                                bool *be_opened, Error **errp)
{
    ChardevPerfctrSerial *opts = backend->u.perfctr_serial.data;
    PerfctrSerialChardev *s = CHARDEV_PERFCTR_SERIAL(chr);
    int flags = O_WRONLY | O_CREAT | O_BINARY |
                (opts->has_append && opts->append ? O_APPEND : O_TRUNC);

    s->char_ns = opts->has_char_ns ? opts->char_ns : DEFAULT_CHAR_NS;
    if (!s->char_ns) {
        error_setg(errp, "perfctr-serial: char-ns must be 1 or more");
        return;
    }
    s->eof_quiet_ns = opts->has_eof_quiet_ns ? opts->eof_quiet_ns : 0;
    s->input = g_byte_array_new();
    s->unreported = g_byte_array_new();
    s->last_delivery = -1;
    s->control_fd = -1;
    s->mode = MODE_DEADLINE;
    if (opts->in) {
        g_autoptr(GError) err = NULL;
        g_autofree char *data = NULL;
        gsize len;

        if (!g_file_get_contents(opts->in, &data, &len, &err)) {
            error_setg(errp, "perfctr-serial: %s", err->message);
            return;
        }
        g_byte_array_append(s->input, (uint8_t *)data, len);
    }
    s->input_ended = !opts->control;
    if (opts->control) {
        s->control_fd = perfctr_serial_connect(opts->control, errp);
        if (s->control_fd < 0) {
            return;
        }
        s->mode = MODE_EACH_BYTE;
        s->at_exit.notify = perfctr_serial_flush_at_exit;
        qemu_add_exit_notifier(&s->at_exit);
    }
    s->out_fd = qmp_chardev_open_file_source(opts->out, flags, errp);
    if (s->out_fd < 0) {
        return;
    }
    s->out = QIO_CHANNEL(qio_channel_file_new_fd(s->out_fd));
    s->deliver = timer_new_ns(QEMU_CLOCK_VIRTUAL, perfctr_serial_deliver, s);
    s->deadline = timer_new_ns(QEMU_CLOCK_VIRTUAL, perfctr_serial_deadline,
                               s);
    s->quiet = timer_new_ns(QEMU_CLOCK_VIRTUAL, perfctr_serial_quiet, s);
    s->started = timer_new_ns(QEMU_CLOCK_VIRTUAL, perfctr_serial_started,
                              s);
    if (s->control_fd >= 0) {
        s->vm_state = qemu_add_vm_change_state_handler(perfctr_serial_vm_state,
                                                       s);
        timer_mod(s->started, 0);
    } else {
        perfctr_serial_schedule(s, 0);
    }
}

static void perfctr_serial_parse(QemuOpts *opts, ChardevBackend *backend,
                                 Error **errp)
{
    const char *path = qemu_opt_get(opts, "path");
    ChardevPerfctrSerial *serial;

    backend->type = CHARDEV_BACKEND_KIND_PERFCTR_SERIAL;
    if (!path) {
        error_setg(errp, "chardev: perfctr-serial: no path given for the "
                   "output");
        return;
    }
    serial = backend->u.perfctr_serial.data = g_new0(ChardevPerfctrSerial,
                                                     1);
    qemu_chr_parse_common(opts, qapi_ChardevPerfctrSerial_base(serial));
    serial->out = g_strdup(path);
    serial->in = g_strdup(qemu_opt_get(opts, "input-path"));
    serial->control = g_strdup(qemu_opt_get(opts, "control"));
    serial->has_append = true;
    serial->append = qemu_opt_get_bool(opts, "append", false);
    if (qemu_opt_get(opts, "char-ns")) {
        serial->has_char_ns = true;
        serial->char_ns = qemu_opt_get_number(opts, "char-ns", 0);
    }
    if (qemu_opt_get(opts, "eof-quiet-ns")) {
        serial->has_eof_quiet_ns = true;
        serial->eof_quiet_ns = qemu_opt_get_number(opts, "eof-quiet-ns", 0);
    }
}

static void perfctr_serial_finalize(Object *obj)
{
    PerfctrSerialChardev *s = CHARDEV_PERFCTR_SERIAL(obj);

    timer_free(s->deliver);
    timer_free(s->deadline);
    timer_free(s->quiet);
    timer_free(s->started);
    if (s->vm_state) {
        qemu_del_vm_change_state_handler(s->vm_state);
    }
    if (s->input) {
        g_byte_array_unref(s->input);
    }
    if (s->at_exit.notify) {
        qemu_remove_exit_notifier(&s->at_exit);
    }
    if (s->unreported) {
        g_byte_array_unref(s->unreported);
    }
    if (s->control_fd >= 0) {
        close(s->control_fd);
    }
    if (s->counting.reached) {
        perfctr_hook_remove_client(&s->counting);
    }
    if (s->out) {
        object_unref(OBJECT(s->out));     /* closes out_fd */
    }
}

static void perfctr_serial_class_init(ObjectClass *oc, void *data)
{
    ChardevClass *cc = CHARDEV_CLASS(oc);

    cc->parse = perfctr_serial_parse;
    cc->open = perfctr_serial_open;
    cc->chr_write = perfctr_serial_write;
    cc->chr_add_watch = perfctr_serial_add_watch;
    cc->chr_accept_input = perfctr_serial_accept_input;
}

static const TypeInfo perfctr_serial_types[] = {
    {
        .name = TYPE_CHARDEV_PERFCTR_SERIAL,
        .parent = TYPE_CHARDEV,
        .instance_size = sizeof(PerfctrSerialChardev),
        .instance_finalize = perfctr_serial_finalize,
        .class_init = perfctr_serial_class_init,
    },
};

DEFINE_TYPES(perfctr_serial_types)
