/*
 * cli/logic.h - `kwgen logic`: import a Tensile / hipBLASLt library-logic
 * YAML file, turn every solution into a kwgen request, and print the
 * requests as JSON lines or post them to a kwgend daemon in batches.
 */
#ifndef KWGEN_CLI_LOGIC_H
#define KWGEN_CLI_LOGIC_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Entry point of the `logic` subcommand.
 *
 * argv[0] is the subcommand name ("logic"); the dispatcher calls
 * kw_cli_logic(argc - 1, argv + 1).  For convenience a vector that still
 * starts with the program name followed by "logic" is accepted as well.
 *
 *   kwgen logic [--server URL] [--batch N] [--unique] [--isa GFX]
 *               [--generators a,b,...] [--progress|--no-progress] [--quiet]
 *               [-o FILE] FILE.yaml [FILE.yaml ...]
 *
 * Returns the process exit status: 0 all solutions converted (and, with
 * --server, answered), 1 some solutions failed (derivation or server
 * error; each is reported on stderr), 2 usage error or an unreadable /
 * malformed file (the message gives file:line:column).
 */
int kw_cli_logic(int argc, char **argv);

#ifdef __cplusplus
}
#endif
#endif
