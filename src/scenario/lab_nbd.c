/*
 * lab_nbd — the modeled disk of a virtual-time guest (see lab_nbd.h).
 *
 * Threads: one sits in ioctl(NBD_DO_IT) for the device's whole life (the classic
 * interface returns from it only at disconnect); one serves, as an event loop: it
 * sleeps in poll() on the socket and on a timerfd armed (absolute, on
 * CLOCK_MONOTONIC) at the earliest modeled completion, reads every request the
 * kernel has sent in one read, starts each in the model when the model would
 * (the device queue's rules, devices/queue.c: up to 32 admitted together, SATA
 * NCQ's tags, an HDD choosing among them by positioning time; more wait in
 * order), and at each wake-up answers every request that is due in one sendmsg.
 * Why one thread and not a thread a request: under virtual time every guest
 * instruction is a nanosecond of the figures, and each thread hand-off costs
 * the guest a scheduler pass and a wake-up; an event loop batches what arrives
 * and what completes together (docs/scenarios.md, "The lab's request rate").
 * It blocks all signals: a signal meant for the program must not interrupt
 * NBD_DO_IT, which would drop the device.
 */
#include "scenario/lab_nbd.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nbd.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/strutil.h"
#include "devices/model.h"
#include "scenario/lab_dilate.h"

/* In the NBD protocol, not in every linux/nbd.h. */
#ifndef NBD_FLAG_ROTATIONAL
#define NBD_FLAG_ROTATIONAL (1 << 4)
#endif

/* What one read takes from the socket: many requests' headers and small payloads. */
#define RBUF (256u << 10)
/* Replies sent together in one sendmsg (two iovecs each). */
#define BATCH 32

typedef struct job {
    uint32_t type, flags; /* NBD_CMD_*, NBD_CMD_FLAG_* >> 16 */
    char handle[8];
    uint64_t off;
    uint32_t len;
    uint32_t error;       /* the NBD error to answer (0: done) */
    bool fua_flush;       /* a FUA write whose write is done: its flush is what runs now */
    uint64_t done_at;     /* the model's completion, CLOCK_MONOTONIC ns */
    char *data;           /* a write's payload */
    struct nbd_reply rep;
    struct job *next;
} job;

typedef struct {
    job *head, *tail;
} jlist;

struct sb_lab_nbd {
    char dev[32], spec[256];
    uint64_t size;
    bool hdd;
    char *store;          /* MAP_NORESERVE: pages exist once written */
    sb_dev_model *model;
    unsigned k;           /* --vm-dilate: the model runs on a clock k times slower (lab_dilate.h) */
    int nbd_fd, kern_sock, sock, tfd; /* /dev/nbdN, the kernel's end, ours, the completion timer */
    pthread_t doit, server;
    bool doit_started, server_started;
    jlist waiting;        /* arrived beyond the tags, in order */
    jlist queued;         /* admitted, not started by the model yet */
    job *running;         /* started, by done_at */
    unsigned admitted;    /* queued + running, at most SB_LAB_NBD_TAGS */
    char *rbuf;
    size_t rlen;          /* bytes of rbuf not parsed yet (from its start) */
    uint64_t armed;       /* the timerfd's deadline, 0 when none or spent */
    uint64_t served, n_op[5], fua;
    uint64_t started, answered; /* jobs started in the model, jobs answered (or sent back for a FUA flush) */
    uint64_t idle_wakes;  /* timer wake-ups that found nothing to start or answer */
    uint64_t flush_ns, flush_max; /* the model's time of the flushes (a FUA write's too), all and longest */
    uint64_t cpu_ns, runs; /* the server thread's CPU time (its schedstat: virtual ns, that is
                            * instructions) and how many times it ran, over its life */
};

/* The calling thread's CPU time in ns and the times it was scheduled, from its schedstat
 * (the scheduler's clock: under icount the guest's instructions). */
static void thread_cpu(uint64_t *ns, uint64_t *runs)
{
    char buf[128];
    unsigned long long a = 0, b = 0, c = 0;
    *ns = *runs = 0;
    if (sb_read_text("/proc/thread-self/schedstat", buf, sizeof buf) >= 0 && sscanf(buf, "%llu %llu %llu", &a, &b, &c) == 3)
        *ns = a, *runs = c;
}

