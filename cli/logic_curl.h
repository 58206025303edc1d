/*
 * logic_curl.h - libcurl loaded when `kwgen logic --server` first needs it.
 *
 * kwgen links no libcurl: mapping it and the libraries it pulls in
 * (gnutls, krb5, ldap, ...) and running their constructors cost about
 * 10 ms of CPU at every start of every kwgen command, most of a small
 * `kwgen verify`'s time.  Include this after <curl/curl.h>; each curl_*
 * function used then goes through kw_curl, filled by kw_curl_load.
 */
#ifndef KW_CLI_LOGIC_CURL_H
#define KW_CLI_LOGIC_CURL_H

#include <curl/curl.h>
#include <stddef.h>

typedef struct kw_curl_api {
	CURLcode (*global_init)(long);
	void (*global_cleanup)(void);
	CURL *(*easy_init)(void);
	void (*easy_cleanup)(CURL *);
	void (*easy_reset)(CURL *);
	CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
	CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
	const char *(*easy_strerror)(CURLcode);
	CURLHcode (*easy_header)(CURL *, const char *, size_t, unsigned int, int, struct curl_header **);
	CURLM *(*multi_init)(void);
	CURLMcode (*multi_cleanup)(CURLM *);
	CURLMcode (*multi_setopt)(CURLM *, CURLMoption, ...);
	CURLMcode (*multi_add_handle)(CURLM *, CURL *);
	CURLMcode (*multi_remove_handle)(CURLM *, CURL *);
	CURLMcode (*multi_perform)(CURLM *, int *);
	CURLMcode (*multi_poll)(CURLM *, struct curl_waitfd *, unsigned int, int, int *);
	CURLMsg *(*multi_info_read)(CURLM *, int *);
	struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
	void (*slist_free_all)(struct curl_slist *);
	CURLU *(*url)(void);
	void (*url_cleanup)(CURLU *);
	CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
	CURLUcode (*url_get)(const CURLU *, CURLUPart, char **, unsigned int);
	void (*free)(void *);
} kw_curl_api;

extern kw_curl_api kw_curl;

/* Load libcurl (its soname, KW_CURL_SONAME) and every function above,
 * once per process.  0, or -1 with why (what was missing and what to
 * install) in buf[0..n). */
int kw_curl_load(char *buf, size_t n);

#undef curl_easy_setopt
#undef curl_easy_getinfo
#undef curl_multi_setopt
#define curl_global_init (kw_curl.global_init)
#define curl_global_cleanup (kw_curl.global_cleanup)
#define curl_easy_init (kw_curl.easy_init)
#define curl_easy_cleanup (kw_curl.easy_cleanup)
#define curl_easy_reset (kw_curl.easy_reset)
#define curl_easy_setopt (kw_curl.easy_setopt)
#define curl_easy_getinfo (kw_curl.easy_getinfo)
#define curl_easy_strerror (kw_curl.easy_strerror)
#define curl_easy_header (kw_curl.easy_header)
#define curl_multi_init (kw_curl.multi_init)
#define curl_multi_cleanup (kw_curl.multi_cleanup)
#define curl_multi_setopt (kw_curl.multi_setopt)
#define curl_multi_add_handle (kw_curl.multi_add_handle)
#define curl_multi_remove_handle (kw_curl.multi_remove_handle)
#define curl_multi_perform (kw_curl.multi_perform)
#define curl_multi_poll (kw_curl.multi_poll)
#define curl_multi_info_read (kw_curl.multi_info_read)
#define curl_slist_append (kw_curl.slist_append)
#define curl_slist_free_all (kw_curl.slist_free_all)
#define curl_url (kw_curl.url)
#define curl_url_cleanup (kw_curl.url_cleanup)
#define curl_url_set (kw_curl.url_set)
#define curl_url_get (kw_curl.url_get)
#define curl_free (kw_curl.free)

#endif
