#!/bin/sh
# kwgend container health check: GET /healthz from the daemon itself, the
# way it is configured.  It reads kwgend's own command line
# (/proc/$KWGEND_PID/cmdline, PID 1 in the container) for
#   --listen ADDR:PORT    the port to ask (default 8080)
#   --auth-tokens FILE    send the first token of FILE as a bearer token
#   --tls-cert FILE       ask over https (loopback; the certificate is not
#                         verified: this checks liveness, not identity)
# so the check keeps working when tokens or TLS are turned on, with no
# secret in the image or the compose file.  Exit 0 healthy, 1 not.
set -eu
pid=${KWGEND_PID:-1}
port=8080
scheme=http
tokens=
want=
for a in $(tr '\0' '\n' < "/proc/$pid/cmdline"); do
	case $want in
	listen) port=${a##*:}; want=; continue ;;
	tokens) tokens=$a; want=; continue ;;
	cert) scheme=https; want=; continue ;;
	esac
	case $a in
	--listen) want=listen ;;
	--listen=*) port=${a##*:} ;;
	--auth-tokens) want=tokens ;;
	--auth-tokens=*) tokens=${a#--auth-tokens=} ;;
	--tls-cert) want=cert ;;
	--tls-cert=*) scheme=https ;;
	esac
done
set -- -fsS -o /dev/null --max-time 3
[ "$scheme" = https ] && set -- "$@" --insecure
if [ -n "$tokens" ]; then
	# the first token: kwgend skips blank lines and # comments, trims blanks
	token=$(tr -d '\r' < "$tokens" | sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' | grep -v -e '^$' -e '^#' | head -n 1)
	# from a file (-H @FILE), so the token never shows in the process list
	printf 'Authorization: Bearer %s\n' "$token" | curl "$@" -H @- "$scheme://127.0.0.1:$port/healthz" || exit 1
else
	curl "$@" "$scheme://127.0.0.1:$port/healthz" || exit 1
fi
