/*
 * linger.c - the lingering-close thread (see linger.h).  Sockets come in
 * through a mutex-guarded array; the thread polls them with epoll and
 * checks deadlines every 100 ms.
 */
#include "linger.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

typedef struct slot {
	int fd;          /* -1 = free */
	double deadline; /* CLOCK_MONOTONIC seconds */
	size_t read;     /* bytes discarded so far */
} slot;

struct kw_linger {
	pthread_mutex_t mu;
	int ep;            /* epoll; data.u32 = slot index */
	int stop;
	unsigned seconds;
	size_t max_bytes;
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
			slot *s = &l->slots[i];

			if (i >= KW_LINGER_MAX || s->fd < 0)
				continue;
			for (;;) {
				ssize_t got = recv(s->fd, sink, sizeof(sink), MSG_DONTWAIT);

				if (got > 0) {
					s->read += (size_t)got;
					if (s->read >= l->max_bytes) {
						drop(l, i);
						break;
					}
					continue;
				}
				if (got < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
					break;
				drop(l, i); /* EOF or an error: the client is done */
				break;
			}
		}
		for (unsigned i = 0; i < KW_LINGER_MAX; i++)
			if (l->slots[i].fd >= 0 && now > l->slots[i].deadline)
				drop(l, i);
		pthread_mutex_unlock(&l->mu);
	}
	return NULL;
}

kw_linger *kw_linger_new(unsigned seconds, size_t max_bytes)
{
	kw_linger *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	for (unsigned i = 0; i < KW_LINGER_MAX; i++)
		l->slots[i].fd = -1;
	l->seconds = seconds;
	l->max_bytes = max_bytes;
	pthread_mutex_init(&l->mu, NULL);
	if ((l->ep = epoll_create1(EPOLL_CLOEXEC)) < 0) {
		pthread_mutex_destroy(&l->mu);
		free(l);
		return NULL;
	}
	if (pthread_create(&l->thread, NULL, run, l) != 0) {
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
	l->slots[i] = (slot){ fd, mono_now() + (double)l->seconds, 0 };
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
	pthread_join(l->thread, NULL);
	for (unsigned i = 0; i < KW_LINGER_MAX; i++)
		drop(l, i);
	close(l->ep);
	pthread_mutex_destroy(&l->mu);
	free(l);
}
