/*
 * child.c - decoding a code object in a child process (kwgen/codeobj.h).
 *
 * LLVM 22's AMDGPU disassembler crashes on some byte sequences (a NULL
 * read in llvm::Twine::printOneChild below LLVMDisasmInstruction, the class
 * of llvm/llvm-project#170318), and any code object's .text can hold them.
 * So kwgen and kwgend never run it in their own process: the parent writes
 * the object to a memfd, posix_spawn()s its own executable (/proc/self/exe)
 * with KW_CODEOBJ_CHILD_ARG, and the child bounds itself (setrlimit: CPU
 * seconds, address space, no core file), decodes with
 * kw_codeobj_disassemble and writes one framed answer on stdout:
 *     "KWCO1 0 <isa> <instructions> <bytes>\n" then the objdump text, or
 *     "KWCO1 <code> <bytes>\n" then the error message (code: KW_E*).
 * Anything else (a signal, a non-zero exit, a short or malformed answer,
 * the wall-clock bound passed) is "undecodable".  posix_spawn (not fork)
 * because kwgend is multithreaded: only exec is safe in a forked child.
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
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "kwgen/buf.h"

extern char **environ;

#define MAGIC "KWCO1 "

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

int kw_codeobj_disassemble_child(const void *data, size_t len, const char *isa, const char *name,
                                 size_t max_insts, const kw_codeobj_child_opts *opts, char **text,
                                 size_t *text_len, char isa_out[KW_CODEOBJ_ISA_MAX], size_t *n_insts,
                                 int *undecodable, kw_error *err)
{
	const char *exe = opts && opts->exe ? opts->exe : "/proc/self/exe";
	unsigned seconds = opts && opts->seconds ? opts->seconds : KW_CODEOBJ_CHILD_SECONDS;
	size_t mem = opts && opts->max_memory ? opts->max_memory : kw_codeobj_child_memory(len, max_insts);
	size_t max_text = opts ? opts->max_text : 0;
	char a_insts[32], a_secs[32], a_mem[32], a_text[32];
	char *argv[] = { (char *)"kwgen-codeobj", (char *)KW_CODEOBJ_CHILD_ARG, (char *)(isa ? isa : "-"),
		         a_insts, a_secs, a_mem, (char *)(name ? name : "code object"), a_text, NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t at;
	sigset_t none, dfl;
	int mfd = -1, pfd[2] = { -1, -1 }, rc, st = 0, timed_out = 0, stopped = 0;
	pid_t pid = -1;
	kw_buf out = KW_BUF_INIT;

	*text = NULL;
	*text_len = 0;
	isa_out[0] = '\0';
	if (n_insts)
		*n_insts = 0;
	*undecodable = 0;
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
	rc = posix_spawn(&pid, exe, &fa, &at, argv, environ);
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

	/* read the answer within the wall-clock bound (twice the CPU bound:
	 * a loaded machine) */
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
		struct pollfd p = { pfd[0], POLLIN, 0 };
		int pr = poll(&p, 1, left > 0.1 ? 100 : (int)(left * 1000) + 1);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr < 0)
			break;
		if (pr == 0)
			continue;
		char chunk[65536];
		ssize_t n = read(pfd[0], chunk, sizeof chunk);
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0)
			break;
		if (out.len + (size_t)n > mem || (max_text && out.len + (size_t)n > max_text + 4096) ||
		    kw_buf_put(&out, chunk, (size_t)n) || out.oom)
			break; /* more than the child could hold: not our child's answer */
	}
	/* harmless if it exited; one that closed stdout but lingers, or
	 * passed the bound, goes */
	kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	pid = -1;

	if (stopped) {
		rc = kw_error_set(err, KW_EIO, NULL, "the decoder process was stopped: stopping");
		goto out;
	}

	/* the frame */
	const char *p = out.p ? out.p : "", *nl = out.len ? memchr(p, '\n', out.len) : NULL;
	char head[160];
	int code = 1;
	unsigned long long ninst = 0, nbytes = 0;
	char isa_buf[KW_CODEOBJ_ISA_MAX] = "";
	int ok = nl && (size_t)(nl - p) < sizeof head && out.len >= sizeof MAGIC - 1 &&
	         memcmp(p, MAGIC, sizeof MAGIC - 1) == 0;
	if (ok) {
		memcpy(head, p, (size_t)(nl - p));
		head[nl - p] = '\0';
		int used = 0;
		if (sscanf(head + 6, "%d%n", &code, &used) != 1)
			ok = 0;
		else if (code == 0)
			ok = sscanf(head + 6 + used, " %31s %llu %llu", isa_buf, &ninst, &nbytes) == 3;
		else
			ok = sscanf(head + 6 + used, " %llu", &nbytes) == 1 && code < 0;
		ok = ok && nbytes == out.len - (size_t)(nl + 1 - p);
	}
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
	const char *body = nl + 1;
	if (code != 0) {
		rc = kw_error_set(err, code, NULL, "%.*s", (int)(nbytes < 511 ? nbytes : 511), body);
		goto out;
	}
	/* the text in place: the header out, the buffer handed over (no
	 * second copy of a text that can be hundreds of MB) */
	memmove(out.p, body, (size_t)nbytes);
	out.len = (size_t)nbytes;
	kw_buf_putc(&out, '\0');
	if (out.oom) {
		rc = kw_error_set(err, KW_ENOMEM, NULL, "out of memory for the disassembly text");
		goto out;
	}
	*text_len = (size_t)nbytes;
	*text = kw_buf_detach(&out);
	snprintf(isa_out, KW_CODEOBJ_ISA_MAX, "%s", isa_buf);
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
	kw_buf_free(&out);
	return rc;
}