static void block_signals(void)
{
    sigset_t all;
    sigfillset(&all);
    pthread_sigmask(SIG_BLOCK, &all, NULL);
}

static int read_full(int fd, void *buf, size_t len)
{
    for (size_t got = 0; got < len;) {
        ssize_t r = read(fd, (char *)buf + got, len - got);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            return -1;
        got += (size_t)r;
    }
    return 0;
}

/* Sends the iovecs whole, in one call when the socket takes them: replies whose headers and
 * data arrive together wake the kernel's receiving thread once (each wake-up costs the guest
 * thousands of instructions, which are its time). */
static int send_all(int fd, struct iovec *iov, int n)
{
    while (n > 0) {
        struct msghdr mh = {.msg_iov = iov, .msg_iovlen = (size_t)n};
        ssize_t w = sendmsg(fd, &mh, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        while (n > 0 && (size_t)w >= iov->iov_len) {
            w -= (ssize_t)iov->iov_len;
            iov++, n--;
        }
        if (n > 0) {
            iov->iov_base = (char *)iov->iov_base + w;
            iov->iov_len -= (size_t)w;
        }
    }
    return 0;
}

static void jpush(jlist *l, job *j)
{
    j->next = NULL;
    if (l->tail)
        l->tail->next = j;
    else
        l->head = j;
    l->tail = j;
}

static void free_jobs(job *j)
{
    for (job *n; j; j = n) {
        n = j->next;
        free(j->data);
        free(j);
    }
}

static sb_dev_op model_op(const job *j)
{
    if (j->fua_flush || j->type == NBD_CMD_FLUSH)
        return SB_DEV_FLUSH;
    return j->type == NBD_CMD_READ ? SB_DEV_READ : j->type == NBD_CMD_WRITE ? SB_DEV_WRITE : SB_DEV_DISCARD;
}

/* Into the running list, which is kept by done_at (ties in start order). */
static void run_at(sb_lab_nbd *d, job *j, uint64_t done_at)
{
    j->done_at = done_at;
    job **p = &d->running;
    while (*p && (*p)->done_at <= done_at)
        p = &(*p)->next;
    j->next = *p;
    *p = j;
}

/* A request the server cannot take answers at once, outside the model. */
static bool refused(const sb_lab_nbd *d, job *j)
{
    if (j->type != NBD_CMD_READ && j->type != NBD_CMD_WRITE && j->type != NBD_CMD_FLUSH && j->type != NBD_CMD_TRIM)
        j->error = EINVAL; /* nothing else was offered (NBD_SET_FLAGS) */
    else if (j->type != NBD_CMD_FLUSH && (j->off > d->size || j->len > d->size - j->off))
        j->error = EINVAL;
    return j->error != 0;
}

/* Admits what the tags allow, then starts in the model what it would start now, as the device
 * queue's dispatcher does: among the admitted, the one with the shortest positioning, unless
 * the arm is busy (then at *wake). */
static void dispatch(sb_lab_nbd *d, uint64_t now, uint64_t *wake)
{
    while (d->waiting.head && d->admitted < SB_LAB_NBD_TAGS) {
        job *j = d->waiting.head;
        if (!(d->waiting.head = j->next))
            d->waiting.tail = NULL;
        d->admitted++;
        if (refused(d, j)) {
            run_at(d, j, now);
            d->started++;
        }
        else
            jpush(&d->queued, j);
    }
    while (d->queued.head) {
        job **best = &d->queued.head, *prev = NULL, *bprev = NULL;
        uint64_t pos = UINT64_MAX;
        /* (The first with no positioning wins at once: an HDD's positioning costs the guest
         * hundreds of instructions to compute, times 32 at every wake-up otherwise.) */
        for (job **r = &d->queued.head; *r && pos > 0; prev = *r, r = &(*r)->next) {
            uint64_t p = sb_lab_model_position(d->model, d->k, model_op(*r), (*r)->off, now);
            if (p < pos)
                pos = p, best = r, bprev = prev;
        }
        uint64_t ready = sb_lab_model_ready(d->model, d->k, now);
        if (pos > 0 && ready > now) {
            *wake = ready < *wake ? ready : *wake;
            return;
        }
        job *j = *best;
        *best = j->next;
        if (d->queued.tail == j)
            d->queued.tail = bprev;
        uint64_t len = model_op(j) == SB_DEV_FLUSH ? 0 : j->len;
        run_at(d, j, sb_lab_model_service(d->model, d->k, model_op(j), j->fua_flush ? 0 : j->off, len, now));
        d->started++;
        if (model_op(j) == SB_DEV_FLUSH) {
            d->flush_ns += j->done_at - now;
            d->flush_max = j->done_at - now > d->flush_max ? j->done_at - now : d->flush_max;
        }
    }
}

/* The data's part, once the model has answered: a read's data goes out from the store. */
static void move_data(sb_lab_nbd *d, job *j)
{
    if (j->type == NBD_CMD_WRITE) {
        memcpy(d->store + j->off, j->data, j->len);
    } else if (j->type == NBD_CMD_TRIM) {
        /* The whole pages in the range go back to the guest (read as zeros from now on). */
        uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE), a = (j->off + pg - 1) / pg * pg, b = (j->off + j->len) / pg * pg;
        if (b > a)
            madvise(d->store + a, b - a, MADV_DONTNEED);
    }
}

