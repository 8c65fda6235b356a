// SPDX-License-Identifier: GPL-2.0
/*
 * iperf3 as a contender of zcbench's sources: the client sends with send()
 * or sendfile() (-Z) on the DUT core, the server receives in the sink's
 * place. It carries its own payload, so its runs are never verified; its
 * bytes and seconds come from its JSON report (-J).
 */
#include "peers/iperf3.h"
#include "peers/peer_int.h"
#include "lib/zcbench.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct zc_peer_prog iperf3 = { "iperf3", "--version", "iperf3", "iperf ", false };

static bool has_sendfile(const char *version)
{
	return strstr(version, "sendfile / zerocopy") != NULL;
}

int zc_iperf3_available(bool sendfile, char *why, size_t len)
{
	char out[2048];
	int ret = zc_peer_version(&iperf3, out, sizeof(out), why, len);

	if (!ret && sendfile && !has_sendfile(out)) {
		snprintf(why, len, "iperf3 built without sendfile (-Z): %.100s", out);
		return -ENOTSUP;
	}
	return ret;
}

json_t *zc_iperf3_info(void)
{
	char out[2048];
	json_t *info = zc_peer_version_info(&iperf3, "iperf %63s", out, sizeof(out));

	if (!json_object_get(info, "error"))
		json_object_set_new(info, "sendfile", json_boolean(has_sendfile(out)));
	return info;
}

int zc_iperf3_client_argv(const struct zc_iperf3_client_cfg *c, char *argv[], int max,
			  char *buf, size_t len)
{
	const unsigned long long v[] = { c->port, c->seconds, c->omit_s, c->chunk,
					 c->streams ? c->streams : 1 };
	static const char *const flag[] = { "-p", "-t", "-O", "-l", "-P" };
	char *pos = buf;
	int n = 0;

	if (!c->addr || c->port < 1 || c->port > 65535 || c->seconds < 1 || c->omit_s < 0 ||
	    !c->chunk || c->streams < 0 || c->streams > 128 || max < 16)
		return -EINVAL;
	argv[n++] = "iperf3";
	argv[n++] = "-c";
	argv[n++] = (char *)c->addr;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(v); i++)
		if (!zc_text_arg(argv, &n, &pos, &len, flag[i], "%llu", v[i]))
			return -ENOSPC;
	if (c->sendfile)
		argv[n++] = "-Z";
	argv[n++] = "-J";
	argv[n] = NULL;
	return 0;
}

int zc_iperf3_start_server(struct zc_peer *p, const char *addr, int port, const int *cpus,
			   int ncpus, const char *dir, double listen_timeout_s)
{
	char ps[16];
	char *argv[] = { "iperf3", "-s", "-1", "-p", ps, "-B", (char *)addr, NULL };
	struct zc_peer_spec spec = { .name = "iperf3-server", .argv = argv, .cpus = cpus,
				     .ncpus = ncpus, .dir = dir };
	int ret;

	snprintf(ps, sizeof(ps), "%d", port);
	ret = zc_peer_start(p, &spec);
	if (ret)
		return ret;
	return zc_peer_wait_listen(p, port, listen_timeout_s);
}

int zc_iperf3_start_client(struct zc_peer *p, const struct zc_iperf3_client_cfg *c,
			   const int *cpus, int ncpus, const char *dir)
{
	char *argv[20], nums[128], json[PATH_MAX];
	struct zc_peer_spec spec = { .name = "iperf3-client", .argv = argv, .cpus = cpus,
				     .ncpus = ncpus, .dir = dir, .stdout_path = json };
	int ret;

	memset(p, 0, sizeof(*p));
	snprintf(p->name, sizeof(p->name), "iperf3-client");
	ret = zc_iperf3_client_argv(c, argv, ZC_ARRAY_SIZE(argv), nums, sizeof(nums));
	if (ret) {
		snprintf(p->reason, sizeof(p->reason), "iperf3-client: bad parameters");
		return ret;
	}
	if (snprintf(json, sizeof(json), "%s/iperf3-client.json", dir) >= (int)sizeof(json)) {
		snprintf(p->reason, sizeof(p->reason), "iperf3-client: folder name too long");
		return -ENAMETOOLONG;
	}
	return zc_peer_start(p, &spec);
}

static double num(json_t *o, const char *key)
{
	return json_number_value(json_object_get(o, key));
}

int zc_iperf3_parse(const char *text, struct zc_iperf3_result *r)
{
	json_t *root, *start, *end, *sent, *recvd, *cpu, *ts, *err;
	const char *v;
	int ret = 0;

	memset(r, 0, sizeof(*r));
	root = json_loads(text, 0, NULL);
	if (!json_is_object(root)) {
		json_decref(root);
		return -EINVAL;
	}
	start = json_object_get(root, "start");
	end = json_object_get(root, "end");
	if ((v = json_string_value(json_object_get(start, "version"))))
		sscanf(v, "iperf %63s", r->version);
	/* A failed test still prints its JSON, with "error" (and exit code 0). */
	if ((err = json_object_get(root, "error"))) {
		snprintf(r->error, sizeof(r->error), "%s",
			 json_is_string(err) ? json_string_value(err) : "unknown error");
		ret = -EPROTO;
		goto out;
	}
	sent = json_object_get(end, "sum_sent");
	recvd = json_object_get(end, "sum_received");
	cpu = json_object_get(end, "cpu_utilization_percent");
	ts = json_object_get(start, "test_start");
	if (!json_is_object(sent) || !json_is_object(recvd) || !json_is_integer(json_object_get(sent, "bytes"))) {
		ret = -EINVAL;
		goto out;
	}
	r->bytes_sent = json_integer_value(json_object_get(sent, "bytes"));
	r->seconds_sent = num(sent, "seconds");
	r->bytes_received = json_integer_value(json_object_get(recvd, "bytes"));
	r->seconds_received = num(recvd, "seconds");
	r->host_total_pct = num(cpu, "host_total");
	r->host_user_pct = num(cpu, "host_user");
	r->host_system_pct = num(cpu, "host_system");
	r->remote_total_pct = num(cpu, "remote_total");
	r->blksize = json_integer_value(json_object_get(ts, "blksize"));
	r->num_streams = json_integer_value(json_object_get(ts, "num_streams"));
	r->omit_s = json_integer_value(json_object_get(ts, "omit"));
	r->duration_s = json_integer_value(json_object_get(ts, "duration"));
out:
	json_decref(root);
	return ret;
}

int zc_iperf3_client_result(const char *dir, struct zc_iperf3_result *r)
{
	char path[PATH_MAX];
	size_t len;
	char *text;
	int ret;

	memset(r, 0, sizeof(*r));
	if (snprintf(path, sizeof(path), "%s/iperf3-client.json", dir) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	text = zc_read_file(path, 64 << 20, &len);
	if (!text)
		return -errno;
	ret = zc_iperf3_parse(text, r);
	free(text);
	return ret;
}
