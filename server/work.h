/*
 * work.h - the generation worker pool: what runs off libmicrohttpd's
 * polling threads.
 *
 * A request that must generate (a cache miss, a batch) is suspended on its
 * polling thread and handed over as a kw_job.  The pool runs jobs one
 * slice at a time (one batch item, one generation) from a single FIFO:
 * after each slice a job that has more to do goes to the back of the
 * queue, so a 256-item batch and a one-kernel miss take turns instead of
 * the miss waiting for the whole batch.  A job runs on one worker at a
 * time, so one batch never takes more than one worker.
 *
 * The queue itself is not bounded here: admission (--max-inflight, admit.h)
 * bounds the jobs that exist.  Each job carries a deadline (--work-timeout);
 * a job still queued past it is cancelled (its owner answers 503) by the
 * pool's reaper, whether or not a worker is free.
 *
 * Workers run KW_WORK_NICE below the process's CPU priority, so that on a
 * loaded machine the polling threads (hits, health checks) get the CPU
 * first.
 *
 * Tests only: KWGEND_TEST_SLICE_DELAY_MS=N (1..10000) in the environment
 * makes each worker sleep N ms before every slice (off when unset), so
 * tests of --work-timeout and of interleaving do not depend on how fast
 * the machine generates (tests/README.md, "Test hooks").
 *
 * Ownership: the pool never frees a job.  A job belongs to its owner (the
 * suspended request); the pool only links it into its queue.  Once a
 * slice returns KW_JOB_DONE or KW_JOB_PARKED, or cancel has been called,
 * the pool does not touch the job again.
 */
#ifndef KW_SERVER_WORK_H
#define KW_SERVER_WORK_H

#include <stddef.h>

/* What a slice returns. */
enum {
	KW_JOB_MORE = 0,   /* more slices: back of the queue */
	KW_JOB_DONE = 1,   /* finished; the job has answered its owner */
	KW_JOB_PARKED = 2, /* waiting on someone else, who will kw_work_requeue it */
};

/* Why a job is cancelled. */
enum {
	KW_CANCEL_TIMEOUT = 1,  /* queued past its deadline (--work-timeout) */
	KW_CANCEL_SHUTDOWN = 2, /* the pool is stopping (drain over) */
};

/* How much nicer (lower CPU priority) the workers are than the process. */
#define KW_WORK_NICE 5

typedef struct kw_job kw_job;

struct kw_job {
	/* Run one slice on a worker thread; returns KW_JOB_*.  With
	 * KW_JOB_PARKED the job must not be touched by this call after it
	 * has been handed to whoever requeues it. */
	int (*slice)(kw_job *j);
	/* Answer the owner without running (why = KW_CANCEL_*); called once,
	 * on the reaper's, the stopping thread's or a requeuer's thread. */
	void (*cancel)(kw_job *j, int why);
	double deadline;  /* CLOCK_MONOTONIC seconds; 0 = none */
	kw_job *next;     /* the pool's queue link */
};

typedef struct kw_work kw_work;

/* Start nthreads (>= 1) workers and the reaper.  Returns the pool or NULL
 * (out of memory or threads). */
kw_work *kw_work_new(unsigned nthreads);

/* Queue j at the back.  Returns 0, or -1 when the pool is stopping (j is
 * not queued and not cancelled: the caller answers). */
int kw_work_submit(kw_work *w, kw_job *j);

/* Queue a parked job again (its wait is over).  While the pool is
 * stopping, the job is cancelled (KW_CANCEL_SHUTDOWN) instead, on the
 * calling thread. */
void kw_work_requeue(kw_work *w, kw_job *j);

/* Jobs queued now (not running, not parked). */
size_t kw_work_queued(kw_work *w);

/* Stop: refuse new jobs, cancel the queued ones (KW_CANCEL_SHUTDOWN), let
 * the running slices finish and join the threads.  From then on submit
 * returns -1 and requeue cancels.  NULL is a no-op. */
void kw_work_stop(kw_work *w);

/* Free a stopped pool (once nothing can submit or requeue any more, i.e.
 * after the HTTP daemon has stopped).  NULL is a no-op. */
void kw_work_free(kw_work *w);

#endif