/* Sends n iovecs, the replies of the nj jobs in sent, and frees the jobs. A failed send
 * means the kernel dropped the socket (disconnect): -1. */
static int send_batch(sb_lab_nbd *d, struct iovec *iov, int n, job **sent, int nj)
{
    int rc = send_all(d->sock, iov, n);
    for (int i = 0; i < nj; i++) {
        free(sent[i]->data);
        free(sent[i]);
    }
    return rc;
}

/* Answers every request due by now, BATCH to a sendmsg. A FUA write whose write is done goes
 * back to the model for its flush (as the nbdkit filter does it). -1 when the socket is gone. */
static int answer_due(sb_lab_nbd *d, uint64_t now)
{
    struct iovec iov[2 * BATCH];
    job *sent[BATCH];
    int n = 0, nj = 0, rc = 0;
    while (d->running && d->running->done_at <= now) {
        job *j = d->running;
        d->running = j->next;
        d->answered++;
        if (!j->error && !j->fua_flush && (j->flags & (NBD_CMD_FLAG_FUA >> 16)) && j->type != NBD_CMD_READ) {
            move_data(d, j);
            j->fua_flush = true;
            jpush(&d->queued, j);
            continue;
        }
        if (!j->error && !j->fua_flush)
            move_data(d, j);
        d->admitted--;
        j->rep = (struct nbd_reply){.magic = htobe32(NBD_REPLY_MAGIC), .error = htobe32(j->error)};
        memcpy(j->rep.handle, j->handle, sizeof j->rep.handle);
        iov[n++] = (struct iovec){&j->rep, sizeof j->rep};
        if (j->type == NBD_CMD_READ && !j->error)
            iov[n++] = (struct iovec){d->store + j->off, j->len};
        sent[nj++] = j;
        /* The batch goes when full, and after the loop: the last one due may be a FUA write
         * going back for its flush, which sends nothing. */
        if (nj == BATCH && send_batch(d, iov, n, sent, nj) < 0)
            rc = -1;
        if (nj == BATCH)
            n = nj = 0;
    }
    if (nj > 0 && send_batch(d, iov, n, sent, nj) < 0)
        rc = -1;
    return rc;
}

/* Parses what rbuf holds into jobs (reading a write's payload past rbuf from the socket).
 * -1 at NBD_CMD_DISC, a bad magic or a lost socket. */
