/*
 * http_listen.c - the --listen flag: its shape, resolving it and binding
 * the listening socket.
 */
#include "http_int.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

/* Split "HOST:PORT" / "[ADDR6]:PORT" / ":PORT" into host (may be "") and
 * port.  Returns 0, or -1 with msg set. */
static int split_listen(char *host, size_t host_len, char *port, size_t port_len,
			const char *spec, char *msg, size_t msg_len)
{
	const char *colon, *p;
	size_t hl;

	if (spec[0] == '[') {
		const char *end = strchr(spec, ']');

		if (!end || end[1] != ':')
			goto bad;
		hl = (size_t)(end - spec - 1);
		if (hl == 0 || hl >= host_len)
			goto bad;
		memcpy(host, spec + 1, hl);
		p = end + 2;
	} else {
		if (!(colon = strrchr(spec, ':')))
			goto bad;
		hl = (size_t)(colon - spec);
		if (hl >= host_len || memchr(spec, ':', hl))
			goto bad;
		memcpy(host, spec, hl);
		p = colon + 1;
	}
	host[hl] = '\0';
	if (!*p || strspn(p, "0123456789") != strlen(p) || strlen(p) > 5 || atol(p) > 65535 ||
	    strlen(p) >= port_len)
		goto bad;
	snprintf(port, port_len, "%s", p);
	return 0;
bad:
	snprintf(msg, msg_len,
		 "--listen wants HOST:PORT (a name or an IPv4 address), [ADDR6]:PORT or :PORT, not \"%s\"",
		 spec);
	return -1;
}

int kw_http_listen_ok(const char *spec, char *msg, size_t msg_len)
{
	char host[256], port[8];

	return split_listen(host, sizeof(host), port, sizeof(port), spec, msg, msg_len);
}

/* Numeric text "ADDR:PORT" / "[ADDR6]:PORT" of a socket address. */
void kw_http_addr_text(char *out, size_t len, const struct sockaddr *sa)
{
	char host[INET6_ADDRSTRLEN] = "?";

	if (sa->sa_family == AF_INET6) {
		const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)sa;

		inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof(host));
		snprintf(out, len, "[%s]:%d", host, ntohs(a->sin6_port));
	} else {
		const struct sockaddr_in *a = (const struct sockaddr_in *)sa;

		inet_ntop(AF_INET, &a->sin_addr, host, sizeof(host));
		snprintf(out, len, "%s:%d", host, ntohs(a->sin_port));
	}
}

/* Resolve --listen (host names too, with getaddrinfo) and bind the first
 * address that binds.  Returns the listening socket, or -1 with msg naming
 * the host, the port and why. */
int kw_http_open_listener(const char *spec, char *msg, size_t msg_len)
{
	char host[256], port[8], tried[128] = "";
	struct addrinfo hints = { 0 }, *ai = NULL, *a;
	int rc, fd = -1, err = 0, one = 1;

	if (split_listen(host, sizeof(host), port, sizeof(port), spec, msg, msg_len) < 0)
		return -1;
	hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
	hints.ai_socktype = SOCK_STREAM;
	if ((rc = getaddrinfo(host[0] ? host : NULL, port, &hints, &ai)) != 0 || !ai) {
		snprintf(msg, msg_len, "--listen %s: cannot resolve host \"%s\": %s", spec, host,
			 rc ? gai_strerror(rc) : "no address");
		return -1;
	}
	for (a = ai; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
		if (bind(fd, a->ai_addr, a->ai_addrlen) == 0 && listen(fd, 1024) == 0)
			break;
		err = errno;
		kw_http_addr_text(tried, sizeof(tried), a->ai_addr);
		close(fd);
		fd = -1;
	}
	freeaddrinfo(ai);
	if (fd < 0)
		snprintf(msg, msg_len, "cannot listen on host %s port %s (--listen %s%s%s): %s",
			 host[0] ? host : "*", port, spec, tried[0] ? "; last tried " : "", tried,
			 strerror(err));
	return fd;
}
