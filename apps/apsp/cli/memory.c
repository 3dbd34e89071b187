/* The memory a tool may take, and large outputs faulted in at once (memory.h). */
#include "memory.h"

#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* The first number after @p key in the file, times @p unit; 0 if absent. */
static uint64_t file_value(const char *path, const char *key, uint64_t unit)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	char line[256];
	uint64_t v = 0;
	size_t klen = strlen(key);
	while (fgets(line, sizeof line, f))
		if (!strncmp(line, key, klen))
		{
			char *end;
			unsigned long long x = strtoull(line + klen, &end, 10);
			v = end != line + klen ? (uint64_t)x * unit : 0;
			break;
		}
	fclose(f);
	return v;
}

/* This process's cgroup folder under the v2 hierarchy ("0::/path") or v1's memory
 * controller ("N:memory:/path"), into @p out; 0 if found. */
static int cgroup_dir(int v2, char *out, size_t len)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	if (!f)
		return -1;
	char line[1024];
	int found = -1;
	while (found < 0 && fgets(line, sizeof line, f))
	{
		line[strcspn(line, "\n")] = '\0';
		char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
		if (!c2)
			continue;
		*c1 = *c2 = '\0';
		const char *controllers = c1 + 1, *path = c2 + 1;
		if (v2 ? (!strcmp(line, "0") && !*controllers) : (strstr(controllers, "memory") != NULL))
		{
			snprintf(out, len, "%s%s", v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory", path);
			found = 0;
		}
	}
	fclose(f);
	return found;
}

/* Room left under the cgroup limit, or 0 when there is no limit. */
static uint64_t cgroup_room(void)
{
	static const struct
	{
		int v2;
		const char *limit, *usage, *stat, *inactive;
	} kinds[] = {
		{ 1, "memory.max", "memory.current", "memory.stat", "inactive_file " },
		{ 0, "memory.limit_in_bytes", "memory.usage_in_bytes", "memory.stat", "total_inactive_file " },
	};
	for (unsigned k = 0; k < 2; k++)
	{
		char dirs[2][PATH_MAX], path[2 * PATH_MAX + 64];
		int nd = 0;
		if (cgroup_dir(kinds[k].v2, dirs[nd], sizeof dirs[0]) == 0)
			nd++;
		snprintf(dirs[nd++], sizeof dirs[0], "%s", kinds[k].v2 ? "/sys/fs/cgroup" : "/sys/fs/cgroup/memory");
		for (int d = 0; d < nd; d++)
		{
			snprintf(path, sizeof path, "%s/%s", dirs[d], kinds[k].limit);
			uint64_t limit = file_value(path, "", 1);
			if (!limit || limit >= (1ull << 60)) /* "max", or v1's "unlimited" */
				continue;
			snprintf(path, sizeof path, "%s/%s", dirs[d], kinds[k].usage);
			uint64_t used = file_value(path, "", 1);
			snprintf(path, sizeof path, "%s/%s", dirs[d], kinds[k].stat);
			uint64_t cache = file_value(path, kinds[k].inactive, 1);
			used = used > cache ? used - cache : 0;
			return limit > used ? limit - used : 1;
		}
	}
	return 0;
}

uint64_t cli_memory_available(const char **what)
{
	uint64_t avail = file_value("/proc/meminfo", "MemAvailable:", 1024), room = cgroup_room();
	*what = "available memory";
	if (room && (!avail || room < avail))
	{
		*what = "cgroup memory limit";
		return room;
	}
	return avail;
}

uint64_t cli_memory_limit(uint64_t option, const char **what)
{
	static char text[96];
	if (option)
	{
		*what = "--max-memory";
		return option;
	}
	const char *source;
	uint64_t avail = cli_memory_available(&source);
	snprintf(text, sizeof text, "%s; --max-memory changes it", source);
	*what = text;
	return avail;
}

/* One thread's part of cli_calloc_touched(): zero a range (the writes fault its pages in). */
struct touch_part
{
	unsigned char *p;
	size_t len;
};

static void *touch_range(void *arg)
{
	const struct touch_part *t = arg;
	memset(t->p, 0, t->len);
	return NULL;
}

void *cli_calloc_touched(size_t n, size_t size, unsigned nthreads)
{
	const size_t huge = (size_t)2 << 20, small = (size_t)64 << 20;
	if (size && n > SIZE_MAX / size)
		return NULL;
	size_t len = n * size;
	if (!len)
		len = 1;
	if (len < small) /* not worth threads: a few thousand pages */
		return calloc(1, len);
	void *p;
	if (posix_memalign(&p, huge, len) != 0)
		return NULL;
#ifdef MADV_HUGEPAGE
	madvise(p, (len + huge - 1) & ~(huge - 1), MADV_HUGEPAGE); /* advice only: a failure changes nothing */
#endif
	if (!nthreads)
	{
		long c = sysconf(_SC_NPROCESSORS_ONLN);
		nthreads = c < 1 ? 1 : c > 16 ? 16 : (unsigned)c;
	}
	struct touch_part part[16];
	pthread_t th[16];
	unsigned k = nthreads > 16 ? 16 : nthreads, started = 0;
	size_t step = (len / k + huge - 1) & ~(huge - 1);
	for (unsigned i = 0; i < k; i++)
	{
		size_t off = (size_t)i * step;
		part[i].p = (unsigned char *)p + (off < len ? off : len);
		part[i].len = off >= len ? 0 : len - off < step ? len - off : step;
		/* the first part is this thread's; a thread that cannot start leaves its part to it too */
		if (i > 0 && part[i].len && pthread_create(&th[i], NULL, touch_range, &part[i]) == 0)
			started |= 1u << i;
		else if (i > 0)
			touch_range(&part[i]);
	}
	touch_range(&part[0]);
	for (unsigned i = 1; i < k; i++)
		if (started & (1u << i))
			pthread_join(th[i], NULL);
	return p;
}
