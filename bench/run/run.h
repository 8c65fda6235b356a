/* SPDX-License-Identifier: GPL-2.0 */
#ifndef ZC_RUN_H
#define ZC_RUN_H

int zc_cmd_run(int argc, char **argv);

#endif
