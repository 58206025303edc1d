/*
 * work.c - the generation worker pool (see work.h): one FIFO of jobs under
 * a mutex, N workers that take a job, run one slice and put it back at the
 * tail if it has more, and a reaper that cancels jobs queued past their
 * deadline.
 */
#include "work.h"
#include "testhook.h"

#include <errno.h>

#include <pthread.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

struct kw_work {
	pthread_mutex_t mu;
	pthread_cond_t cv;      /* a job was queued, or stopping */
	pthread_cond_t reap_cv; /* wakes the reaper early when stopping */
	kw_job *head, *tail;    /* the queue */
	size_t queued;
	int stopping;
	unsigned nthreads;
	pthread_t reaper;
	int have_reaper;
	unsigned started;       /* workers started */
	long slice_delay_ms;    /* KWGEND_TEST_SLICE_DELAY_MS (tests only; 0 = off) */
	pthread_t threads[];
};

static double mono_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Append j to the queue (mutex held). */
static void push(kw_work *w, kw_job *j)
{
	j->next = NULL;
	if (w->tail)
		w->tail->next = j;
	else
		w->head = j;
	w->tail = j;
	w->queued++;
}

static void *worker(void *arg)
{
	kw_work *w = arg;
	id_t tid = (id_t)syscall(SYS_gettid);
	int nice_now;

	/* Below the polling threads: on a machine with fewer cores than
	 * busy threads, the scheduler lets a health check or a hit run before
	 * a generation slice (Linux applies a thread id's nice value to that
	 * thread only; lowering it needs no privilege). */
	errno = 0;
	nice_now = getpriority(PRIO_PROCESS, tid);
	if (errno == 0 && nice_now + KW_WORK_NICE <= 19)
		setpriority(PRIO_PROCESS, tid, nice_now + KW_WORK_NICE);
	pthread_mutex_lock(&w->mu);
	for (;;) {
		kw_job *j;
		int rc;

		while (!w->head && !w->stopping)
			pthread_cond_wait(&w->cv, &w->mu);
		if (!w->head)
			break; /* stopping and nothing queued */
		j = w->head;
		w->head = j->next;
		if (!w->head)
			w->tail = NULL;
		w->queued--;
		pthread_mutex_unlock(&w->mu);
		if (w->slice_delay_ms > 0) {
			struct timespec d = {w->slice_delay_ms / 1000, (w->slice_delay_ms % 1000) * 1000000L};

			while (nanosleep(&d, &d) != 0 && errno == EINTR)
				;
		}
		rc = j->slice(j);
		pthread_mutex_lock(&w->mu);
		if (rc == KW_JOB_MORE) {
			if (w->stopping) {
				pthread_mutex_unlock(&w->mu);
				j->cancel(j, KW_CANCEL_SHUTDOWN);
				pthread_mutex_lock(&w->mu);
			} else {
				push(w, j);
			}
		}
		/* DONE / PARKED: j is not ours any more */
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

/* Cancel the jobs queued past their deadline, every 100 ms. */
static void *reaper(void *arg)
{
	kw_work *w = arg;

	pthread_mutex_lock(&w->mu);
	while (!w->stopping) {
		struct timespec until;
		kw_job *expired = NULL, **pp;
		double now = mono_now();

		for (pp = &w->head; *pp;) {
			kw_job *j = *pp;

			if (j->deadline > 0 && now > j->deadline) {
				*pp = j->next;
				w->queued--;
				j->next = expired;
				expired = j;
			} else {
				pp = &j->next;
			}
		}
		w->tail = NULL;
		for (kw_job *j = w->head; j; j = j->next)
			w->tail = j;
		if (expired) {
			pthread_mutex_unlock(&w->mu);
			while (expired) {
				kw_job *j = expired;

				expired = j->next;
				j->cancel(j, KW_CANCEL_TIMEOUT);
			}
			pthread_mutex_lock(&w->mu);
			continue;
		}
		clock_gettime(CLOCK_REALTIME, &until);
		until.tv_nsec += 100 * 1000 * 1000;
		if (until.tv_nsec >= 1000000000L) {
			until.tv_sec++;
			until.tv_nsec -= 1000000000L;
		}
		pthread_cond_timedwait(&w->reap_cv, &w->mu, &until);
	}
	pthread_mutex_unlock(&w->mu);
	return NULL;
}

kw_work *kw_work_new(unsigned nthreads)
{
	kw_work *w;

	if (nthreads < 1)
		nthreads = 1;
	if (!(w = calloc(1, sizeof(*w) + nthreads * sizeof(pthread_t))))
		return NULL;
	pthread_mutex_init(&w->mu, NULL);
	pthread_cond_init(&w->cv, NULL);
	pthread_cond_init(&w->reap_cv, NULL);
	w->nthreads = nthreads;
	/* KWGEND_TEST_SLICE_DELAY_MS: every worker sleeps N ms before each
	 * slice (a batch provably longer than --work-timeout, a miss provably
	 * shorter than a batch, whatever the machine's speed) */
	w->slice_delay_ms = kw_test_hook_ms("KWGEND_TEST_SLICE_DELAY_MS", 1, 10000);
	for (unsigned i = 0; i < nthreads; i++) {
		if (pthread_create(&w->threads[i], NULL, worker, w) != 0)
			break;
		w->started++;
	}
	if (w->started == nthreads && pthread_create(&w->reaper, NULL, reaper, w) == 0)
		w->have_reaper = 1;
	if (!w->have_reaper) {
		kw_work_stop(w);
		kw_work_free(w);
		return NULL;
	}
	return w;
}

int kw_work_submit(kw_work *w, kw_job *j)
{
	pthread_mutex_lock(&w->mu);
	if (w->stopping) {
		pthread_mutex_unlock(&w->mu);
		return -1;
	}
	push(w, j);
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
	return 0;
}

void kw_work_requeue(kw_work *w, kw_job *j)
{
	pthread_mutex_lock(&w->mu);
	if (w->stopping) {
		pthread_mutex_unlock(&w->mu);
		j->cancel(j, KW_CANCEL_SHUTDOWN);
		return;
	}
	push(w, j);
	pthread_cond_signal(&w->cv);
	pthread_mutex_unlock(&w->mu);
}

size_t kw_work_queued(kw_work *w)
{
	size_t n;

	pthread_mutex_lock(&w->mu);
	n = w->queued;
	pthread_mutex_unlock(&w->mu);
	return n;
}

void kw_work_stop(kw_work *w)
{
	kw_job *q;

	if (!w)
		return;
	pthread_mutex_lock(&w->mu);
	if (w->stopping) {
		pthread_mutex_unlock(&w->mu);
		return;
	}
	w->stopping = 1;
	q = w->head;
	w->head = w->tail = NULL;
	w->queued = 0;
	pthread_cond_broadcast(&w->cv);
	pthread_cond_broadcast(&w->reap_cv);
	pthread_mutex_unlock(&w->mu);
	while (q) {
		kw_job *j = q;

		q = j->next;
		j->cancel(j, KW_CANCEL_SHUTDOWN);
	}
	for (unsigned i = 0; i < w->started; i++)
		pthread_join(w->threads[i], NULL);
	if (w->have_reaper)
		pthread_join(w->reaper, NULL);
	w->started = 0;
	w->have_reaper = 0;
}

void kw_work_free(kw_work *w)
{
	if (!w)
		return;
	pthread_cond_destroy(&w->reap_cv);
	pthread_cond_destroy(&w->cv);
	pthread_mutex_destroy(&w->mu);
	free(w);
}
