/*
 * child.c - decoding a code object in a child process (kwgen/codeobj.h).
 *
 * LLVM 22's AMDGPU disassembler crashes on some byte sequences (a NULL
 * read in llvm::Twine::printOneChild below LLVMDisasmInstruction, the class
 * of llvm/llvm-project#170318), and any code object's .text can hold them.
 * So kwgen and kwgend never run it in their own process (in-process
 * decoding would be faster by one process start, but a crash there would
 * take kwgend down with every request it serves): the parent writes
 * the object to a memfd, posix_spawn()s its own executable (/proc/self/exe)
 * with KW_CODEOBJ_CHILD_ARG (or, single-threaded kwgen verify, forks), and
 * the child bounds itself (setrlimit: CPU seconds, address space, no core
 * file), maps the object, decodes with kw_codeobj_disassemble_to and writes
 * its answer on stdout as it goes:
 *     "KWCO2 <isa>\n" ("-" when it failed before knowing it), the text in
 *     64 KiB pieces (it holds no NUL), then "\0<code> <instructions>
 *     <bytes> <field or ->\n" and, for an error (code: KW_E*), its message.
 * The parent reads the text straight into its consumer (kw_verify_stream's
 * chunks: the lines are read while the child decodes the next ones) and
 * checks the trailer: <bytes> must be what came.  Anything else (a signal,
 * a non-zero exit, a short or malformed answer, the wall-clock bound
 * passed) is "undecodable".  posix_spawn (not fork) for kwgend: it is
 * multithreaded, and only exec is safe in a forked child of such a process.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE /* memfd_create, pipe2 */
#endif
#include "kwgen/codeobj.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kwgen/buf.h"
#include "kwgen/verify.h"

extern char **environ;

#define MAGIC "KWCO2 "

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define KW_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define KW_SANITIZED 1
#endif
#endif

/* Set by kw_codeobj_child_stop_all: every decode waiting on a child (and
 * every later one) kills its child and returns KW_EIO at once. */
static atomic_int stop_all;

void kw_codeobj_child_stop_all(void)
{
	atomic_store(&stop_all, 1);
}

