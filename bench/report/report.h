/* SPDX-License-Identifier: GPL-2.0 */
/* Subcommands that read results files back (compare, report, export, plot). */
#ifndef ZC_REPORT_H
#define ZC_REPORT_H

int zc_cmd_compare(int argc, char **argv);
int zc_cmd_report(int argc, char **argv);
int zc_cmd_export(int argc, char **argv);
int zc_cmd_plot(int argc, char **argv);
int zc_cmd_before_after(int argc, char **argv);

#include <jansson.h>
#include <stdio.h>
/* report --mail (mail.c): FILE's report in at most 72 columns; base (may be
 * NULL) the results before, for the patched paths' before and after. */
void zc_report_mail(FILE *f, const char *path, json_t *root, const char *base_path, json_t *base);

#endif
