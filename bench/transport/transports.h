/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one list of transports: X(identifier). Each is a file in transport/
 * exporting const struct zc_transport zc_transport_<identifier> (host.h),
 * with its host-file keys, its JSON and its setup; host files name it by
 * its .name. A new transport is that file and one line here.
 */
#ifndef ZC_TRANSPORTS_H
#define ZC_TRANSPORTS_H

#define ZC_TRANSPORTS(X)	\
	X(local)		\
	X(netns)		\
	X(ssh)

#endif