size_t kw_codeobj_child_memory(size_t len, size_t max_insts)
{
	/* libLLVM maps ~150 MB; the input, and the text: an instruction is
	 * at least 4 bytes and its line at most ~700 (512 of text, address,
	 * words, a branch target's symbol). */
	size_t insts = len / 4 + 1;
	if (max_insts && max_insts < insts)
		insts = max_insts;
	if (insts > (SIZE_MAX / 2 - len) / 1024)
		return 0;
	return ((size_t)1 << 30) + 2 * len + insts * 1024;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static int write_all(int fd, const void *p, size_t n)
{
	const char *c = p;
	while (n) {
		ssize_t w = write(fd, c, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		c += w;
		n -= (size_t)w;
	}
	return 0;
}

static const char *signame(int sig)
{
	switch (sig) {
	case SIGSEGV: return "SIGSEGV";
	case SIGBUS: return "SIGBUS";
	case SIGABRT: return "SIGABRT";
	case SIGILL: return "SIGILL";
	case SIGFPE: return "SIGFPE";
	case SIGKILL: return "SIGKILL";
	case SIGXCPU: return "SIGXCPU";
	default: return "a signal";
	}
}

/* What the parent does with the text as it comes: the ISA first, then
 * the text written where space() says and commit()ted. */
typedef struct consumer {
	int (*start)(void *ctx, const char *isa, kw_error *err);
	int (*space)(void *ctx, char **p, size_t *avail, kw_error *err);
	int (*commit)(void *ctx, size_t n, kw_error *err);
	void *ctx;
} consumer;

/* Copy n bytes into the consumer. */
static int consume(const consumer *c, const char *p, size_t n, kw_error *err)
{
	while (n) {
		char *q;
		size_t avail;
		int rc = c->space(c->ctx, &q, &avail, err);
		if (rc)
			return rc;
		if (avail > n)
			avail = n;
		memcpy(q, p, avail);
		if ((rc = c->commit(c->ctx, avail, err)) != 0)
			return rc;
		p += avail;
		n -= avail;
	}
	return 0;
}

#define TRAILER_MAX 1024 /* the answer after the text: numbers and a message */

/* Run the decoder process on data and hand its text to c as it comes (the
 * framing: child_main).  *undecodable: it crashed, passed a bound or gave
 * no complete answer; *decoder: the error is the decoder's own answer
 * (its code and message); else the error is c's or starting the child. */
static int run_child(const void *data, size_t len, const char *isa, const char *name, size_t max_insts,
                     const kw_codeobj_child_opts *opts, int compact, const consumer *c,
                     char isa_out[KW_CODEOBJ_ISA_MAX], size_t *n_insts, int *undecodable, int *decoder,
                     kw_error *err)
{
	const char *exe = opts && opts->exe ? opts->exe : "/proc/self/exe";
	unsigned seconds = opts && opts->seconds ? opts->seconds : KW_CODEOBJ_CHILD_SECONDS;
	size_t mem = opts && opts->max_memory ? opts->max_memory : kw_codeobj_child_memory(len, max_insts);
	size_t max_text = opts ? opts->max_text : 0;
	char a_insts[32], a_secs[32], a_mem[32], a_text[32];
	char *argv[] = { (char *)"kwgen-codeobj", (char *)KW_CODEOBJ_CHILD_ARG, (char *)(isa ? isa : "-"),
		         a_insts, a_secs, a_mem, (char *)(name ? name : "code object"), a_text,
		         (char *)(compact == 2 ? "2" : compact ? "1" : "0"), NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	int mfd = -1, pfd[2] = { -1, -1 }, rc = 0, st = 0, timed_out = 0, stopped = 0, phase = 0, failed = 0;
	pid_t pid = -1;
	char head[160], trailer[TRAILER_MAX + 1];
	size_t nhead = 0, ntrailer = 0, ntext = 0;

	isa_out[0] = '\0';
	if (n_insts)
		*n_insts = 0;
	*undecodable = 0;
	*decoder = 0;
	snprintf(a_insts, sizeof a_insts, "%zu", max_insts);
	snprintf(a_secs, sizeof a_secs, "%u", seconds);
	snprintf(a_mem, sizeof a_mem, "%zu", mem);
	snprintf(a_text, sizeof a_text, "%zu", max_text);
	if (atomic_load(&stop_all))
		return kw_error_set(err, KW_EIO, NULL, "the decoder process was not started: stopping");

	mfd = memfd_create("kwgen-code-object", MFD_CLOEXEC);
	if (mfd < 0 || write_all(mfd, data, len) < 0 || lseek(mfd, 0, SEEK_SET) != 0 ||
	    pipe2(pfd, O_CLOEXEC) < 0) {
		rc = kw_error_set(err, KW_EIO, NULL, "cannot hand the code object to the decoder process: %s",
		                  strerror(errno));
		goto out;
	}
	/* 1 MiB of pipe (the most an unprivileged process may ask;
	 * 64 KiB if refused): the decoder writes 64 KiB pieces without
	 * waiting for each to be read, and the reader takes several at once */
	fcntl(pfd[1], F_SETPIPE_SZ, 1 << 20);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, mfd, 0);
	posix_spawn_file_actions_adddup2(&fa, pfd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
	/* nothing else of the caller's (kwgend's sockets, the cache file) */
	posix_spawn_file_actions_addclosefrom_np(&fa, 3);
#endif
	posix_spawnattr_init(&at);
	sigemptyset(&none);
	sigemptyset(&dfl);
	sigaddset(&dfl, SIGPIPE);
	sigaddset(&dfl, SIGHUP);
	sigaddset(&dfl, SIGINT);
	sigaddset(&dfl, SIGTERM);
	sigaddset(&dfl, SIGCHLD);
	sigaddset(&dfl, SIGXCPU);
	posix_spawnattr_setsigmask(&at, &none);
	posix_spawnattr_setsigdefault(&at, &dfl);
	posix_spawnattr_setflags(&at, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
	if (opts && opts->fork) {
		/* the same child without exec: it has kwgen's libraries and
		 * libLLVM, loaded here once for every child (a single-threaded
		 * caller only); when that fails the child says why */
		kw_codeobj_load_llvm(NULL);
		pid = fork();
		if (pid == 0) {
			struct sigaction dfl_act;
			memset(&dfl_act, 0, sizeof dfl_act);
			dfl_act.sa_handler = SIG_DFL;
			for (int sig = 1; sig < NSIG; sig++)
				if (sigismember(&dfl, sig))
					sigaction(sig, &dfl_act, NULL);
			sigprocmask(SIG_SETMASK, &none, NULL);
			int nul = open("/dev/null", O_WRONLY);
			if (dup2(mfd, 0) < 0 || dup2(pfd[1], 1) < 0 || nul < 0 || dup2(nul, 2) < 0)
				_exit(127);
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 34))
			closefrom(3);
#endif
			_exit(kw_codeobj_child_main((int)(sizeof argv / sizeof argv[0]) - 1, argv));
		}
		rc = pid < 0 ? errno : 0;
	} else {
		rc = posix_spawn(&pid, exe, &fa, &at, argv, environ);
	}
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&at);
	close(pfd[1]);
	pfd[1] = -1;
	close(mfd);
	mfd = -1;
	if (rc) {
		pid = -1;
		rc = kw_error_set(err, KW_EIO, NULL, "cannot start the decoder process (%s): %s", exe, strerror(rc));
		goto out;
	}

	/* read the answer as it comes, within the wall-clock bound (twice
	 * the CPU bound: a loaded machine).  phase 0: the header line; 1:
	 * the text, read straight into the consumer's space; 2: after the
	 * NUL that ends it, the trailer. */
	double deadline = now() + 2.0 * seconds + 1.0;
	for (;;) {
		double left = deadline - now();
		if (left <= 0) {
			timed_out = 1;
			break;
		}
		if (atomic_load(&stop_all)) {
			stopped = 1;
			break;
		}
		/* 100 ms at most: kw_codeobj_child_stop_all is seen that soon */
		struct pollfd pl = { pfd[0], POLLIN, 0 };
		int pr = poll(&pl, 1, left > 0.1 ? 100 : (int)(left * 1000) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			break;
		if (pr == 0)
			continue;
		char local[4096], *buf = local;
		size_t cap = sizeof local;
		if (phase == 0) {
			buf = head + nhead;
			cap = sizeof head - 1 - nhead;
		} else if (phase == 1 && isa_out[0]) {
			/* (without an ISA, an error's header: only the trailer
			 * may follow, read into local) */
			if ((rc = c->space(c->ctx, &buf, &cap, err)) != 0) {
				failed = 1;
				break;
			}
		} else {
			buf = trailer + ntrailer;
			cap = TRAILER_MAX - ntrailer;
		}
		if (cap == 0)
			break; /* a header or trailer longer than ours: not our child's answer */
		ssize_t n = read(pfd[0], buf, cap);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		if (phase == 0) {
			nhead += (size_t)n;
			char *nl = memchr(head, '\n', nhead);
			if (!nl)
				continue;
			*nl = '\0';
			char isa_buf[KW_CODEOBJ_ISA_MAX];
			if (strncmp(head, MAGIC, sizeof MAGIC - 1) || sscanf(head + 6, "%31s", isa_buf) != 1)
				break;
			phase = 1;
			if (strcmp(isa_buf, "-")) {
				snprintf(isa_out, KW_CODEOBJ_ISA_MAX, "%s", isa_buf);
				if ((rc = c->start(c->ctx, isa_out, err)) != 0) {
					failed = 1;
					break;
				}
			}
			/* what came after the header: text, maybe the NUL and the trailer */
			size_t rest = nhead - (size_t)(nl + 1 - head);
			char *z = memchr(nl + 1, 0, rest);
			size_t t = z ? (size_t)(z - (nl + 1)) : rest;
			if (t && (!isa_out[0] || (rc = consume(c, nl + 1, t, err)) != 0)) {
				failed = rc != 0;
				break;
			}
			ntext += t;
			if (z) {
				phase = 2;
				ntrailer = rest - t - 1;
				memcpy(trailer, z + 1, ntrailer);
			}
			continue;
		}
		if (phase == 1) {
			char *z = memchr(buf, 0, (size_t)n);
			size_t t = z ? (size_t)(z - buf) : (size_t)n;
			if (t && !isa_out[0])
				break; /* text after an error header: not our child's answer */
			if (t && (rc = c->commit(c->ctx, t, err)) != 0) {
				failed = 1;
				break;
			}
			ntext += t;
			if (z) {
				phase = 2;
				ntrailer = (size_t)n - t - 1;
				memmove(trailer, z + 1, ntrailer);
			}
			continue;
		}
		ntrailer += (size_t)n;
	}
	/* harmless if it exited; one that closed stdout but lingers, or
	 * passed a bound, or whose text the consumer refused, goes */
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	pid = -1;

	if (stopped) {
		rc = kw_error_set(err, KW_EIO, NULL, "the decoder process was stopped: stopping");
		goto out;
	}
	if (failed)
		goto out; /* the consumer's error (a bound of the verification, a bad line) */

	/* the trailer: "<code> <instructions> <text bytes>\n" then the
	 * message of an error */
	trailer[ntrailer] = '\0';
	int code = 1, used = 0;
	unsigned long long ninst = 0, nbytes = 0;
	char *tnl = phase == 2 ? memchr(trailer, '\n', ntrailer) : NULL;
	char field[32] = "-";
	int ok = tnl && sscanf(trailer, "%d %llu %llu %31s%n", &code, &ninst, &nbytes, field, &used) == 4 &&
	         trailer + used == tnl && nbytes == ntext && code <= 0 && (code < 0 || isa_out[0]);
	/* a complete answer counts even if the child was then killed by our
	 * SIGKILL above (it had nothing left to do) */
	if (!ok || timed_out) {
		*undecodable = 1;
		if (timed_out)
			rc = kw_error_set(err, KW_EINVAL, NULL,
			                  "cannot decode the code object: LLVM's AMDGPU disassembler took more than %.0f s "
			                  "(the bound); it was stopped",
			                  2.0 * seconds + 1.0);
		else if (WIFSIGNALED(st) && WTERMSIG(st) != SIGKILL)
			rc = kw_error_set(err, KW_EINVAL, NULL,
			                  "cannot decode the code object: LLVM's AMDGPU disassembler crashed on it "
			                  "(%s in the decoder process; bounds %u s CPU, %zu MiB)",
			                  signame(WTERMSIG(st)), seconds, mem >> 20);
		else
			rc = kw_error_set(err, KW_EINVAL, NULL,
			                  "cannot decode the code object: the decoder process failed (%s %d, no answer; "
			                  "bounds %u s CPU, %zu MiB: a crash in LLVM's AMDGPU disassembler or out of memory)",
			                  WIFEXITED(st) ? "exit status" : "signal",
			                  WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st), seconds, mem >> 20);
		goto out;
	}
	if (code != 0) {
		*decoder = 1;
		rc = kw_error_set(err, code, strcmp(field, "-") ? field : NULL, "%s", tnl + 1);
		goto out;
	}
	if (n_insts)
		*n_insts = (size_t)ninst;
	rc = 0;
out:
	if (pid > 0) {
		kill(pid, SIGKILL);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
	}
	if (mfd >= 0)
		close(mfd);
	if (pfd[0] >= 0)
		close(pfd[0]);
	if (pfd[1] >= 0)
		close(pfd[1]);
	return rc;
}

/* ---- the text verified as it comes (kw_codeobj_verify_child) ---- */

typedef struct stream_ctx {
	const kw_verify_opts *o;
	kw_verify_stream *s;
} stream_ctx;

static int stream_start(void *ctx, const char *isa, kw_error *err)
{
	stream_ctx *sc = ctx;
	kw_verify_opts o = *sc->o;
	o.isa = isa;
	return kw_verify_stream_new(&sc->s, &o, err);
}

static int stream_space(void *ctx, char **p, size_t *avail, kw_error *err)
{
	stream_ctx *sc = ctx;
	return kw_verify_stream_space(sc->s, 4096, p, avail, err);
}

static int stream_commit(void *ctx, size_t n, kw_error *err)
{
	stream_ctx *sc = ctx;
	return kw_verify_stream_commit(sc->s, n, err);
}

int kw_codeobj_verify_child(const void *data, size_t len, const char *isa, const char *name, size_t max_insts,
                            const kw_codeobj_child_opts *opts, const struct kw_verify_opts *vo,
                            struct kw_verify_result **out, char isa_out[KW_CODEOBJ_ISA_MAX], int *undecodable,
                            int *decoder, kw_error *err)
{
	kw_verify_opts def = KW_VERIFY_OPTS_INIT;
	stream_ctx sc = { vo ? vo : &def, NULL };
	consumer c = { stream_start, stream_space, stream_commit, &sc };
	kw_codeobj_child_opts co = opts ? *opts : (kw_codeobj_child_opts){ NULL, 0, 0, 0, 0 };

	*out = NULL;
	/* the bound on the text the decoder hands on, so that a text made
	 * huge by names repeated in every line is refused there, before it
	 * is all read: half the verification's bound (vo->max_memory; the
	 * rest for the instructions read from it and the analysis: 422
	 * limit) or, when lower, the decoder's own, what its address space would
	 * have had to hold of it (2 x the object + 1 KiB per instruction
	 * + 256 MiB: KW_ENOMEM, undecodable) */
	int mode = 1;
	if (!co.max_text) {
		size_t m = kw_codeobj_child_memory(len, max_insts);
		size_t budget = sc.o->max_memory ? sc.o->max_memory
		              : len > (SIZE_MAX - ((size_t)96 << 20)) / 16 ? SIZE_MAX : 16 * len + ((size_t)96 << 20);
		co.max_text = m > ((size_t)1 << 30) ? m - ((size_t)1 << 30) + ((size_t)256 << 20) : (size_t)256 << 20;
		if (budget / 2 < co.max_text) {
			co.max_text = budget / 2;
			mode = 2;
		}
	}
	int rc = run_child(data, len, isa, name, max_insts, &co, mode, &c, isa_out, NULL, undecodable, decoder, err);
	if (!rc && !sc.s)
		rc = kw_error_set(err, KW_EINTERNAL, NULL, "the decoder process gave no ISA");
	if (!rc)
		rc = kw_verify_stream_finish(sc.s, out, err);
	kw_verify_stream_free(sc.s);
	return rc;
}

static int parse_u64(const char *s, unsigned long long *v)
{
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || !*s || *end || *s == '-' ? -1 : 0;
}

typedef struct child_out {
	const char *isa;   /* set by kw_codeobj_disassemble_to before its first piece */
	int headed;        /* the header line is out */
	size_t sent;       /* bytes of text written */
} child_out;

static int child_header(child_out *o)
{
	char head[64];
	if (o->headed)
		return 0;
	o->headed = 1;
	snprintf(head, sizeof head, MAGIC "%s\n", o->isa ? o->isa : "-");
	return write_all(1, head, strlen(head)) ? KW_EIO : 0;
}

static int child_put(void *ctx, const char *p, size_t n)
{
	child_out *o = ctx;
	if (child_header(o) || write_all(1, p, n))
		return KW_EIO; /* the parent stopped reading: nothing to tell it */
	o->sent += n;
	return 0;
}

int kw_codeobj_child_main(int argc, char **argv)
{
	unsigned long long insts, secs, mem, max_text;
	kw_error err = KW_ERROR_INIT;
	kw_buf in = KW_BUF_INIT;
	child_out o = { NULL, 0, 0 };
	kw_codeobj_sink sink = { child_put, &o };
	const void *data = NULL;
	size_t len = 0, n = 0;
	struct stat sb;
	void *map = MAP_FAILED;
	char tail[160];
	int rc;

	/* argv[8]: 0 llvm-objdump's text, 1 compact text whose bound
	 * (max_text) is this process's own (past it KW_ENOMEM), 2 compact
	 * text whose bound is the verification's (KW_ELIMIT "max_memory") */
	if (argc != 9 || parse_u64(argv[3], &insts) || parse_u64(argv[4], &secs) || parse_u64(argv[5], &mem) ||
	    parse_u64(argv[7], &max_text) || (strcmp(argv[8], "0") && strcmp(argv[8], "1") && strcmp(argv[8], "2"))) {
		fputs("kwgen: internal decoder mode: bad arguments\n", stderr);
		return 2;
	}
	struct rlimit no_core = { 0, 0 }, cpu = { (rlim_t)secs, (rlim_t)secs + 1 };
	setrlimit(RLIMIT_CORE, &no_core);
	if (secs)
		setrlimit(RLIMIT_CPU, &cpu);
#ifndef KW_SANITIZED /* sanitizers reserve terabytes of address space */
	if (mem) {
		struct rlimit as = { (rlim_t)mem, (rlim_t)mem };
		setrlimit(RLIMIT_AS, &as);
	}
#else
	/* a crash in LLVM's disassembler ends this process by its signal, as
	 * in the release build (the parent names the signal): the sanitizers'
	 * handlers, inherited or installed at start, would symbolize a report
	 * that goes to /dev/null (~0.25 s of CPU) and exit 1 instead */
	signal(SIGSEGV, SIG_DFL);
	signal(SIGBUS, SIG_DFL);
	signal(SIGFPE, SIG_DFL);
	signal(SIGILL, SIG_DFL);
#endif
	/* the object: the parent's memfd, mapped (read if stdin is not one) */
	if (fstat(0, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0 &&
	    (map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, 0, 0)) != MAP_FAILED) {
		data = map;
		len = (size_t)sb.st_size;
	}
	while (!data) {
		char chunk[65536];
		ssize_t r = read(0, chunk, sizeof chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			kw_error_set(&err, KW_EIO, NULL, "the decoder process cannot read the code object: %s",
			             strerror(errno));
			break;
		}
		if (r == 0) {
			data = in.p ? in.p : "";
			len = in.len;
			break;
		}
		if (kw_buf_put(&in, chunk, (size_t)r) || in.oom) {
			kw_error_set(&err, KW_ENOMEM, NULL, "out of memory for the code object");
			break;
		}
	}
	if (err.code)
		rc = err.code;
	else
		rc = kw_codeobj_disassemble_to(data, len, strcmp(argv[2], "-") ? argv[2] : NULL, argv[6],
		                               (size_t)insts, (size_t)max_text, argv[8][0] != '0', &sink, &o.isa,
		                               &n, &err);
	if (rc == KW_ELIMIT && !strcmp(err.field, "max_memory") && argv[8][0] == '1')
		/* the bound the parent gave the text: what this process's
		 * address space would have had to hold of it */
		kw_error_set(&err, rc = KW_ENOMEM, NULL,
		             "the decoded text passes the decoder process's memory bound of %llu MiB (twice the "
		             "code object + 1 KiB per instruction it can hold + 256 MiB; a long symbol name in "
		             "every line?)",
		             max_text >> 20);
	/* the text ends at a NUL (it holds none), then the trailer:
	 * "<code> <instructions> <text bytes>\n" and an error's message */
	if (rc == 0 || rc != KW_EIO || !o.headed) {
		const char *m = rc == 0 ? "" : err.message[0] ? err.message : kw_error_code_name(rc);
		int w = child_header(&o);
		tail[0] = '\0';
		snprintf(tail + 1, sizeof tail - 1, "%d %zu %zu %s\n", rc, n, o.sent,
		         rc && err.field[0] && !strchr(err.field, ' ') ? err.field : "-");
		rc = w || write_all(1, tail, 1 + strlen(tail + 1)) || write_all(1, m, strlen(m)) ? 1 : 0;
	} else {
		rc = 1;
	}
	if (map != MAP_FAILED)
		munmap(map, len);
	kw_buf_free(&in);
	/* _exit: LLVM's static destructors have nothing to give back */
	_exit(rc);
}