static int parse(sb_lab_nbd *d)
{
    size_t pos = 0;
    int rc = 0;
    while (rc == 0 && d->rlen - pos >= sizeof(struct nbd_request)) {
        struct nbd_request rq;
        memcpy(&rq, d->rbuf + pos, sizeof rq);
        uint32_t type = be32toh(rq.type), len = be32toh(rq.len);
        if (be32toh(rq.magic) != NBD_REQUEST_MAGIC || (type & 0xffff) == NBD_CMD_DISC) {
            rc = -1;
            break;
        }
        pos += sizeof rq;
        job *j = sb_xrealloc(NULL, sizeof *j);
        memset(j, 0, sizeof *j);
        j->type = type & 0xffff;
        j->flags = type >> 16;
        memcpy(j->handle, rq.handle, sizeof j->handle);
        j->off = be64toh(rq.from);
        j->len = len;
        if (j->type == NBD_CMD_WRITE) {
            j->data = sb_xrealloc(NULL, len ? len : 1);
            size_t have = d->rlen - pos < len ? d->rlen - pos : len;
            memcpy(j->data, d->rbuf + pos, have);
            pos += have;
            if (have < len && read_full(d->sock, j->data + have, len - have) < 0)
                rc = -1;
        }
        d->served++;
        d->n_op[j->type < 5 ? j->type : 4] += j->type < 5;
        d->fua += (j->flags & (NBD_CMD_FLAG_FUA >> 16)) != 0;
        jpush(&d->waiting, j);
    }
    memmove(d->rbuf, d->rbuf + pos, d->rlen - pos);
    d->rlen -= pos;
    return rc;
}

/* Arms the timerfd at wake (absolute), unless it already is; wake 0 disarms it. */
static void arm(sb_lab_nbd *d, uint64_t wake)
{
    if (wake == d->armed)
        return;
    struct itimerspec its = {.it_value = {(time_t)(wake / 1000000000ull), (long)(wake % 1000000000ull)}};
    /* (A spent timer that was not read is cleared by this too: it would wake poll for nothing.) */
    (void)timerfd_settime(d->tfd, TFD_TIMER_ABSTIME, &its, NULL);
    d->armed = wake;
}

static void *server(void *arg)
{
    sb_lab_nbd *d = arg;
    block_signals();
    /* The completion timer fires when asked, not up to 50 us later (the default slack). */
    (void)prctl(PR_SET_TIMERSLACK, 1UL, 0UL, 0UL, 0UL);
    bool timer_only = false; /* the last wake-up was the timer's alone */
    for (;;) {
        uint64_t now = sb_now_ns(), wake = UINT64_MAX, work = d->started + d->answered;
        dispatch(d, now, &wake);
        if (answer_due(d, now) < 0)
            break;
        /* Again: a FUA write's flush, and what the freed tags admit, start now. The wake-up
         * is the second pass's alone: the first one's may be stale (a flush started since
         * moved the arm's free time), and a timer armed for it would wake for nothing. */
        wake = UINT64_MAX;
        dispatch(d, now, &wake);
        if (timer_only && d->started + d->answered == work)
            d->idle_wakes++;
        timer_only = false;
        if (d->running && d->running->done_at < wake)
            wake = d->running->done_at;
        if (wake <= sb_now_ns())
            continue;
        /* Nothing to wait for: a timer still armed (for what an earlier wake-up answered)
         * is disarmed, or it would wake the server for nothing. */
        arm(d, wake == UINT64_MAX ? 0 : wake);
        /* What the kernel sent while this thread worked is read without a poll first. */
        ssize_t got = recv(d->sock, d->rbuf + d->rlen, RBUF - d->rlen, MSG_DONTWAIT);
        if (got > 0) {
            d->rlen += (size_t)got;
            if (parse(d) < 0)
                break;
            continue;
        }
        if (got == 0)
            break;
        struct pollfd pf[2] = {{.fd = d->sock, .events = POLLIN}, {.fd = d->tfd, .events = POLLIN}};
        int pr = poll(pf, 2, -1);
        if (pr < 0 && errno != EINTR)
            break;
        if (pr <= 0)
            continue;
        if (pf[1].revents) {
            /* Spent: read, or poll would find it readable again at once (a spin). */
            uint64_t n;
            if (read(d->tfd, &n, sizeof n) < 0)
                n = 0;
            d->armed = 0;
            timer_only = !pf[0].revents;
        }
        if (pf[0].revents) {
            ssize_t r = read(d->sock, d->rbuf + d->rlen, RBUF - d->rlen);
            if (r < 0 && errno == EINTR)
                continue;
            if (r <= 0)
                break;
            d->rlen += (size_t)r;
            if (parse(d) < 0)
                break;
        }
    }
    thread_cpu(&d->cpu_ns, &d->runs);
    /* NBD_CMD_DISC (or the socket gone): closing ours ends the kernel's receiving side,
     * so that NBD_DO_IT returns. */
    shutdown(d->sock, SHUT_RDWR);
    return NULL;
}

