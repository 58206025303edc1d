/*
 * kwgen - command-line front end of libkwgen.
 *
 *   kwgen [FILE]            one request (oracle or farm form) -> answer on stdout
 *   kwgen --batch [FILE]    JSON lines in, one compact answer per line out
 *   kwgen --canonical [FILE] print the canonical request, config_id and key
 *   kwgen logic FILE.yaml   import a Tensile logic file (cli/logic.c)
 *   kwgen --help
 */
#include "kwgen/request.h"
#include "logic.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *f)
{
	fputs("usage: kwgen [--batch] [--line-buffered] [FILE]\n"
	      "       kwgen --canonical [FILE]\n"
	      "       kwgen logic FILE.yaml [--server URL] ...   (kwgen logic --help)\n"
	      "       kwgen --help\n"
	      "\n"
	      "Generates AMDGPU assembly exactly as Tensile's KernelWriterModules does.\n"
	      "\n"
	      "Single mode (default): reads ONE JSON request from FILE or stdin and prints\n"
	      "the answer as pretty JSON; exits 1 if the answer is an error.\n"
	      "  oracle form:  {\"isa\": \"gfx942\", \"generator\": \"wait\", \"args\": {...},\n"
	      "                 \"kernel\": {...}, \"tPA\": {...}, \"tPB\": {...}, \"states\": {...}}\n"
	      "                -> {\"asm\", \"type\", \"acc2arch\"/\"arch2acc\" | \"value\", \"isa\", \"diagnostics\"}\n"
	      "  farm form:    {\"isa\": ..., \"kernel\": ..., \"generators\": [{\"name\": ..., \"args\": ...}]}\n"
	      "                (\"generators\" omitted = every generator that applies)\n"
	      "                -> {\"isa\", \"config_id\", \"key\", \"generator_version\", \"results\": [...]}\n"
	      "\n"
	      "  --batch          JSON lines in, one compact answer per line out (oracle form\n"
	      "                   answers; a bad line answers {\"error\": \"...\"}); exit 0\n"
	      "  --line-buffered  flush after every answer (for interactive pipes)\n"
	      "  --canonical      print {\"canonical\", \"config_id\", \"key\"} for the request\n"
	      "\n"
	      "Generators: tdmWait, wait, syncThreads, accToArchMapper, getAccToArchLen,\n"
	      "hasSequentialValuC, accVgprImagNumOffset, mapAcctoArchRegs,\n"
	      "mulMIoutAlphaToArch, moveMIoutToArch.  ISAs: gfx908 gfx90a gfx940 gfx941\n"
	      "gfx942 gfx950 gfx1100 gfx1101 gfx1102 gfx1200 gfx1201 gfx1250.\n"
	      "Other request keys: wavefront, archCaps, asmCaps (overrides), vgprIdx,\n"
	      "vgprMsb, outputNoComment, fillDefaults, replaceHolder (int or list), strict\n"
	      "(any diagnostic becomes an error).\n", f);
}

static json_t *farm_answer(const json_t *req, int *ok)
{
	kw_error err = KW_ERROR_INIT;
	kw_request *r = NULL;
	json_t *results = NULL, *o;
	char cid[65], key[65];

	*ok = 0;
	if (kw_request_parse(&r, req, NULL, &err) || kw_request_ids(cid, key, NULL, r, &err) ||
	    kw_request_run(&results, r, &err)) {
		kw_request_free(r);
		return json_pack("{s:s}", "error", err.message);
	}
	o = json_pack("{s:s,s:s,s:s,s:s,s:o}", "isa", kw_request_isa_name(r), "config_id", cid, "key", key,
		      "generator_version", kw_generator_version(), "results", results);
	kw_request_free(r);
	*ok = o != NULL;
	return o;
}

static json_t *answer(const json_t *req, int *ok)
{
	if (json_is_object(req) && json_object_get(req, "generator"))
		return kw_oracle_answer(req, NULL, ok);
	return farm_answer(req, ok);
}