static int parse_u64(const char *s, unsigned long long *v)
{
	char *end;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return errno || !*s || *end || *s == '-' ? -1 : 0;
}

int kw_codeobj_child_main(int argc, char **argv)
{
	unsigned long long insts, secs, mem, max_text;
	kw_error err = KW_ERROR_INIT;
	kw_buf in = KW_BUF_INIT;
	char *text = NULL, head[160];
	const char *isa = NULL;
	size_t len = 0, n = 0;
	int rc;

	if (argc != 8 || parse_u64(argv[3], &insts) || parse_u64(argv[4], &secs) || parse_u64(argv[5], &mem) ||
	    parse_u64(argv[7], &max_text)) {
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
#endif
	for (;;) {
		char chunk[65536];
		ssize_t r = read(0, chunk, sizeof chunk);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			kw_error_set(&err, KW_EIO, NULL, "the decoder process cannot read the code object: %s",
			             strerror(errno));
			break;
		}
		if (r == 0)
			break;
		if (kw_buf_put(&in, chunk, (size_t)r) || in.oom) {
			kw_error_set(&err, KW_ENOMEM, NULL, "out of memory for the code object");
			break;
		}
	}
	if (err.code)
		rc = err.code;
	else
		rc = kw_codeobj_disassemble(in.p ? in.p : "", in.len, strcmp(argv[2], "-") ? argv[2] : NULL, argv[6],
		                            (size_t)insts, (size_t)max_text, &text, &len, &isa, &n, &err);
	kw_buf_free(&in);
	if (rc == 0) {
		snprintf(head, sizeof head, MAGIC "0 %s %zu %zu\n", isa, n, len);
		rc = write_all(1, head, strlen(head)) || write_all(1, text, len) ? 1 : 0;
	} else {
		const char *m = err.message[0] ? err.message : kw_error_code_name(rc);
		snprintf(head, sizeof head, MAGIC "%d %zu\n", rc, strlen(m));
		rc = write_all(1, head, strlen(head)) || write_all(1, m, strlen(m)) ? 1 : 0;
	}
	free(text);
	/* _exit: LLVM's static destructors have nothing to give back */
	_exit(rc);
}
