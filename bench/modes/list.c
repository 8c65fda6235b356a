// SPDX-License-Identifier: GPL-2.0
/* zcbench list: every mode with its relations and options, above both the
 * table (registry.c) and the mode options (options.c) it prints. */
#include "modes/mode.h"

#include <jansson.h>
#include <string.h>

const char *zc_mode_unused(const struct zc_mode *m, char *buf, size_t len)
{
	static const char *const keys[] = ZC_USE_KEYS;
	unsigned not = ~zc_mode_uses(m, NULL) & ZC_USE_ALL;
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < ZC_ARRAY_SIZE(keys) && o < len; i++)
		if (not & (1u << i))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", keys[i]);
	if (o && o < len)
		snprintf(buf + o, len - o, ": not used%s%s%s", m->uses_opt ? " (used with " : "",
			 m->uses_opt ?: "", m->uses_opt ? " not 0)" : "");
	return buf;
}

static json_t *uses_json(unsigned bits)
{
	static const char *const keys[] = ZC_USE_KEYS;
	json_t *a = json_array();

	for (size_t i = 0; i < ZC_ARRAY_SIZE(keys); i++)
		if (bits & (1u << i))
			json_array_append_new(a, json_string(keys[i]));
	return a;
}

/* The second and later lines of a mode in zcbench list, indented past a name
 * column w wide (the longest mode name, so no name runs into its summary). */
static void list_details(FILE *f, const struct zc_mode *m, int w)
{
	const struct zc_mode *afters[ZC_AFTERS_MAX];
	size_t na = zc_mode_afters(m, afters, ZC_ARRAY_SIZE(afters));
	char unused[160];

	if (m->flags & ZC_MODE_UNVERIFIED)
		fprintf(f, "  %-*s    unverified: %s\n", w, "", m->unverified_why);
	if (m->vs || na) {
		fprintf(f, "  %-*s    ", w, "");
		if (m->vs)
			fprintf(f, "headline: %s/%s %s%s", m->name, m->vs->name,
				zc_role_names[m->role], m->principal ? " (principal)" : "");
		for (size_t i = 0; i < na; i++)
			fprintf(f, "%s%s", i ? ", " : m->vs ? "; after-modes: " : "after-modes: ",
				afters[i]->name);
		fprintf(f, "\n");
	}
	if (m->imitated_by)
		fprintf(f, "  %-*s    headline: %s/%s %s (zcbench against the real program)\n", w, "",
			m->imitated_by->name, m->name, zc_role_names[m->role]);
	if (*zc_mode_unused(m, unused, sizeof(unused)))
		fprintf(f, "  %-*s    %s\n", w, "", unused);
	if (m->after_of) {
		fprintf(f, "  %-*s    after-mode of:", w, "");
		for (const struct zc_mode *const *a = m->after_of; *a; a++)
			fprintf(f, "%s %s", a == m->after_of ? "" : ",", (*a)->name);
		fprintf(f, " (its runs are their \"after\" side)\n");
	}
	for (const struct zc_mode_opt *o = m->opts; o && o->key; o++) {
		fprintf(f, "  %-*s    option ", w, "");
		zc_mode_opt_print(f, o);
	}
}

void zc_modes_list(FILE *f, bool with_availability)
{
	int w = 0;

	for (size_t i = 0; i < zc_nmodes; i++)
		if ((int)strlen(zc_modes[i]->name) > w)
			w = (int)strlen(zc_modes[i]->name);
	for (int r = 0; r < ZC_ROLE_NR; r++) {
		fprintf(f, "%s modes:\n", zc_role_names[r]);
		for (size_t i = 0; i < zc_nmodes; i++) {
			const struct zc_mode *m = zc_modes[i];
			const char *why;

			if (m->role != (enum zc_role)r)
				continue;
			why = with_availability && m->unavailable ? m->unavailable() : NULL;
			/* [http]: traffic = rr only; zcbench's client checks nginx's bodies. */
			fprintf(f, "  %-*s  %s%s%s%s%s\n", w, m->name,
				m->flags & ZC_MODE_EMULATED ? "[emulated] " : "",
				m->flags & ZC_MODE_PEER ? "[peer] " : "",
				m->flags & ZC_MODE_HTTP ? "[http] " : "", m->summary,
				m->role == ZC_ROLE_SINK && !(m->flags & (ZC_MODE_VERIFIES | ZC_MODE_HTTP)) ?
					" (does not verify)" : "");
			/* Right under the name: scripts read it with grep -A1. */
			if (why)
				fprintf(f, "  %-*s    unavailable: %s\n", w, "", why);
			list_details(f, m, w);
		}
	}
	fprintf(f, "\nmode options are set per run with mode_opts = KEY=VALUE[,KEY=VALUE]\n");
}

