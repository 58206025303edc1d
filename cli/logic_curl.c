/* logic_curl.c - libcurl loaded on first use (logic_curl.h). */
#include <curl/curl.h>

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

#include "logic_curl.h"

#ifndef KW_CURL_SONAME
#define KW_CURL_SONAME "libcurl.so.4"
#endif

kw_curl_api kw_curl;

int kw_curl_load(char *buf, size_t n)
{
	static const struct {
		const char *name;
		size_t off;
	} fns[] = {
#define F(field, sym) { sym, offsetof(kw_curl_api, field) }
		F(global_init, "curl_global_init"), F(global_cleanup, "curl_global_cleanup"),
		F(easy_init, "curl_easy_init"), F(easy_cleanup, "curl_easy_cleanup"),
		F(easy_reset, "curl_easy_reset"), F(easy_setopt, "curl_easy_setopt"),
		F(easy_getinfo, "curl_easy_getinfo"), F(easy_strerror, "curl_easy_strerror"),
		F(easy_header, "curl_easy_header"), F(multi_init, "curl_multi_init"),
		F(multi_cleanup, "curl_multi_cleanup"), F(multi_setopt, "curl_multi_setopt"),
		F(multi_add_handle, "curl_multi_add_handle"), F(multi_remove_handle, "curl_multi_remove_handle"),
		F(multi_perform, "curl_multi_perform"), F(multi_poll, "curl_multi_poll"),
		F(multi_info_read, "curl_multi_info_read"), F(slist_append, "curl_slist_append"),
		F(slist_free_all, "curl_slist_free_all"), F(url, "curl_url"), F(url_cleanup, "curl_url_cleanup"),
		F(url_set, "curl_url_set"), F(url_get, "curl_url_get"), F(free, "curl_free"),
#undef F
	};
	static void *lib;
	void *syms[sizeof(fns) / sizeof(fns[0])];

	if (lib)
		return 0;
	lib = dlopen(KW_CURL_SONAME, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		snprintf(buf, n, "cannot load %s, which --server needs (Debian: apt install libcurl4): %s",
			 KW_CURL_SONAME, dlerror());
		return -1;
	}
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		syms[i] = dlsym(lib, fns[i].name);
		if (!syms[i]) {
			snprintf(buf, n, "%s has no %s (libcurl 7.83 or later is needed for --server)",
				 KW_CURL_SONAME, fns[i].name);
			dlclose(lib);
			lib = NULL;
			return -1;
		}
	}
	/* a data pointer from dlsym to a function pointer: POSIX guarantees it */
	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		memcpy((char *)&kw_curl + fns[i].off, &syms[i], sizeof(void *));
	return 0;
}
