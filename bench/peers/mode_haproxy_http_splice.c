// SPDX-License-Identifier: GPL-2.0
/*
 * proxy haproxy-http-splice: HAProxy in HTTP mode as haproxy-http-copy, with
 * option splice-request/-response: it parses each head from its buffer and
 * splices the bodies socket->pipe->socket (tune.pipesize = pipe_size).
 * Request/response runs only (traffic = rr); its headline ratio is over
 * haproxy-http-copy of the same request/response shape.
 */
#include "modes/mode.h"
#include "peers/peer_program.h"

ZC_MODE(haproxy_http_splice, .role = ZC_ROLE_PROXY,
	.uses = ZC_USES(chunk, pipe_size),
	.flags = ZC_MODE_PEER | ZC_MODE_HTTP | ZC_MODE_PEER_SPLICE, .program = "haproxy",
	.summary = "HAProxy itself in HTTP mode (heads parsed, keep-alive, http-reuse always; "
		   "option splice-request/-response: bodies socket->pipe->socket, tune.pipesize = "
		   "pipe_size), pinned to the DUT's CPUs; traffic = rr only",
	.path = "HAProxy HTTP socket->pipe->socket",
	.vs = ZC_MODE_REF(haproxy_http_copy),
	.unavailable = zc_peer_haproxy_splice_unavailable);