static int run_single(FILE *in, int canonical)
{
	json_error_t jerr;
	json_t *req = json_loadf(in, 0, &jerr), *out;
	int ok = 0;

	if (!req) {
		out = json_pack("{s:s}", "error", jerr.text);
	} else if (canonical) {
		kw_error err = KW_ERROR_INIT;
		kw_request *r = NULL;
		char cid[65], key[65], *canon = NULL;

		if (kw_request_parse(&r, req, NULL, &err) || kw_request_ids(cid, key, &canon, r, &err)) {
			out = json_pack("{s:s}", "error", err.message);
		} else {
			out = json_pack("{s:s,s:s,s:s}", "canonical", canon, "config_id", cid, "key", key);
			ok = 1;
		}
		free(canon);
		kw_request_free(r);
	} else {
		out = answer(req, &ok);
	}
	json_decref(req);
	if (!out) {
		fputs("kwgen: out of memory\n", stderr);
		return 2;
	}
	json_dumpf(out, stdout, JSON_INDENT(1) | JSON_ENSURE_ASCII);
	fputc('\n', stdout);
	json_decref(out);
	return ok ? 0 : 1;
}

static int run_batch(FILE *in, int line_buffered)
{
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	while ((n = getline(&line, &cap, in)) >= 0) {
		json_error_t jerr;
		json_t *req, *out;
		char *p = line;
		int ok;

		while (n > 0 && (p[n - 1] == '\n' || p[n - 1] == '\r' || p[n - 1] == ' ' || p[n - 1] == '\t'))
			p[--n] = '\0';
		while (*p == ' ' || *p == '\t')
			p++, n--;
		if (n <= 0)
			continue;
		req = json_loadb(p, (size_t)n, 0, &jerr);
		if (!req) {
			char msg[300];
			snprintf(msg, sizeof(msg), "bad JSON: %s (line %d, column %d)", jerr.text, jerr.line, jerr.column);
			out = json_pack("{s:s}", "error", msg);
		} else {
			out = answer(req, &ok);
			json_decref(req);
		}
		if (!out) {
			fputs("kwgen: out of memory\n", stderr);
			free(line);
			return 2;
		}
		json_dumpf(out, stdout, JSON_COMPACT | JSON_ENSURE_ASCII);
		fputc('\n', stdout);
		json_decref(out);
		if (line_buffered)
			fflush(stdout);
	}
	free(line);
	if (ferror(in)) {
		fprintf(stderr, "kwgen: read error: %s\n", strerror(errno));
		return 2;
	}
	return fflush(stdout) ? 2 : 0;
}

int main(int argc, char **argv)
{
	int batch = 0, canonical = 0, line_buffered = 0, rc;
	const char *path = NULL;
	FILE *in = stdin;

	if (argc > 1 && !strcmp(argv[1], "logic"))
		return kw_cli_logic(argc - 1, argv + 1);
	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return 0;
		} else if (!strcmp(argv[i], "--batch")) {
			batch = 1;
		} else if (!strcmp(argv[i], "--canonical")) {
			canonical = 1;
		} else if (!strcmp(argv[i], "--line-buffered")) {
			line_buffered = 1;
		} else if (argv[i][0] == '-' && argv[i][1]) {
			fprintf(stderr, "kwgen: unknown option %s\n", argv[i]);
			usage(stderr);
			return 2;
		} else if (!path) {
			path = argv[i];
		} else {
			fputs("kwgen: give at most one FILE\n", stderr);
			return 2;
		}
	}
	if (path && strcmp(path, "-")) {
		in = fopen(path, "r");
		if (!in) {
			fprintf(stderr, "kwgen: cannot open %s: %s\n", path, strerror(errno));
			return 2;
		}
	}
	rc = batch ? run_batch(in, line_buffered) : run_single(in, canonical);
	if (in != stdin)
		fclose(in);
	return rc;
}
