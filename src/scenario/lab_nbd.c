/*
 * lab_nbd — the modeled disk of a virtual-time guest (see lab_nbd.h).
 *
 * Threads: one sits in ioctl(NBD_DO_IT) for the device's whole life (the classic
 * interface returns from it only at disconnect); one reads requests from the
 * socket and appends them to a FIFO; SB_LAB_NBD_TAGS workers take them in order,
 * each waiting in the model's queue until its modeled completion (so up to 32
 * wait together, and an HDD's queue reorders among them as NCQ does), then moving
 * the data and writing the reply. Replies leave in completion order, each whole
 * under the send lock; the kernel matches them to requests by handle. Every
 * thread blocks all signals: a signal meant for the program must not interrupt
 * NBD_DO_IT, which would drop the device.
 */
#include "scenario/lab_nbd.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/nbd.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/fileio.h"
#include "core/strutil.h"
#include "devices/model.h"

/* In the NBD protocol, not in every linux/nbd.h. */
#ifndef NBD_FLAG_ROTATIONAL
#define NBD_FLAG_ROTATIONAL (1 << 4)
#endif

typedef struct job {
    uint32_t type, flags; /* NBD_CMD_*, NBD_CMD_FLAG_* >> 16 */
    char handle[8];
    uint64_t off;
    uint32_t len;
    char *data;           /* a write's payload, a read's buffer */
    struct job *next;
} job;

struct sb_lab_nbd {
    char dev[32], spec[256];
    uint64_t size;
    bool hdd;
    char *store;          /* MAP_NORESERVE: pages exist once written */
    sb_dev_model *model;
    sb_dev_queue *queue;
    int nbd_fd, kern_sock, sock; /* /dev/nbdN, the kernel's end, ours */
    pthread_t doit, reader, workers[SB_LAB_NBD_TAGS];
    unsigned n_workers;
    bool doit_started, reader_started;
    pthread_mutex_t mu, send_mu;
    pthread_cond_t work;
    job *head, *tail;
    bool stop;
    uint64_t served;
};

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

/* Sends the iovecs whole, in one call when the socket takes them: a reply whose header and
 * data arrive together wakes the kernel's receiving thread once, not twice (each wake-up
 * costs the guest thousands of instructions, which are its time). */
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

/* The model's part of a request: 0, or the NBD error to answer. */
static uint32_t model_wait(sb_lab_nbd *d, const job *j)
{
    if (j->type != NBD_CMD_READ && j->type != NBD_CMD_WRITE && j->type != NBD_CMD_FLUSH && j->type != NBD_CMD_TRIM)
        return EINVAL; /* nothing else was offered (NBD_SET_FLAGS) */
    if (j->type != NBD_CMD_FLUSH && (j->off > d->size || j->len > d->size - j->off))
        return EINVAL;
    sb_dev_op op = j->type == NBD_CMD_READ ? SB_DEV_READ : j->type == NBD_CMD_WRITE ? SB_DEV_WRITE
                   : j->type == NBD_CMD_TRIM ? SB_DEV_DISCARD : SB_DEV_FLUSH;
    if (sb_dev_queue_io(d->queue, op, j->off, j->len) < 0)
        return EIO;
    /* FUA: the write, then the modeled cache's flush (as the nbdkit filter does). */
    if ((j->flags & (NBD_CMD_FLAG_FUA >> 16)) && j->type != NBD_CMD_READ &&
        sb_dev_queue_io(d->queue, SB_DEV_FLUSH, 0, 0) < 0)
        return EIO;
    return 0;
}

/* The data's part, once the model has answered. */
static void move_data(sb_lab_nbd *d, job *j)
{
    if (j->type == NBD_CMD_READ) {
        memcpy(j->data, d->store + j->off, j->len);
    } else if (j->type == NBD_CMD_WRITE) {
        memcpy(d->store + j->off, j->data, j->len);
    } else if (j->type == NBD_CMD_TRIM) {
        /* The whole pages in the range go back to the guest (read as zeros from now on). */
        uint64_t pg = (uint64_t)sysconf(_SC_PAGESIZE), a = (j->off + pg - 1) / pg * pg, b = (j->off + j->len) / pg * pg;
        if (b > a)
            madvise(d->store + a, b - a, MADV_DONTNEED);
    }
}

static void reply(sb_lab_nbd *d, const job *j, uint32_t error)
{
    struct nbd_reply r = {.magic = htobe32(NBD_REPLY_MAGIC), .error = htobe32(error)};
    memcpy(r.handle, j->handle, sizeof r.handle);
    struct iovec iov[2] = {{&r, sizeof r}, {j->data, j->len}};
    int n = j->type == NBD_CMD_READ && !error ? 2 : 1;
    pthread_mutex_lock(&d->send_mu);
    /* A failed send means the kernel dropped the socket (disconnect): nothing to tell. */
    (void)send_all(d->sock, iov, n);
    pthread_mutex_unlock(&d->send_mu);
}

