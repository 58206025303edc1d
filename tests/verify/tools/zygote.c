/* zygote.c - run one LLVM tool (llvm-mc-22, ld.lld-22) many times from one
 * loaded process, for the verify suites (tests/verify/batch.py).
 *
 * A run of llvm-mc-22 or ld.lld-22 on a small kernel spends ~80 ms of its
 * ~100 ms of CPU in the dynamic loader relocating libLLVM.so; the suites
 * run them hundreds of times.  Loaded with LD_PRELOAD and
 * KWGEN_TOOL_ZYGOTE=1 in the environment, this library takes the tool's
 * __libc_start_main: once every library and the tool itself are relocated
 * and their constructors have run, instead of main it serves requests on
 * stdin, and for each forks a child that calls the tool's untouched main
 * with the request's arguments: the child is the process a fresh exec
 * would be at main, without the loading.  Without KWGEN_TOOL_ZYGOTE the
 * tool runs as usual.
 *
 * Request (stdin): NUL-terminated strings, an empty one ends the request:
 *     timeout seconds, working directory, stdin file, stdout file,
 *     stderr file, argv[0], argv[1], ...
 * The child reads the stdin file, writes its stdout and stderr to the
 * files (created or truncated), and gets SIGALRM after the timeout.
 * First line on stdout: "zygote ready" (a tool that did not load this
 * library says something else or nothing).
 * Reply (stdout): one line per request, "exit N" or "signal N".
 * End of stdin: the zygote exits 0.
 *
 * KWGEN_TOOL_ZYGOTE_QUICK_EXIT=1 in the zygote's environment (for a tool
 * whose outputs are complete when main returns: llvm-mc-22 closes its
 * output file, a ToolOutputFile local to main, before it returns): a child
 * flushes stdio and leaves with _exit once main has returned, without the
 * atexit handlers and static destructors.  Those only free memory (in
 * libLLVM thousands of command-line options and registries), and writing
 * pages shared with the zygote copies each one: ~200 page faults and
 * ~20 ms of CPU of an ~80 ms llvm-mc run on a small kernel
 * (tests/verify/tool_cache.py uses it and checks an object against a
 * fresh llvm-mc's).
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

typedef int (*main_fn)(int, char **, char **);
typedef int (*start_fn)(main_fn, int, char **, void (*)(void), void (*)(void), void (*)(void), void *);

static main_fn tool_main;

/* One request into buf (strings kept there), argv pointing into it:
 * -> number of strings, 0 at end of input, -1 on a malformed request. */
static int read_request(char **buf, size_t *cap, char ***argv, size_t *argc_cap)
{
	size_t len = 0, n = 0;
	int c;
	for (;;) {
		c = getchar();
		if (c == EOF)
			return (len == 0) ? 0 : -1;
		if (len + 1 >= *cap) {
			size_t ncap = *cap ? *cap * 2 : 4096;
			char *nb = realloc(*buf, ncap);
			if (!nb)
				return -1;
			*buf = nb;
			*cap = ncap;
		}
		(*buf)[len++] = (char)c;
		if (c == '\0') {
			if (len == 1 || (*buf)[len - 2] == '\0')
				break; /* an empty string ends the request */
		}
	}
	/* split: every string before the final empty one */
	for (size_t i = 0; i + 1 < len; i += strlen(*buf + i) + 1) {
		if (n + 2 > *argc_cap) {
			size_t ncap = *argc_cap ? *argc_cap * 2 : 64;
			char **na = realloc(*argv, ncap * sizeof(char *));
			if (!na)
				return -1;
			*argv = na;
			*argc_cap = ncap;
		}
		(*argv)[n++] = *buf + i;
	}
	(*argv)[n] = NULL;
	return (int)n;
}

static int redirect(const char *path, int fd, int flags)
{
	int f = open(path, flags, 0644);
	if (f < 0)
		return -1;
	if (f != fd) {
		if (dup2(f, fd) < 0)
			return -1;
		close(f);
	}
	return 0;
}

static int serve(int argc, char **argv, char **envp)
{
	(void)argc;
	(void)argv;
	char *buf = NULL, **args = NULL;
	size_t cap = 0, acap = 0;
	int n;
	const char *q = getenv("KWGEN_TOOL_ZYGOTE_QUICK_EXIT");
	int quick = q && strcmp(q, "1") == 0;
	/* the children must not inherit the request channel as their stdin,
	 * nor run as zygotes themselves (a tool that runs another one) */
	unsetenv("KWGEN_TOOL_ZYGOTE");
	unsetenv("KWGEN_TOOL_ZYGOTE_QUICK_EXIT");
	unsetenv("LD_PRELOAD");
	printf("zygote ready\n");
	fflush(stdout);
	while ((n = read_request(&buf, &cap, &args, &acap)) != 0) {
		if (n < 6) {
			printf("error malformed request\n");
			fflush(stdout);
			return 2;
		}
		fflush(stdout);
		pid_t pid = fork();
		if (pid < 0) {
			printf("error fork: %s\n", strerror(errno));
			fflush(stdout);
			continue;
		}
		if (pid == 0) {
			if (chdir(args[1]) != 0 || redirect(args[2], 0, O_RDONLY) != 0 ||
			    redirect(args[3], 1, O_WRONLY | O_CREAT | O_TRUNC) != 0 ||
			    redirect(args[4], 2, O_WRONLY | O_CREAT | O_TRUNC) != 0)
				_exit(127);
			alarm((unsigned)atoi(args[0]));
			int rc = tool_main(n - 5, args + 5, envp);
			if (quick) {
				fflush(NULL);
				_exit(rc);
			}
			exit(rc);
		}
		int st;
		while (waitpid(pid, &st, 0) < 0) {
			if (errno != EINTR) {
				st = 127 << 8;
				break;
			}
		}
		if (WIFSIGNALED(st))
			printf("signal %d\n", WTERMSIG(st));
		else
			printf("exit %d\n", WEXITSTATUS(st));
		fflush(stdout);
	}
	free(buf);
	free(args);
	return 0;
}

int __libc_start_main(main_fn main, int argc, char **argv, void (*init)(void), void (*fini)(void),
		      void (*rtld_fini)(void), void *stack_end);

int __libc_start_main(main_fn main, int argc, char **argv, void (*init)(void), void (*fini)(void),
		      void (*rtld_fini)(void), void *stack_end)
{
	start_fn real = (start_fn)dlsym(RTLD_NEXT, "__libc_start_main");
	const char *on = getenv("KWGEN_TOOL_ZYGOTE");
	if (on && strcmp(on, "1") == 0) {
		tool_main = main;
		return real(serve, argc, argv, init, fini, rtld_fini, stack_end);
	}
	return real(main, argc, argv, init, fini, rtld_fini, stack_end);
}