static json_t *names_json(const struct zc_mode *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]->name));
	return a;
}

json_t *zc_mode_opt_json(const struct zc_mode_opt *o)
{
	static const char *const types[] = {
		[ZC_MODE_OPT_LONG] = "integer", [ZC_MODE_OPT_SIZE] = "size",
		[ZC_MODE_OPT_DOUBLE] = "number",
	};

	return json_pack("{s:s,s:s,s:s,s:f,s:f,s:s}", "key", o->key, "type", types[o->type],
			 "default", o->def, "min", o->min, "max", o->max, "help", o->help);
}

json_t *zc_modes_json(bool with_availability)
{
	json_t *all = json_array();

	for (size_t i = 0; i < zc_nmodes; i++) {
		const struct zc_mode *m = zc_modes[i], *afters[ZC_AFTERS_MAX];
		size_t na = zc_mode_afters(m, afters, ZC_ARRAY_SIZE(afters)), nof = 0;
		const char *why = with_availability && m->unavailable ? m->unavailable() : NULL;
		json_t *j, *opts = json_array(), *flags = json_array();
		static const struct { unsigned bit; const char *name; } fl[] = {
			{ ZC_MODE_EMULATED, "emulated" }, { ZC_MODE_PEER, "peer" },
			{ ZC_MODE_HTTP, "http" }, { ZC_MODE_VERIFIES, "verifies" },
			{ ZC_MODE_UNVERIFIED, "unverified" }, { ZC_MODE_FILE, "file" },
			{ ZC_MODE_PAGE_CHUNK, "page_chunk" },
		};

		for (size_t k = 0; k < ZC_ARRAY_SIZE(fl); k++)
			if (m->flags & fl[k].bit)
				json_array_append_new(flags, json_string(fl[k].name));
		for (const struct zc_mode_opt *o = m->opts; o && o->key; o++)
			json_array_append_new(opts, zc_mode_opt_json(o));
		while (m->after_of && m->after_of[nof])
			nof++;
		j = json_pack("{s:s,s:s,s:s,s:o,s:o,s:o,s:o,s:o}", "name", m->name, "role",
			      zc_role_names[m->role], "summary", m->summary, "flags", flags,
			      "headline_vs", m->vs ? json_string(m->vs->name) : json_null(),
			      "after_modes", names_json(afters, na),
			      "after_mode_of", names_json(m->after_of, nof), "options", opts);
		json_object_set_new(j, "principal", json_boolean(m->principal));
		json_object_set_new(j, "imitated_by",
				    m->imitated_by ? json_string(m->imitated_by->name) : json_null());
		json_object_set_new(j, "unverified_why",
				    m->unverified_why ? json_string(m->unverified_why) : json_null());
		/* The sizing keys it passes on (mode.h, uses), and the option
		 * that puts them all in use. */
		json_object_set_new(j, "uses", uses_json(zc_mode_uses(m, NULL)));
		json_object_set_new(j, "uses_opt", m->uses_opt ? json_string(m->uses_opt) : json_null());
		if (with_availability) {
			json_object_set_new(j, "available", json_boolean(!why));
			json_object_set_new(j, "unavailable_why", why ? json_string(why) : json_null());
		}
		json_array_append_new(all, j);
	}
	return all;
}
