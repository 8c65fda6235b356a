/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The one list of data paths: X(identifier, "name"). The name is written
 * here only; the mode's file defines it with ZC_MODE(identifier, ...), which
 * takes the name from this list. Order within a role is the order of
 * `zcbench list` and of the headline.
 */
#ifndef ZC_MODES_H
#define ZC_MODES_H

#define ZC_MODES(X)					\
	X(send, "send")					\
	X(vmsplice, "vmsplice")				\
	X(vmsplice_gift, "vmsplice-gift")		\
	X(tee, "tee")					\
	X(sendfile, "sendfile")				\
	X(splice_file, "splice-file")			\
	X(msg_zerocopy, "msg-zerocopy")			\
	X(uring_send, "uring-send")			\
	X(uring_send_zc, "uring-send-zc")		\
	X(uring_vmsplice, "uring-vmsplice")		\
	X(copy, "copy")					\
	X(splice, "splice")				\
	X(uring_copy, "uring-copy")			\
	X(uring_splice, "uring-splice")			\
	X(recv, "recv")					\
	X(splice_null, "splice-null")			\
	X(vmsplice_as_writev, "vmsplice-as-writev")	\
	X(tee_as_writev, "tee-as-writev")		\
	X(sendfile_as_copy, "sendfile-as-copy")		\
	X(sendfile_bounce, "sendfile-bounce")		\
	X(splice_as_copy, "splice-as-copy")		\
	X(iperf3_send, "iperf3-send")			\
	X(iperf3_sendfile, "iperf3-sendfile")		\
	X(haproxy_copy, "haproxy-copy")			\
	X(haproxy_splice, "haproxy-splice")		\
	X(haproxy_http_copy, "haproxy-http-copy")	\
	X(haproxy_http_splice, "haproxy-http-splice")	\
	X(nginx_sendfile, "nginx-sendfile")		\
	X(nginx_copy, "nginx-copy")			\
	X(wrk, "wrk")					\
	X(h2load, "h2load")

#endif
