/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one list of data paths: X(identifier). The mode's name is its
 * identifier with '_' as '-'; its role and description live in its file.
 */
#ifndef ZC_MODES_H
#define ZC_MODES_H

#define ZC_MODES(X)		\
	X(send)			\
	X(vmsplice)		\
	X(vmsplice_gift)	\
	X(tee)			\
	X(sendfile)		\
	X(splice_file)		\
	X(msg_zerocopy)		\
	X(uring_send)		\
	X(uring_send_zc)	\
	X(uring_vmsplice)	\
	X(copy)			\
	X(splice)		\
	X(uring_copy)		\
	X(uring_splice)		\
	X(recv)			\
	X(splice_null)		\
	X(vmsplice_as_writev)	\
	X(tee_as_writev)	\
	X(sendfile_as_copy)	\
	X(sendfile_bounce)	\
	X(splice_as_copy)

#endif
