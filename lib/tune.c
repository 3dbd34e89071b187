/* Tuning modes and the tuning database: one text record per line, appended under a file
 * lock, the newest record of a key winning. Lines:
 *   kernel DEVICE NAME SIZECLASS BX BY CARVEOUT MEDIAN_US SAMPLES
 *   mk     DEVICE PLUGIN 0 0 0 0 MK TASKS_PER_S SAMPLES            */
#include "internal.h"


#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <tuccompi_tune.h>
#include <unistd.h>

static enum tuccompi_tune_mode mode = TUCCOMPI_TUNE_RULES;
static int mode_from_env_done;
static pthread_mutex_t tune_lock = PTHREAD_MUTEX_INITIALIZER;

int tuccompi_tune_mode_parse(const char *s, enum tuccompi_tune_mode *m)
{
	static const char *const names[] = { "rules", "empirical", "cuda", "fixed" };
	for (int i = 0; i < 4; i++)
		if (s && strcasecmp(s, names[i]) == 0)
		{
			*m = (enum tuccompi_tune_mode)i;
			return 0;
		}
	return _tuccompi_error(-EINVAL, "tuning mode '%s' unknown; use rules, empirical or cuda", s ? s : "(null)");
}

static void mode_from_env(void)
{
	if (mode_from_env_done)
		return;
	mode_from_env_done = 1;
	const char *s = getenv("TUCCOMPI_TUNE");
	enum tuccompi_tune_mode m;
	if (s && *s)
	{
		if (tuccompi_tune_mode_parse(s, &m) == 0)
			mode = m;
		else /* tuccompi_init refuses it (lib/env.c); before tuccompi_init, say so */
			fprintf(stderr, "tuccompi: TUCCOMPI_TUNE=%s ignored: use rules, empirical or cuda\n", s);
	}
}

int tuccompi_tune_set_mode(enum tuccompi_tune_mode m)
{
	if ((unsigned)m > TUCCOMPI_TUNE_FIXED)
		return _tuccompi_error(-EINVAL, "tuning mode %d out of range", (int)m);
	pthread_mutex_lock(&tune_lock);
	mode_from_env_done = 1;
	mode = m;
	pthread_mutex_unlock(&tune_lock);
	return 0;
}

enum tuccompi_tune_mode tuccompi_tune_get_mode(void)
{
	pthread_mutex_lock(&tune_lock);
	mode_from_env();
	enum tuccompi_tune_mode m = mode;
	pthread_mutex_unlock(&tune_lock);
	return m;
}

/* ------------------------------------------------------------------ FIXED geometries */

struct forced
{
	char name[96]; /* "" = every kernel */
	unsigned bx, by;
	int carveout;
};
static struct forced forced[64];
static int nforced;

int tuccompi_tune_force(const char *name, unsigned bx, unsigned by, int carveout)
{
	if (bx == 0 || by == 0 || carveout < -1 || carveout > 100)
		return _tuccompi_error(-EINVAL, "tuccompi_tune_force(%s, %u, %u, %d): block sizes must be >= 1 and the "
						"carveout -1 or 0..100",
				       name ? name : "*", bx, by, carveout);
	pthread_mutex_lock(&tune_lock);
	int i;
	for (i = 0; i < nforced; i++)
		if (strcmp(forced[i].name, name ? name : "") == 0)
			break;
	if (i == nforced && nforced < 64)
		nforced++;
	if (i < 64)
	{
		snprintf(forced[i].name, sizeof(forced[i].name), "%s", name ? name : "");
		forced[i].bx = bx;
		forced[i].by = by;
		forced[i].carveout = carveout;
	}
	pthread_mutex_unlock(&tune_lock);
	return i < 64 ? 0 : _tuccompi_error(-ENOSPC, "too many forced kernel geometries");
}

int _tuccompi_tune_forced(const char *name, unsigned *bx, unsigned *by, int *carveout)
{
	int found = 0;
	pthread_mutex_lock(&tune_lock);
	for (int pass = 0; pass < 2 && !found; pass++)
		for (int i = 0; i < nforced && !found; i++)
			if (strcmp(forced[i].name, pass == 0 ? name : "") == 0)
			{
				*bx = forced[i].bx;
				*by = forced[i].by;
				*carveout = forced[i].carveout;
				found = 1;
			}
	pthread_mutex_unlock(&tune_lock);
	return found;
}

/* ------------------------------------------------------------------ database */

const char *tuccompi_tune_db_path(void)
{
	static char path[PATH_MAX];
	const char *env = getenv("TUCCOMPI_TUNE_DB");
	if (env && *env)
		snprintf(path, sizeof(path), "%s", env);
	else
	{
		const char *home = getenv("HOME");
		snprintf(path, sizeof(path), "%s/.tuccompi/tune.db", home && *home ? home : ".");
	}
	return path;
}

static int parse_record(const char *line, struct tuccompi_tune_record *r)
{
	memset(r, 0, sizeof(*r));
	if (line[0] == '#' || line[0] == '\n' || line[0] == '\0')
		return 0;
	int n = sscanf(line, "%7s %95s %95s %d %u %u %d %d %lf %d", r->kind, r->device, r->name, &r->size_class,
		       &r->block_x, &r->block_y, &r->carveout, &r->mk, &r->value, &r->samples);
	return n == 10 ? 1 : -1;
}

