/*
 * cli/cache_cli.h - `kwgen cache`: look into a kwgend cache file.
 */
#ifndef KWGEN_CLI_CACHE_H
#define KWGEN_CLI_CACHE_H

/* argv[0] is "cache".  Returns the exit status: 0, 1 (no such key), 2
 * (usage, or the file cannot be read or written). */
int kw_cli_cache(int argc, char **argv);

#endif
