/* The contraction hierarchy's cache file (sssp_ch_write / sssp_ch_read, ch.h): a header with a
 * format version, the key of the graph it was built from and a checksum, then the hierarchy's
 * arrays; written atomically (a temporary file beside it, then rename), in this machine's byte
 * order, and validated on reading so that the engines may index with it without checks. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "common/graph_hash.h"
#include "phast/ch_internal.h"
#include "sssp.h"

#define CH_MAGIC "TCCPHCH\n"
#define CH_VERSION 1u

struct file_header
{
	char magic[8];
	uint32_t version, header_bytes;
	uint64_t key;
	uint64_t checksum; /* of the header with this field 0, then the payload */
	uint32_t n, levels;
	uint64_t up_arcs, down_arcs, shortcuts;
	double build_s;
	uint32_t rounds, threads;
	uint64_t payload_bytes;
};

struct section
{
	void *p;
	size_t bytes;
};

static unsigned sections(const struct sssp_ch *ch, struct section *s)
{
	size_t nn = (size_t)ch->n + 1;
	unsigned k = 0;
	s[k++] = (struct section){ ch->level_start, ((size_t)ch->levels + 1) * sizeof(uint32_t) };
	s[k++] = (struct section){ ch->pos, (size_t)ch->n * sizeof(uint32_t) };
	s[k++] = (struct section){ ch->orig, (size_t)ch->n * sizeof(uint32_t) };
	s[k++] = (struct section){ ch->up_start, nn * sizeof(uint64_t) };
	s[k++] = (struct section){ ch->up, ch->up_arcs * sizeof(struct sssp_ch_arc) };
	s[k++] = (struct section){ ch->up_mid, ch->up_arcs * sizeof(uint32_t) };
	s[k++] = (struct section){ ch->upin_start, nn * sizeof(uint64_t) };
	s[k++] = (struct section){ ch->upin, ch->up_arcs * sizeof(struct sssp_ch_arc) };
	s[k++] = (struct section){ ch->down_start, nn * sizeof(uint64_t) };
	s[k++] = (struct section){ ch->down, ch->down_arcs * sizeof(struct sssp_ch_arc) };
	s[k++] = (struct section){ ch->down_mid, ch->down_arcs * sizeof(uint32_t) };
	return k;
}

static int (*tmp_track)(const char *tmp);
static void (*tmp_untrack)(int slot);

void sssp_set_tmp_hooks(int (*track)(const char *tmp), void (*untrack)(int slot))
{
	tmp_track = track;
	tmp_untrack = untrack;
}

int sssp_ch_write(const struct sssp_ch *ch, const char *path, uint64_t key, char *err, size_t errlen)
{
	struct section s[16];
	unsigned ns = sections(ch, s);
	struct file_header h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, CH_MAGIC, 8);
	h.version = CH_VERSION;
	h.header_bytes = sizeof h;
	h.key = key;
	h.n = ch->n;
	h.levels = ch->levels;
	h.up_arcs = ch->up_arcs;
	h.down_arcs = ch->down_arcs;
	h.shortcuts = ch->st.shortcuts;
	h.build_s = ch->st.build_s;
	h.rounds = ch->st.rounds;
	h.threads = ch->st.threads;
	for (unsigned i = 0; i < ns; i++)
		h.payload_bytes += s[i].bytes;
	uint64_t sum = sssp_hash_bytes(0, &h, sizeof h);
	for (unsigned i = 0; i < ns; i++)
		sum = sssp_hash_bytes(sum, s[i].p, s[i].bytes);
	h.checksum = sssp_hash_final(sum);

	size_t plen = strlen(path);
	char *tmp = malloc(plen + 16);
	if (!tmp)
		return sssp_fail(err, errlen, -ENOMEM, "%s: out of memory", path);
	memcpy(tmp, path, plen);
	memcpy(tmp + plen, ".tmp.XXXXXX", 12);
	int fd = mkstemp(tmp);
	if (fd < 0)
	{
		int e = errno;
		sssp_fail(err, errlen, -e, "%s: cannot create a temporary file beside it: %s (is the folder writable?)", path,
			strerror(e));
		free(tmp);
		return -e;
	}
	fchmod(fd, 0644); /* mkstemp's 0600 would hide the cache from other users */
	int slot = tmp_track ? tmp_track(tmp) : -1;
	FILE *f = fdopen(fd, "wb");
	int ok = f && fwrite(&h, sizeof h, 1, f) == 1;
	for (unsigned i = 0; ok && i < ns; i++)
		ok = s[i].bytes == 0 || fwrite(s[i].p, 1, s[i].bytes, f) == s[i].bytes;
	int e = errno;
	if (f ? fclose(f) != 0 : close(fd) != 0)
		ok = 0;
	if (ok && rename(tmp, path) != 0)
	{
		e = errno;
		ok = 0;
	}
	if (!ok)
		unlink(tmp);
	if (tmp_untrack && slot >= 0)
		tmp_untrack(slot);
	if (!ok)
	{
		free(tmp);
		return sssp_fail(err, errlen, -(e ? e : EIO), "%s: cannot write the contraction hierarchy: %s (disk full?)", path,
			       strerror(e ? e : EIO));
	}
	free(tmp);
	return 0;
}

static int bad(char *err, size_t errlen, const char *path, const char *what)
{
	return sssp_fail(err, errlen, -EBADMSG, "%s: not a valid contraction hierarchy cache (%s): delete it or let it be rebuilt",
		       path, what);
}

