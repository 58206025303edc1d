/*
 * cli/verify_cli.h - `kwgen verify FILE...`: the wait-count verifier
 * (kwgen/verify.h) on the command line.
 */
#ifndef KWGEN_CLI_VERIFY_H
#define KWGEN_CLI_VERIFY_H

/* argv[0] is "verify".  Returns the exit status: 0 no error finding, 1 an
 * error finding (or a warning with --Werror), 2 unreadable input or usage. */
int kw_cli_verify(int argc, char **argv);

#endif
