// SPDX-License-Identifier: GPL-2.0
/*
 * transport = ssh: a role with `ssh = user@host` runs on that machine
 * through OpenSSH, speaking the same READY/GO/JSON protocol over the ssh
 * channel's stdin/stdout, and measures its own host there. Roles without
 * `ssh` run here.
 *
 * ssh joins its arguments into one string for the remote shell, so the
 * role's command is quoted here argument by argument ('...' with ' as '\'');
 * host-file values were also restricted to plain characters when parsed.
 * BatchMode: a missing key is an error, never a password prompt.
 */
#include "transport/host.h"
#include "lib/proc.h"

#include <errno.h>
#include <string.h>
#include <sys/wait.h>

/* The transport's keys (ssh_keys), per role, and what setup learnt. */
struct ssh {
	char target[ZC_ROLE_NR][128];	/* ssh = user@host; "" runs the role here */
	int port[ZC_ROLE_NR];		/* 0: ssh's default */
	char identity[ZC_ROLE_NR][256];
	char known_hosts[ZC_ROLE_NR][256];
	char remote_version[ZC_ROLE_NR][128];
};

static const struct ssh *cpriv(const struct zc_host *h)
{
	return (const struct ssh *)h->priv;
}

/* user@host: plain characters (ssh_keys), one '@', and no leading '-' that
 * ssh would read as an option. */
static int check_target(const char *v, char *why, size_t len)
{
	if (v[0] != '-' && strchr(v, '@') == strrchr(v, '@'))
		return 0;
	snprintf(why, len, "'%s' is not user@host", v);
	return -EINVAL;
}

#define AT(field) ZC_OPT_AT(struct ssh, field)
#define WHERE (ZC_HOST_KEY | ZC_ROLE_KEY)

static const struct zc_opt ssh_keys[] = {
	{ "ssh", ZC_OPT_STR, NULL, AT(target[0]), WHERE, .plain = "@._:-",
	  .what = "user@host (letters, digits, . _ - : @)", .check = check_target,
	  .meta = "USER@HOST", .help = "run this role there (roles without it run here)" },
	{ "ssh_port", ZC_OPT_INT, NULL, 1, 65535, AT(port[0]), WHERE, .meta = "PORT",
	  .help = "ssh -p" },
	{ "ssh_identity", ZC_OPT_STR, NULL, AT(identity[0]), WHERE, ZC_OPT_ABS_PATH,
	  .help = "ssh -i (with IdentitiesOnly)" },
	{ "ssh_known_hosts", ZC_OPT_STR, NULL, AT(known_hosts[0]), WHERE, ZC_OPT_ABS_PATH,
	  .help = "ssh's UserKnownHostsFile" },
};

static char port_opt[ZC_ROLE_NR][16];
static char known_opt[ZC_ROLE_NR][300];

static int ssh_prefix(const struct zc_host *h, int role, char **argv, int max)
{
	const struct ssh *s = cpriv(h);
	int n = 0;

	if (!s->target[role][0])
		return 0;
	if (max < 24)
		return -E2BIG;
	argv[n++] = "ssh";
	argv[n++] = "-T";
	argv[n++] = "-o";
	argv[n++] = "BatchMode=yes";
	argv[n++] = "-o";
	argv[n++] = "ConnectTimeout=5";
	/* A machine that dies mid-run is noticed within ~15 s, not at TCP's pace. */
	argv[n++] = "-o";
	argv[n++] = "ServerAliveInterval=5";
	argv[n++] = "-o";
	argv[n++] = "ServerAliveCountMax=3";
	argv[n++] = "-o";
	argv[n++] = "LogLevel=ERROR";
	if (s->port[role]) {
		snprintf(port_opt[role], sizeof(port_opt[role]), "%d", s->port[role]);
		argv[n++] = "-p";
		argv[n++] = port_opt[role];
	}
	if (s->identity[role][0]) {
		argv[n++] = "-i";
		argv[n++] = (char *)s->identity[role];
		argv[n++] = "-o";
		argv[n++] = "IdentitiesOnly=yes";
	}
	if (s->known_hosts[role][0]) {
		snprintf(known_opt[role], sizeof(known_opt[role]), "UserKnownHostsFile=%s",
			 s->known_hosts[role]);
		argv[n++] = "-o";
		argv[n++] = known_opt[role];
	}
	argv[n++] = "--";
	argv[n++] = (char *)s->target[role];
	return n;
}

/* 'a b' -> "'a b'", "it's" -> "'it'\''s'": the remote shell sees one word. */
static int quote(char *out, size_t len, const char *s)
{
	size_t k = 0;

	if (k + 1 >= len)
		return -E2BIG;
	out[k++] = '\'';
	for (; *s; s++) {
		if (*s == '\'') {
			if (k + 4 >= len)
				return -E2BIG;
			memcpy(out + k, "'\\''", 4);
			k += 4;
		} else {
			if (k + 1 >= len)
				return -E2BIG;
			out[k++] = *s;
		}
	}
	if (k + 2 >= len)
		return -E2BIG;
	out[k++] = '\'';
	out[k] = 0;
	return (int)k;
}

