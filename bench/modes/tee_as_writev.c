// SPDX-License-Identifier: GPL-2.0
/*
 * source tee-as-writev (emulated after-mode of tee): the load generator's
 * master pipe is filled by writev (what its one vmsplice becomes under
 * Safin's series); tee() and splice() per chunk are unchanged by the series,
 * so this isolates what the generator would lose.
 */
#include "modes/mode.h"
#include "modes/mode_shared.h"

static int taw_setup(struct zc_io *io)
{
	return zc_tee_setup(io, true);
}

ZC_MODE(tee_as_writev,
	.role = ZC_ROLE_SOURCE,
	.uses = ZC_USES(chunk, pipe_size),
	.flags = ZC_MODE_EMULATED | ZC_MODE_STATIC_CHUNK,
	.summary = "tee after Safin's patch: master pipe filled by writev(), tee() + splice()",
	.after_of = ZC_AFTER_OF(ZC_MODE_REF(tee)),
	.setup = taw_setup,
	.fill = zc_tee_fill,
	.teardown = zc_io_teardown_pipes,
);
