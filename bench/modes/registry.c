// SPDX-License-Identifier: GPL-2.0
/* The list of modes (modes.h) made into the table, its lookups and the
 * relations every mode declares (zcbench list: list.c). */
#include "modes/mode.h"

#include <string.h>

#define ZC_MODE_NAME(ident, name) const char zc_mode_name_##ident[] = name;
ZC_MODES(ZC_MODE_NAME)
#undef ZC_MODE_NAME

#define ZC_MODE_PTR(ident, name) &zc_mode_##ident,
const struct zc_mode *const zc_modes[] = { ZC_MODES(ZC_MODE_PTR) };
#undef ZC_MODE_PTR
const size_t zc_nmodes = ZC_ARRAY_SIZE(zc_modes);

const struct zc_mode *zc_mode_find(enum zc_role role, const char *name)
{
	for (size_t i = 0; i < zc_nmodes; i++)
		if (zc_modes[i]->role == role && !strcmp(zc_modes[i]->name, name))
			return zc_modes[i];
	return NULL;
}

const struct zc_mode *zc_mode_find_any(const char *name)
{
	for (size_t i = 0; i < zc_nmodes; i++)
		if (!strcmp(zc_modes[i]->name, name))
			return zc_modes[i];
	return NULL;
}

bool zc_mode_is_after_of(const struct zc_mode *m, const struct zc_mode *native)
{
	for (const struct zc_mode *const *a = m->after_of; a && *a; a++)
		if (*a == native)
			return true;
	return false;
}

size_t zc_mode_afters(const struct zc_mode *native, const struct zc_mode **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < zc_nmodes; i++)
		if (zc_mode_is_after_of(zc_modes[i], native) && n < max)
			out[n++] = zc_modes[i];
	return n;
}

bool zc_mode_probeable(const struct zc_mode *m)
{
	/* A sink has no pages of its own to send: nothing to page-change test. */
	return (m->step || m->fill) && m->role != ZC_ROLE_SINK &&
	       !(m->flags & ZC_MODE_SOCKET_STEP);
}