int tuccompi_tune_db_lookup(const char *kind, const char *device, const char *name, int size_class,
			    struct tuccompi_tune_record *out)
{
	FILE *f = fopen(tuccompi_tune_db_path(), "r");
	if (!f)
		return errno == ENOENT ? 0 : _tuccompi_error(-errno, "cannot read tuning database %s: %s",
							      tuccompi_tune_db_path(), strerror(errno));
	flock(fileno(f), LOCK_SH);
	char line[512];
	int found = 0;
	struct tuccompi_tune_record r;
	while (fgets(line, sizeof(line), f))
		if (parse_record(line, &r) == 1 && strcmp(r.kind, kind) == 0 && strcmp(r.device, device) == 0 &&
		    strcmp(r.name, name) == 0 && r.size_class == size_class)
		{
			*out = r;
			found = 1;
		}
	flock(fileno(f), LOCK_UN);
	fclose(f);
	return found;
}

static int mkdir_parent(const char *path)
{
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", path);
	char *slash = strrchr(dir, '/');
	if (!slash || slash == dir)
		return 0;
	*slash = '\0';
	for (char *p = dir + 1; *p; p++)
		if (*p == '/')
		{
			*p = '\0';
			mkdir(dir, 0777);
			*p = '/';
		}
	if (mkdir(dir, 0777) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

int tuccompi_tune_db_store(const struct tuccompi_tune_record *r)
{
	const char *path = tuccompi_tune_db_path();
	int ret = mkdir_parent(path);
	if (ret < 0)
		return _tuccompi_error(ret, "cannot create the directory of tuning database %s: %s (set TUCCOMPI_TUNE_DB)",
				       path, strerror(-ret));
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0666);
	if (fd < 0)
		return _tuccompi_error(-errno, "cannot write tuning database %s: %s (set TUCCOMPI_TUNE_DB)", path,
				       strerror(errno));
	flock(fd, LOCK_EX);
	char line[512];
	struct stat st;
	int len = 0;
	if (fstat(fd, &st) == 0 && st.st_size == 0)
		len += snprintf(line + len, sizeof(line) - (size_t)len,
				"# tuccompi tuning database v1: kind device name sizeclass bx by carveout mk value samples\n");
	len += snprintf(line + len, sizeof(line) - (size_t)len, "%s %s %s %d %u %u %d %d %.3f %d\n", r->kind, r->device,
			r->name, r->size_class, r->block_x, r->block_y, r->carveout, r->mk, r->value, r->samples);
	ssize_t w = write(fd, line, (size_t)len);
	int err = w == len ? 0 : -EIO;
	flock(fd, LOCK_UN);
	close(fd);
	return err ? _tuccompi_error(err, "short write to tuning database %s", path) : 0;
}

int tuccompi_tune_db_print(FILE *out)
{
	FILE *f = fopen(tuccompi_tune_db_path(), "r");
	if (!f)
	{
		if (errno == ENOENT)
		{
			fprintf(out, "%s: empty (no tuning recorded yet)\n", tuccompi_tune_db_path());
			return 0;
		}
		return _tuccompi_error(-errno, "cannot read %s: %s", tuccompi_tune_db_path(), strerror(errno));
	}
	/* newest per key: keep them in order of first appearance, overwrite in place */
	struct tuccompi_tune_record *recs = NULL;
	int n = 0, cap = 0, lineno = 0, bad = 0;
	char line[512];
	struct tuccompi_tune_record r;
	while (fgets(line, sizeof(line), f))
	{
		lineno++;
		int p = parse_record(line, &r);
		if (p < 0)
		{
			bad++;
			fprintf(out, "%s:%d: unreadable record skipped\n", tuccompi_tune_db_path(), lineno);
		}
		if (p != 1)
			continue;
		int i;
		for (i = 0; i < n; i++)
			if (!strcmp(recs[i].kind, r.kind) && !strcmp(recs[i].device, r.device) &&
			    !strcmp(recs[i].name, r.name) && recs[i].size_class == r.size_class)
				break;
		if (i == n)
		{
			if (n == cap)
			{
				cap = cap ? 2 * cap : 32;
				recs = realloc(recs, (size_t)cap * sizeof(*recs));
			}
			n++;
		}
		recs[i] = r;
	}
	fclose(f);
	fprintf(out, "%s: %d record(s)\n", tuccompi_tune_db_path(), n);
	for (int i = 0; i < n; i++)
	{
		const struct tuccompi_tune_record *x = &recs[i];
		if (!strcmp(x->kind, "mk"))
			fprintf(out, "  mk      %-28s %-20s MK=%d  %.1f tasks/s (%d runs)\n", x->device, x->name, x->mk,
				x->value, x->samples);
		else
			fprintf(out, "  kernel  %-28s %-20s n~2^%-2d block %ux%u carveout %d%%  %.2f us (%d samples)\n",
				x->device, x->name, x->size_class, x->block_x, x->block_y, x->carveout, x->value,
				x->samples);
	}
	free(recs);
	(void)bad;
	return n;
}

int tuccompi_tune_db_clear(void)
{
	if (unlink(tuccompi_tune_db_path()) < 0 && errno != ENOENT)
		return _tuccompi_error(-errno, "cannot remove %s: %s", tuccompi_tune_db_path(), strerror(errno));
	return 0;
}

/* ------------------------------------------------------------------ recorded per device */

unsigned _tuccompi_tune_batch_recorded(const char *plugin, enum tuccompi_unit_kind kind, const char *key)
{
	struct tuccompi_tune_record rec;
	if (!key[0])
		return 0;
	if (tuccompi_tune_db_lookup("batch", key, plugin, (int)kind, &rec) != 1 || rec.mk < 1)
		return 0;
	return (unsigned)rec.mk;
}