static int ssh_finish(const struct zc_host *h, int role, char **argv, int first, int n,
		      char *store, size_t storelen)
{
	size_t k = 0;

	if (!cpriv(h)->target[role][0])
		return n;
	for (int i = first; i < n; i++) {
		int q;

		if (i > first) {
			if (k + 1 >= storelen)
				return -E2BIG;
			store[k++] = ' ';
		}
		q = quote(store + k, storelen - k, argv[i]);
		if (q < 0)
			return q;
		k += q;
	}
	argv[first] = store;
	return first + 1;
}

static const char *ssh_explain(const struct zc_host *h, int role, int status)
{
	static char buf[256];
	const char *target = cpriv(h)->target[role];

	if (!target[0] || !WIFEXITED(status))
		return NULL;
	if (WEXITSTATUS(status) == 255)
		snprintf(buf, sizeof(buf), "ssh to %s: connection failed or lost, or the remote role was killed (exit 255)",
			 target);
	else if (WEXITSTATUS(status) > 128)
		/* The remote shell reports a role killed by signal N as 128 + N. */
		snprintf(buf, sizeof(buf), "killed by signal %d on %s (ssh exit %d)",
			 WEXITSTATUS(status) - 128, target, WEXITSTATUS(status));
	else
		return NULL;
	return buf;
}

/* Every machine must run the zcbench this controller is: same git sha. */
static int ssh_setup(struct zc_host *h, char *err, size_t errlen)
{
	struct ssh *s = (struct ssh *)h->priv;
	char want[128], *self[] = { "/proc/self/exe", "--version", NULL };

	/* What this binary answers, not this file's idea of it: objects built
	 * at different commits must not pass for one version. */
	if (zc_run_argv(self, &(struct zc_spawn_opts){ .out = want, .outlen = sizeof(want),
							.null_stdin = true, .own_group = true }))
		snprintf(want, sizeof(want), "zcbench %s %s%s", ZC_VERSION, ZC_GIT_SHA,
			 ZC_GIT_DIRTY ? "-dirty" : "");
	zc_host_irqs_reap_stale();
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		char *cmd[] = { h->exe[r], "--version", NULL }, *argv[48], store[1024], out[512];
		int n, ret;

		if (!s->target[r][0])
			continue;
		n = zc_host_argv(h, r, cmd, argv, 48, store, sizeof(store));
		if (n < 0) {
			snprintf(err, errlen, "ssh: [%s] command too long", zc_role_names[r]);
			return n;
		}
		ret = zc_run_argv(argv, &(struct zc_spawn_opts){ .out = out, .outlen = sizeof(out),
							       .null_stdin = true, .own_group = true });
		if (ret == 255 || ret < 0) {
			snprintf(err, errlen, "ssh: [%s] cannot reach %s%s%s: %s", zc_role_names[r],
				 s->target[r], s->port[r] ? " port " : "",
				 s->port[r] ? port_opt[r] : "", ret < 0 ? strerror(-ret) : out);
			return -EHOSTUNREACH;
		}
		if (ret) {
			snprintf(err, errlen, "ssh: [%s] %s: '%s --version' failed (exit %d): %s "
				 "(set exe = PATH in the host file)", zc_role_names[r], s->target[r],
				 h->exe[r], ret, out);
			return -ENOENT;
		}
		snprintf(s->remote_version[r], sizeof(s->remote_version[r]), "%.120s", out);
		if (strcmp(out, want)) {
			snprintf(err, errlen, "ssh: [%s] %s runs '%s', this controller is '%s': "
				 "build the same git sha there", zc_role_names[r], s->target[r], out, want);
			return -EPROTO;
		}
	}
	return 0;
}

static bool ssh_remote(const struct zc_host *h, int role)
{
	return cpriv(h)->target[role][0];
}

static void ssh_json(const struct zc_host *h, json_t *host, json_t *const roles[ZC_ROLE_NR])
{
	const struct ssh *s = cpriv(h);

	(void)host;
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		if (!s->target[r][0])
			continue;
		json_object_set_new(roles[r], "ssh", json_string(s->target[r]));
		json_object_set_new(roles[r], "exe", json_string(h->exe[r]));
		json_object_set_new(roles[r], "remote_version", json_string(s->remote_version[r]));
	}
}

const struct zc_transport zc_transport_ssh = {
	.name = "ssh",
	.summary = "roles with ssh = user@host run there through OpenSSH, the others here",
	.keys = ssh_keys,
	.nkeys = ZC_ARRAY_SIZE(ssh_keys),
	.priv_size = sizeof(struct ssh),
	.remote = ssh_remote,
	.json = ssh_json,
	.setup = ssh_setup,
	.prefix = ssh_prefix,
	.finish = ssh_finish,
	.explain_exit = ssh_explain,
};