static void *doit(void *arg)
{
    sb_lab_nbd *d = arg;
    block_signals();
    (void)ioctl(d->nbd_fd, NBD_DO_IT);
    return NULL;
}

/* The device's side: size, flags, the kernel's socket. 0 or -errno with err. */
static int configure(sb_lab_nbd *d, char *err, size_t errlen)
{
    unsigned long flags = NBD_FLAG_HAS_FLAGS | NBD_FLAG_SEND_FLUSH | NBD_FLAG_SEND_FUA;
    flags |= d->hdd ? NBD_FLAG_ROTATIONAL : NBD_FLAG_SEND_TRIM;
    const char *what = "NBD_SET_BLKSIZE";
    int rc = ioctl(d->nbd_fd, NBD_SET_BLKSIZE, 512UL);
    if (rc == 0 && (what = "NBD_SET_SIZE", rc = ioctl(d->nbd_fd, NBD_SET_SIZE, (unsigned long)d->size)) == 0 &&
        (what = "NBD_SET_FLAGS", rc = ioctl(d->nbd_fd, NBD_SET_FLAGS, flags)) == 0)
        what = "NBD_SET_SOCK", rc = ioctl(d->nbd_fd, NBD_SET_SOCK, (unsigned long)d->kern_sock);
    if (rc < 0) {
        snprintf(err, errlen, "%s: %s: %s", d->dev, what, strerror(errno));
        return -errno;
    }
    return 0;
}

/* Waits until NBD_DO_IT has started the device (its sysfs pid appears once the kernel has
 * read the flags), then sets the rotational flag in sysfs too: not every kernel reads
 * NBD_FLAG_ROTATIONAL. 0, or -ETIMEDOUT with err. */
static int started(const sb_lab_nbd *d, char *err, size_t errlen)
{
    char path[96], pid[32];
    snprintf(path, sizeof path, "/sys/block/%s/pid", d->dev + 5);
    for (int i = 0; sb_read_text(path, pid, sizeof pid) < 0; i++) {
        if (i == 1000) {
            snprintf(err, errlen, "%s did not start within 10 s", d->dev);
            return -ETIMEDOUT;
        }
        sb_sleep_ms(10);
    }
    snprintf(path, sizeof path, "/sys/block/%s/queue/rotational", d->dev + 5);
    (void)sb_write_text(path, d->hdd ? "1\n" : "0\n");
    return 0;
}

/* Model, store, socket and device: 0 or -errno with err. */
static int open_parts(sb_lab_nbd *d, char *err, size_t errlen)
{
    int rc = sb_dev_model_new(d->spec, d->size, &d->model, err, errlen);
    if (rc < 0)
        return rc;
    d->hdd = sb_dev_model_kind(d->model) == SB_DEV_KIND_HDD;
    if ((d->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC)) < 0) {
        snprintf(err, errlen, "%s: timerfd_create: %s", d->dev, strerror(errno));
        return -errno;
    }
    d->rbuf = sb_xrealloc(NULL, RBUF);
    d->store = mmap(NULL, d->size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (d->store == MAP_FAILED) {
        d->store = NULL;
        snprintf(err, errlen, "%s: cannot map %llu bytes: %s", d->dev, (unsigned long long)d->size, strerror(errno));
        return -ENOMEM;
    }
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0) {
        snprintf(err, errlen, "socketpair: %s", strerror(errno));
        return -errno;
    }
    d->kern_sock = sv[0];
    d->sock = sv[1];
    if ((d->nbd_fd = open(d->dev, O_RDWR | O_CLOEXEC)) < 0) {
        snprintf(err, errlen, "%s: %s (is the nbd module loaded?)", d->dev, strerror(errno));
        return -errno;
    }
    return configure(d, err, errlen);
}

