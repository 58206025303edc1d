/* unit_main.c - main of the unit-test program (mk/unit.mk): every
 * tests/unit/test_<name>.c linked into one program, each with its main
 * renamed kw_unit_main_test_<name>; build/tests/test_<name> is a symbolic
 * link to the program, which runs the test its name says, so each test is
 * still a process of its own with its own exit status.
 *
 *   build/tests/test_buf               runs test_buf.c's tests
 *   build/tests/unit-tests test_buf    the same
 *   build/tests/unit-tests             lists the tests, exit 2
 *
 * An unknown name: a message naming the tests, exit 2.
 * KW_UNIT_LIST (unit_list.h, written by make from tests/unit/test_*.c) is
 * X(test_<name>) for each test. */
#include <stdio.h>
#include <string.h>

#include "unit_list.h"

#define X(name) int kw_unit_main_##name(void);
KW_UNIT_LIST
#undef X

static const struct {
	const char *name;
	int (*main)(void);
} tests[] = {
#define X(name) {#name, kw_unit_main_##name},
	KW_UNIT_LIST
#undef X
};

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? slash + 1 : path;
}

static int list(const char *name)
{
	if (name)
		fprintf(stderr, "unit-tests: no test named %s; the tests:", name);
	else
		fprintf(stderr, "unit-tests: name a test (unit-tests TEST, or run it as TEST); the tests:");
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
		fprintf(stderr, " %s", tests[i].name);
	fputc('\n', stderr);
	return 2;
}

int main(int argc, char **argv)
{
	const char *name = argc > 0 ? base_name(argv[0]) : "";
	if (strcmp(name, "unit-tests") == 0) {
		if (argc != 2)
			return list(NULL);
		name = argv[1];
	}
	for (size_t i = 0; i < sizeof tests / sizeof tests[0]; i++)
		if (strcmp(tests[i].name, name) == 0)
			return tests[i].main();
	return list(name);
}