/* The contents make sense: the engines may then index with them without checks. */
static const char *validate(const struct sssp_ch *ch)
{
	uint32_t n = ch->n, L = ch->levels;
	if (ch->level_start[0] != 0 || ch->level_start[L] != n)
		return "level boundaries";
	for (uint32_t l = 0; l < L; l++)
		if (ch->level_start[l] > ch->level_start[l + 1])
			return "level boundaries";
	for (uint32_t v = 0; v < n; v++)
		if (ch->pos[v] >= n || ch->orig[ch->pos[v]] != v)
			return "vertex permutation";
	const uint64_t *starts[3] = { ch->up_start, ch->upin_start, ch->down_start };
	const struct sssp_ch_arc *arcs[3] = { ch->up, ch->upin, ch->down };
	uint64_t counts[3] = { ch->up_arcs, ch->up_arcs, ch->down_arcs };
	for (int k = 0; k < 3; k++)
	{
		if (starts[k][0] != 0 || starts[k][n] != counts[k])
			return "arc offsets";
		uint32_t l = 0; /* level block of position p */
		for (uint32_t p = 0; p < n; p++)
		{
			while (ch->level_start[l + 1] <= p)
				l++;
			if (starts[k][p] > starts[k][p + 1])
				return "arc offsets";
			for (uint64_t e = starts[k][p]; e < starts[k][p + 1]; e++)
			{
				uint32_t q = arcs[k][e].v;
				if (q >= n)
					return "arc end out of range";
				/* up and down: the other end in an earlier block; upin: in a later one */
				int earlier = q < ch->level_start[l];
				int later = q >= ch->level_start[l + 1];
				if (k == 1 ? !later : !earlier)
					return "arc between levels in the wrong direction";
			}
		}
	}
	for (uint64_t e = 0; e < ch->up_arcs; e++)
		if (ch->up_mid[e] != NONE && ch->up_mid[e] >= n)
			return "middle vertex out of range";
	for (uint64_t e = 0; e < ch->down_arcs; e++)
		if (ch->down_mid[e] != NONE && ch->down_mid[e] >= n)
			return "middle vertex out of range";
	return NULL;
}

int sssp_ch_read(const char *path, uint64_t key, struct sssp_ch **out, char *err, size_t errlen)
{
	*out = NULL;
	FILE *f = fopen(path, "rb");
	if (!f)
	{
		int e = errno;
		return sssp_fail(err, errlen, -e, "%s: cannot open the contraction hierarchy cache: %s", path, strerror(e));
	}
	struct file_header h;
	struct stat sb;
	if (fstat(fileno(f), &sb) != 0 || fread(&h, sizeof h, 1, f) != 1 || memcmp(h.magic, CH_MAGIC, 8) != 0)
	{
		fclose(f);
		return bad(err, errlen, path, "no header");
	}
	if (h.version != CH_VERSION || h.header_bytes != sizeof h)
	{
		fclose(f);
		return sssp_fail(err, errlen, -ESTALE,
			       "%s: contraction hierarchy cache of format version %" PRIu32 ", this program reads version %u: "
			       "it will be rebuilt",
			       path, h.version, CH_VERSION);
	}
	if (h.key != key)
	{
		fclose(f);
		return sssp_fail(err, errlen, -ESTALE,
			       "%s: contraction hierarchy cache made for another graph (key %016" PRIx64 ", this graph %016" PRIx64
			       "): it will be rebuilt",
			       path, h.key, key);
	}
	if (h.n > INT32_MAX || h.levels > h.n + 1 || h.up_arcs > ((uint64_t)1 << 40) || h.down_arcs > ((uint64_t)1 << 40))
	{
		fclose(f);
		return bad(err, errlen, path, "sizes out of range");
	}
	struct sssp_ch *ch = sssp_ch_alloc(h.n, h.levels, h.up_arcs, h.down_arcs);
	if (!ch)
	{
		fclose(f);
		return sssp_fail(err, errlen, -ENOMEM, "%s: out of memory reading the contraction hierarchy", path);
	}
	struct section s[16];
	unsigned ns = sections(ch, s);
	uint64_t payload = 0;
	for (unsigned i = 0; i < ns; i++)
		payload += s[i].bytes;
	if (h.payload_bytes != payload || (uint64_t)sb.st_size != sizeof h + payload)
	{
		fclose(f);
		sssp_ch_free(ch);
		return bad(err, errlen, path, "size does not match its header (truncated?)");
	}
	uint64_t want = h.checksum;
	h.checksum = 0;
	uint64_t sum = sssp_hash_bytes(0, &h, sizeof h);
	for (unsigned i = 0; i < ns; i++)
	{
		if (s[i].bytes && fread(s[i].p, 1, s[i].bytes, f) != s[i].bytes)
		{
			fclose(f);
			sssp_ch_free(ch);
			return bad(err, errlen, path, "truncated");
		}
		sum = sssp_hash_bytes(sum, s[i].p, s[i].bytes);
	}
	fclose(f);
	if (sssp_hash_final(sum) != want)
	{
		sssp_ch_free(ch);
		return bad(err, errlen, path, "checksum mismatch: the file is corrupt");
	}
	const char *why = validate(ch);
	if (why)
	{
		sssp_ch_free(ch);
		return bad(err, errlen, path, why);
	}
	ch->st.shortcuts = h.shortcuts;
	ch->st.up_arcs = h.up_arcs;
	ch->st.down_arcs = h.down_arcs;
	ch->st.levels = h.levels;
	ch->st.build_s = h.build_s;
	ch->st.rounds = h.rounds;
	ch->st.threads = h.threads;
	*out = ch;
	return 0;
}