int sb_lab_nbd_attach(const char *spec, uint64_t size, unsigned index, unsigned dilate, sb_lab_nbd **out, char *dev,
                      size_t devlen, char *err, size_t errlen)
{
    sb_lab_nbd *d = sb_xrealloc(NULL, sizeof *d);
    memset(d, 0, sizeof *d);
    snprintf(d->dev, sizeof d->dev, "/dev/nbd%u", index);
    snprintf(d->spec, sizeof d->spec, "%s", spec);
    d->size = size;
    d->k = dilate ? dilate : 1;
    d->nbd_fd = d->kern_sock = d->sock = d->tfd = -1;
    int rc = open_parts(d, err, errlen), trc = 0;
    if (rc == 0 && (trc = pthread_create(&d->server, NULL, server, d)) == 0)
        d->server_started = true;
    if (rc == 0 && trc == 0 && (trc = pthread_create(&d->doit, NULL, doit, d)) == 0)
        d->doit_started = true;
    if (trc) {
        snprintf(err, errlen, "%s: cannot start its server: %s", d->dev, strerror(trc));
        rc = -trc;
    }
    if (rc == 0)
        rc = started(d, err, errlen);
    if (rc < 0) {
        sb_lab_nbd_detach(d, NULL, 0);
        return rc;
    }
    snprintf(dev, devlen, "%s", d->dev);
    *out = d;
    return 0;
}

void sb_lab_nbd_detach(sb_lab_nbd *d, char *summary, size_t len)
{
    if (!d)
        return;
    if (d->doit_started) {
        /* The kernel sends NBD_CMD_DISC and shuts its socket down: NBD_DO_IT returns. */
        (void)ioctl(d->nbd_fd, NBD_DISCONNECT);
        pthread_join(d->doit, NULL);
    }
    if (d->nbd_fd >= 0) {
        (void)ioctl(d->nbd_fd, NBD_CLEAR_QUE);
        (void)ioctl(d->nbd_fd, NBD_CLEAR_SOCK);
    }
    if (d->sock >= 0)
        shutdown(d->sock, SHUT_RDWR); /* the server's poll sees it and it stops */
    if (d->server_started)
        pthread_join(d->server, NULL);
    /* "idle wake-ups": the server's timer wake-ups that found nothing to start or answer (it
     * sleeps in poll; each wake-up costs the guest instructions, that is virtual time, and
     * one that does nothing only moves the figures by where a timer's phase fell). */
    /* Where an SSD's writes went: its SLC buffer, straight to TLC (the buffer full), and what
     * the buffer gave back to TLC in idle time (a drive that idles a second empties it). */
    sb_dev_stats st = {0};
    if (d->model)
        sb_dev_model_stats(d->model, &st);
    if (summary)
        snprintf(summary, len, "%s %s: %llu requests, %llu idle wake-ups (%llu reads, %llu writes, %llu flushes, "
                 "%llu with FUA, %llu discards; flushes %.1f ms in all, the longest %.1f ms; the server ran %llu times, "
                 "%.1f us of CPU a request; %.1f MB into SLC, %.1f MB straight to TLC, %.1f MB drained in idle time)",
                 d->dev + 5, d->spec,
                 (unsigned long long)d->served,
                 (unsigned long long)d->idle_wakes, (unsigned long long)d->n_op[NBD_CMD_READ],
                 (unsigned long long)d->n_op[NBD_CMD_WRITE], (unsigned long long)d->n_op[NBD_CMD_FLUSH],
                 (unsigned long long)d->fua, (unsigned long long)d->n_op[NBD_CMD_TRIM], (double)d->flush_ns / 1e6 / d->k,
                 (double)d->flush_max / 1e6 / d->k,
                 (unsigned long long)d->runs, d->served ? (double)d->cpu_ns / 1e3 / (double)d->served : 0.0,
                 (double)st.slc_bytes / 1e6, (double)st.tlc_bytes / 1e6, (double)st.drained_bytes / 1e6);
    free_jobs(d->waiting.head);
    free_jobs(d->queued.head);
    free_jobs(d->running);
    free(d->rbuf);
    sb_dev_model_free(d->model);
    if (d->store)
        munmap(d->store, d->size);
    int fds[] = {d->nbd_fd, d->kern_sock, d->sock, d->tfd};
    for (size_t i = 0; i < 4; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    free(d);
}
