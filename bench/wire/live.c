// SPDX-License-Identifier: GPL-2.0
/*
 * A local role's connection counters where the controller can read them
 * while the role runs: the role's io array (struct zc_io, whose bytes the
 * data path counts anyway) and its per-connection edges live in a shared
 * file mapping instead of the heap. The data path stores nothing more; the
 * controller reads a few cache lines every interval from its own core. The
 * header says where the fields are, so the controller needs no struct of
 * the role's build.
 */
#include "wire/wire.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define ZC_LIVE_MAGIC 0x5a434c56u	/* "ZCLV", stored last */

struct zc_live_hdr {
	uint32_t magic, version;
	uint32_t nconn, io_size;	/* sizeof(struct zc_io) of the role's build */
	uint32_t bytes_off, nphase;	/* offsetof(struct zc_io, bytes); PH_NR */
	uint64_t io_off, edge_off, size;
};

static void *role_map;	/* a role process has one role */
static size_t role_map_len;

int zc_live_role_alloc(struct zc_live_role *r)
{
	const char *path = getenv(ZC_LIVE_ENV);
	size_t io_off = 64, edge_off, size;
	struct zc_live_hdr *h;
	void *base;
	int fd;

	edge_off = io_off + ((r->nconn * sizeof(*r->io) + 63) & ~(size_t)63);
	size = edge_off + r->nconn * sizeof(*r->edge);
	/* No controller watching (a remote role, a role run by hand): the heap. */
	if (!path || !*path || (fd = open(path, O_RDWR | O_CLOEXEC)) < 0)
		goto heap;
	if (ftruncate(fd, (off_t)size)) {
		close(fd);
		goto heap;
	}
	base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (base == MAP_FAILED)
		goto heap;
	h = base;
	*h = (struct zc_live_hdr){ .version = 1, .nconn = (uint32_t)r->nconn,
				   .io_size = sizeof(*r->io),
				   .bytes_off = offsetof(struct zc_io, bytes), .nphase = PH_NR,
				   .io_off = io_off, .edge_off = edge_off, .size = size };
	__atomic_store_n(&h->magic, ZC_LIVE_MAGIC, __ATOMIC_RELEASE);
	role_map = base;
	role_map_len = size;
	r->io = (void *)((char *)base + io_off);
	r->edge = (void *)((char *)base + edge_off);
	return 0;
heap:
	r->io = calloc(r->nconn, sizeof(*r->io));
	r->edge = calloc(r->nconn, sizeof(*r->edge));
	return r->io && r->edge ? 0 : -ENOMEM;
}

void zc_live_role_free(struct zc_live_role *r)
{
	if (role_map && (void *)r->io > role_map && (char *)r->io < (char *)role_map + role_map_len) {
		munmap(role_map, role_map_len);
		role_map = NULL;
	} else {
		free(r->io);
		free(r->edge);
	}
	r->io = NULL;
	r->edge = NULL;
}

int zc_live_create(int role, char *path, size_t len)
{
	const char *dir = access("/dev/shm", W_OK) ? (getenv("TMPDIR") ?: "/tmp") : "/dev/shm";
	int fd;

	if ((size_t)snprintf(path, len, "%s/zcbench-live-%d-%d", dir, (int)getpid(), role) >= len)
		return -ENAMETOOLONG;
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

int zc_live_open(struct zc_live_map *m, const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	const struct zc_live_hdr *h;
	struct stat st;
	void *base;

	m->base = NULL;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || (size_t)st.st_size < sizeof(*h)) {
		close(fd);
		return -EAGAIN;
	}
	base = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (base == MAP_FAILED)
		return -errno;
	h = base;
	if (__atomic_load_n(&h->magic, __ATOMIC_ACQUIRE) != ZC_LIVE_MAGIC || h->version != 1 ||
	    h->size > (uint64_t)st.st_size || h->bytes_off + 8 > h->io_size ||
	    h->io_off + (uint64_t)h->nconn * h->io_size > h->edge_off ||
	    h->edge_off + (uint64_t)h->nconn * h->nphase * 8 > h->size || h->nphase < 2) {
		munmap(base, (size_t)st.st_size);
		return -EAGAIN;
	}
	m->base = base;
	m->len = (size_t)st.st_size;
	return 0;
}

int zc_live_bytes(const struct zc_live_map *m, uint64_t *bytes)
{
	const struct zc_live_hdr *h = m->base;

	*bytes = 0;
	if (!h)
		return -ENODATA;
	for (uint32_t c = 0; c < h->nconn; c++) {
		const uint64_t *b = (const uint64_t *)((const char *)h + h->io_off +
						       (size_t)c * h->io_size + h->bytes_off);

		/* The owner thread adds; an aligned 8-byte load sees a whole value. */
		*bytes += __atomic_load_n(b, __ATOMIC_RELAXED);
	}
	return 0;
}

int zc_live_edge(const struct zc_live_map *m, int phase, uint64_t *bytes)
{
	const struct zc_live_hdr *h = m->base;

	*bytes = 0;
	if (!h || phase < 0 || (uint32_t)phase >= h->nphase)
		return -ENODATA;
	for (uint32_t c = 0; c < h->nconn; c++)
		*bytes += __atomic_load_n((const uint64_t *)((const char *)h + h->edge_off) +
					  (size_t)c * h->nphase + phase, __ATOMIC_RELAXED);
	return 0;
}

void zc_live_close(struct zc_live_map *m)
{
	if (m->base)
		munmap(m->base, m->len);
	m->base = NULL;
}

void zc_live_reap_stale(void)
{
	DIR *d = opendir("/dev/shm");
	struct dirent *e;

	if (!d)
		return;
	while ((e = readdir(d))) {
		int pid, role;
		char path[300];

		if (sscanf(e->d_name, "zcbench-live-%d-%d", &pid, &role) != 2 || pid <= 0 ||
		    !(kill(pid, 0) && errno == ESRCH))
			continue;
		snprintf(path, sizeof(path), "/dev/shm/%.200s", e->d_name);
		unlink(path);
	}
	closedir(d);
}
