// SPDX-License-Identifier: GPL-2.0
/* What was verified, measured by the sink and checked by the controller (verify.h). */
#include "run/verify.h"
#include "wire/wire.h"
#include "modes/mode.h"

#include <stdio.h>
#include <string.h>

/* Request/response: the client checks every body byte as it arrives and
 * fails the run on the first wrong one (rr/rr_client.c), so what counts is
 * that it completed transactions; the server's and the proxy's byte counts
 * are reported, not held against the client's per connection (connections
 * come and go, and the bytes in flight at the edges differ). */
static const char *rr_why_not(json_t *src, char *buf, size_t len)
{
	json_t *rr = json_object_get(src, "rr");

	if (json_object_get(src, "foreign"))
		return "the client is a foreign program (--exec-source): nothing checked the responses";
	/* (verified_bytes may be 0: object_size = 0 has empty bodies) */
	if (json_integer_value(json_object_get(rr, "transactions")) <= 0) {
		snprintf(buf, len, "the client completed no verified transaction in the window");
		return buf;
	}
	return NULL;
}

/* The reason a sample is not verified, or NULL when it is. */
static const char *why_not(json_t *roles, json_t *sample, char *buf, size_t len)
{
	json_t *snk = json_object_get(roles, "sink"), *src = json_object_get(roles, "source");
	json_t *sc = json_object_get(src, "connections"), *kc = json_object_get(snk, "connections");
	json_t *s, *k, *rep;
	const char *name;
	size_t i, j;

	/* A peer program with a payload of its own (iperf3) says why in its report. */
	json_object_foreach(roles, name, rep)
		if (json_is_string(json_object_get(rep, "unverified")))
			return json_string_value(json_object_get(rep, "unverified"));
	if (json_object_get(src, "rr"))
		return rr_why_not(src, buf, len);
	if (json_object_get(snk, "foreign"))
		return "the sink is a foreign program (--exec-sink): nothing checked the bytes";
	if (!json_is_true(json_object_get(snk, "verified"))) {
		snprintf(buf, len, "sink mode %s does not check the bytes it receives",
			 json_string_value(json_object_get(snk, "mode")) ?: "?");
		return buf;
	}
	if (json_object_get(src, "foreign") || !json_is_array(sc))
		return "the source reported no byte counts (a foreign --exec-source): what the "
		       "sink checked cannot be held against what was sent";
	if (!json_is_integer(json_object_get(sample, "connections_checked")))
		return "the connections' totals were not checked";
	json_array_foreach(sc, i, s) {
		json_int_t id = json_integer_value(json_object_get(s, "id"));
		json_t *v = NULL;

		json_array_foreach(kc, j, k)
			if (json_integer_value(json_object_get(k, "id")) == id)
				v = json_object_get(k, "verified_bytes");
		if (!json_is_integer(v) ||
		    json_integer_value(v) != json_integer_value(json_object_get(s, "bytes"))) {
			snprintf(buf, len, "connection %lld: the sink checked %lld of the %lld payload "
				 "bytes the source sent", (long long)id,
				 json_is_integer(v) ? (long long)json_integer_value(v) : -1LL,
				 (long long)json_integer_value(json_object_get(s, "bytes")));
			return buf;
		}
	}
	return NULL;
}

void zc_sample_verified(json_t *sample, json_t *roles)
{
	char buf[256];
	const char *why = why_not(roles, sample, buf, sizeof(buf));

	json_object_set_new(sample, "verified", json_boolean(!why));
	if (why)
		json_object_set_new(sample, "unverified", json_string(why));
}

void zc_run_verified(json_t *run)
{
	json_t *s, *why = NULL;
	size_t i, nok = 0;
	bool all = true;

	json_array_foreach(json_object_get(run, "samples"), i, s) {
		json_t *v = json_object_get(s, "verified");

		if (strcmp(json_string_value(json_object_get(s, "status")) ?: "", "ok"))
			continue;
		nok++;
		if (!json_is_true(v)) {
			all = false;
			if (!why)
				why = json_object_get(s, "unverified");
		}
	}
	json_object_set_new(run, "verified", json_boolean(nok && all));
	json_object_del(run, "unverified");
	if (!all && json_is_string(why))
		json_object_set_new(run, "unverified", json_copy(why));
	else if (!nok)
		json_object_set_new(run, "unverified", json_string("no ok sample"));
}
