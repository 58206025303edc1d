/* tests/logic/driver.c - `kwgen logic` as a standalone program, so the
 * logic-import tests run against the same code whether or not the full
 * CLI is built: kwgen-logic ARGS... == kwgen logic ARGS... */
#include "logic.h"

int main(int argc, char **argv)
{
	return kw_cli_logic(argc, argv); /* argv[0] plays the subcommand name */
}