static void *worker(void *arg)
{
    sb_lab_nbd *d = arg;
    block_signals();
    pthread_mutex_lock(&d->mu);
    for (;;) {
        while (!d->stop && !d->head)
            pthread_cond_wait(&d->work, &d->mu);
        if (!d->head)
            break;
        job *j = d->head;
        d->head = j->next;
        if (!d->head)
            d->tail = NULL;
        d->served++;
        pthread_mutex_unlock(&d->mu);
        uint32_t error = model_wait(d, j);
        if (!error)
            move_data(d, j);
        reply(d, j, error);
        free(j->data);
        free(j);
        pthread_mutex_lock(&d->mu);
    }
    pthread_mutex_unlock(&d->mu);
    return NULL;
}

/* One request from the socket, its payload read: NULL at disconnect or end of file. */
static job *read_request(sb_lab_nbd *d)
{
    struct nbd_request rq;
    if (read_full(d->sock, &rq, sizeof rq) < 0 || be32toh(rq.magic) != NBD_REQUEST_MAGIC)
        return NULL;
    job *j = sb_xrealloc(NULL, sizeof *j);
    memset(j, 0, sizeof *j);
    uint32_t type = be32toh(rq.type);
    j->type = type & 0xffff;
    j->flags = type >> 16;
    memcpy(j->handle, rq.handle, sizeof j->handle);
    j->off = be64toh(rq.from);
    j->len = be32toh(rq.len);
    if (j->type == NBD_CMD_DISC) {
        free(j);
        return NULL;
    }
    if (j->type == NBD_CMD_READ || j->type == NBD_CMD_WRITE)
        j->data = sb_xrealloc(NULL, j->len ? j->len : 1);
    if (j->type == NBD_CMD_WRITE && read_full(d->sock, j->data, j->len) < 0) {
        free(j->data);
        free(j);
        return NULL;
    }
    return j;
}

static void *reader(void *arg)
{
    sb_lab_nbd *d = arg;
    block_signals();
    job *j;
    while ((j = read_request(d))) {
        pthread_mutex_lock(&d->mu);
        if (d->tail)
            d->tail->next = j;
        else
            d->head = j;
        d->tail = j;
        pthread_cond_signal(&d->work);
        pthread_mutex_unlock(&d->mu);
    }
    /* NBD_CMD_DISC (or the socket gone): closing ours ends the kernel's receiving side,
     * so that NBD_DO_IT returns. */
    shutdown(d->sock, SHUT_RDWR);
    pthread_mutex_lock(&d->mu);
    d->stop = true;
    pthread_cond_broadcast(&d->work);
    pthread_mutex_unlock(&d->mu);
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
    if (!(d->queue = sb_dev_queue_new(d->model, SB_LAB_NBD_TAGS, SB_DEV_QUEUE_SLEEP))) {
        snprintf(err, errlen, "%s: cannot make the model's queue", d->spec);
        return -ENOMEM;
    }
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

int sb_lab_nbd_attach(const char *spec, uint64_t size, unsigned index, sb_lab_nbd **out, char *dev, size_t devlen,
                      char *err, size_t errlen)
{
    sb_lab_nbd *d = sb_xrealloc(NULL, sizeof *d);
    memset(d, 0, sizeof *d);
    snprintf(d->dev, sizeof d->dev, "/dev/nbd%u", index);
    snprintf(d->spec, sizeof d->spec, "%s", spec);
    d->size = size;
    d->nbd_fd = d->kern_sock = d->sock = -1;
    pthread_mutex_init(&d->mu, NULL);
    pthread_mutex_init(&d->send_mu, NULL);
    pthread_cond_init(&d->work, NULL);
    int rc = open_parts(d, err, errlen), trc = 0;
    for (; rc == 0 && trc == 0 && d->n_workers < SB_LAB_NBD_TAGS; d->n_workers += trc == 0)
        trc = pthread_create(&d->workers[d->n_workers], NULL, worker, d);
    if (rc == 0 && trc == 0 && (trc = pthread_create(&d->reader, NULL, reader, d)) == 0)
        d->reader_started = true;
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
        shutdown(d->sock, SHUT_RDWR); /* the reader's read ends, and it stops the workers */
    if (d->reader_started)
        pthread_join(d->reader, NULL);
    pthread_mutex_lock(&d->mu);
    d->stop = true;
    pthread_cond_broadcast(&d->work);
    pthread_mutex_unlock(&d->mu);
    for (unsigned i = 0; i < d->n_workers; i++)
        pthread_join(d->workers[i], NULL);
    if (summary)
        snprintf(summary, len, "%s %s: %llu requests, %llu waits spun", d->dev + 5, d->spec,
                 (unsigned long long)d->served, (unsigned long long)(d->queue ? sb_dev_queue_spun(d->queue) : 0));
    for (job *j = d->head, *n; j; j = n) {
        n = j->next;
        free(j->data);
        free(j);
    }
    sb_dev_queue_free(d->queue);
    sb_dev_model_free(d->model);
    if (d->store)
        munmap(d->store, d->size);
    int fds[] = {d->nbd_fd, d->kern_sock, d->sock};
    for (size_t i = 0; i < 3; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    pthread_cond_destroy(&d->work);
    pthread_mutex_destroy(&d->send_mu);
    pthread_mutex_destroy(&d->mu);
    free(d);
}
