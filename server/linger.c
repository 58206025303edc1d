/*
 * linger.c - the lingering-close thread (see linger.h).  Sockets come in
 * through a mutex-guarded array; the thread polls them with epoll and
 * checks deadlines and paused sockets every 100 ms.  kw_linger_free wakes
 * it through an eventfd in the same epoll set: stopping waited out the
 * 100 ms tick (~100 ms of every kwgend's stop, which tests and service
 * managers wait for).
 */
#include "linger.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* the epoll data of the wake eventfd (no slot's index) */
#define WAKE ((unsigned)KW_LINGER_MAX)

typedef struct slot {
	int fd;          /* -1 = free */
	double start;    /* CLOCK_MONOTONIC seconds */
	double last;     /* when bytes last came (or start) */
	size_t read;     /* bytes discarded so far */
	int paused;      /* read up to its allowance: not polled for input */
} slot;

struct kw_linger {
	pthread_mutex_t mu;
	int ep;            /* epoll; data.u32 = slot index, or WAKE */
	int wake;          /* eventfd in ep: written once, by kw_linger_free */
	int stop;
	unsigned seconds;      /* lingering_time: the whole linger */
	unsigned idle_seconds; /* lingering_timeout: the longest wait for bytes */
	size_t rate;           /* bytes a second (and the first second's burst); 0 = none */
	size_t count;
	pthread_t thread;
	slot slots[KW_LINGER_MAX];
};

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Close slot i (mutex held). */
static void drop(kw_linger *l, unsigned i)
{
	if (l->slots[i].fd < 0)
		return;
	epoll_ctl(l->ep, EPOLL_CTL_DEL, l->slots[i].fd, NULL);
	close(l->slots[i].fd);
	l->slots[i].fd = -1;
	l->count--;
}

/* Bytes slot s may have discarded by now: a burst of rate, then rate a
 * second (nginx bounds lingering by time; the bytes are a rate so a client
 * sending more than one burst still gets to finish and read the answer). */
static int over_allowance(const kw_linger *l, const slot *s, double now)
{
	return l->rate && (double)s->read >= (double)l->rate * (1.0 + (now - s->start));
}

/* Poll slot i for input again, or stop polling it (mutex held). */
static void set_paused(kw_linger *l, unsigned i, int paused)
{
	struct epoll_event ev = { .events = paused ? 0 : EPOLLIN | EPOLLRDHUP, .data.u32 = i };

	if (l->slots[i].paused == paused)
		return;
	if (epoll_ctl(l->ep, EPOLL_CTL_MOD, l->slots[i].fd, &ev) < 0) {
		drop(l, i);
		return;
	}
	l->slots[i].paused = paused;
}

static void *run(void *arg)
{
	kw_linger *l = arg;
	struct epoll_event ev[32];
	char sink[16384];

	for (;;) {
		int n = epoll_wait(l->ep, ev, 32, 100);
		double now = mono_now();

		pthread_mutex_lock(&l->mu);
		if (l->stop) {
			pthread_mutex_unlock(&l->mu);
			break;
		}
		for (int k = 0; k < n; k++) {
			unsigned i = ev[k].data.u32;
			slot *s;

			if (i >= KW_LINGER_MAX || (s = &l->slots[i])->fd < 0)
				continue; /* the wake eventfd: l->stop was checked above */
			if (s->paused) { /* only EPOLLHUP / EPOLLERR come while paused */
				drop(l, i);
				continue;
			}
			for (;;) {
				ssize_t got;

				if (over_allowance(l, s, now)) {
					set_paused(l, i, 1); /* TCP slows the client down */
					break;
				}
				got = recv(s->fd, sink, sizeof(sink), MSG_DONTWAIT);
				if (got > 0) {
					s->read += (size_t)got;
					s->last = now;
					continue;
				}
				if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
					break;
				drop(l, i); /* EOF or an error: the client is done */
				break;
			}
		}
		for (unsigned i = 0; i < KW_LINGER_MAX; i++) {
			slot *s = &l->slots[i];

			if (s->fd < 0)
				continue;
			if (now - s->start > (double)l->seconds ||
			    (!s->paused && now - s->last > (double)l->idle_seconds))
				drop(l, i);
			else if (s->paused && !over_allowance(l, s, now)) {
				s->last = now; /* paused time is ours, not the client's */
				set_paused(l, i, 0);
			}
		}
		pthread_mutex_unlock(&l->mu);
	}
	return NULL;
}

kw_linger *kw_linger_new(unsigned seconds, unsigned idle_seconds, size_t rate)
{
	kw_linger *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	for (unsigned i = 0; i < KW_LINGER_MAX; i++)
		l->slots[i].fd = -1;
	l->seconds = seconds;
	l->idle_seconds = idle_seconds ? idle_seconds : 1;
	l->rate = rate;
	pthread_mutex_init(&l->mu, NULL);
	l->wake = -1;
	if ((l->ep = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		pthread_mutex_destroy(&l->mu);
		free(l);
		return NULL;
	}
	struct epoll_event wev = { .events = EPOLLIN, .data.u32 = WAKE };

	if ((l->wake = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0 ||
	    epoll_ctl(l->ep, EPOLL_CTL_ADD, l->wake, &wev) < 0 ||
	    pthread_create(&l->thread, NULL, run, l) != 0) {
		if (l->wake >= 0)
			close(l->wake);
		close(l->ep);
		pthread_mutex_destroy(&l->mu);
		free(l);
		return NULL;
	}
	return l;
}

void kw_linger_add(kw_linger *l, int fd)
{
	unsigned i;

	/* The answer is fully written: end it for the client. */
	shutdown(fd, SHUT_WR);
	if (!l || !l->seconds) {
		close(fd);
		return;
	}
	pthread_mutex_lock(&l->mu);
	for (i = 0; i < KW_LINGER_MAX && l->slots[i].fd >= 0; i++)
		;
	if (l->stop || i == KW_LINGER_MAX) {
		pthread_mutex_unlock(&l->mu);
		close(fd);
		return;
	}
	struct epoll_event ev = { .events = EPOLLIN | EPOLLRDHUP, .data.u32 = i };

	if (epoll_ctl(l->ep, EPOLL_CTL_ADD, fd, &ev) < 0) {
		pthread_mutex_unlock(&l->mu);
		close(fd);
		return;
	}
	{
		double now = mono_now();

		l->slots[i] = (slot){ fd, now, now, 0, 0 };
	}
	l->count++;
	pthread_mutex_unlock(&l->mu);
}

size_t kw_linger_count(kw_linger *l)
{
	size_t n;

	if (!l)
		return 0;
	pthread_mutex_lock(&l->mu);
	n = l->count;
	pthread_mutex_unlock(&l->mu);
	return n;
}

void kw_linger_free(kw_linger *l)
{
	if (!l)
		return;
	pthread_mutex_lock(&l->mu);
	l->stop = 1;
	pthread_mutex_unlock(&l->mu);
	/* wake the thread now (its epoll_wait would return within 100 ms);
	 * the counter stays readable, so a wait that starts later returns too */
	if (write(l->wake, &(uint64_t){ 1 }, sizeof(uint64_t)) < 0) {
		/* (an eventfd write fails only on overflow: the tick still ends it) */
	}
	pthread_join(l->thread, NULL);
	for (unsigned i = 0; i < KW_LINGER_MAX; i++)
		drop(l, i);
	close(l->wake);
	close(l->ep);
	pthread_mutex_destroy(&l->mu);
	free(l);
}
