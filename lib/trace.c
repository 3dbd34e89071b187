/* Tracing switch: StarPU's FxT traces on for a run, converted to DIR/paje.trace (ViTE).
 * Also decides how talkative StarPU is: an FxT build warns at every start. */
#include "internal.h"

#include <dirent.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#define TRACE_FLUSH_WAIT_S 60

static int mkdir_p(const char *path)
{
	char tmp[PATH_MAX];
	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	for (char *p = tmp + 1; *p; p++)
		if (*p == '/')
		{
			*p = '\0';
			if (mkdir(tmp, 0777) < 0 && errno != EEXIST)
				return -errno;
			*p = '/';
		}
	if (mkdir(tmp, 0777) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/* TUCCOMPI_VERBOSE set to anything but "" or "0". */
static int verbose_asked(void)
{
	return _tuccompi_env_flag("TUCCOMPI_VERBOSE", 0);
}

int _tuccompi_trace_setup(const char *dir)
{
	_tuccompi.trace_dir[0] = '\0';
	_tuccompi.fxt_raw_dir[0] = '\0';
	/* StarPU's notices (an FxT build's "configured with --with-fxt" warning at every start,
	 * performance-model calibration warnings) are noise in a normal run: only when the user
	 * asked for a trace or for verbosity. STARPU_SILENT set by the user wins. */
	if (!dir && !verbose_asked())
		setenv("STARPU_SILENT", "1", 0);
	if (!dir)
	{
		/* FxT compiled in but not asked for: keep StarPU from recording anything. */
		setenv("STARPU_FXT_TRACE", "0", 1);
		return 0;
	}
#ifndef TUCCOMPI_HAVE_FXT
	return _tuccompi_error(-ENOTSUP, "a trace was requested (%s) but this StarPU was built without FxT; rebuild "
					 "StarPU with --with-fxt (./setup.sh does)",
			       dir);
#else
	int ret = mkdir_p(dir);
	if (ret < 0)
		return _tuccompi_error(ret, "cannot create trace directory %s: %s (choose a writable place)", dir,
				       strerror(-ret));
	/* Absolute from here on: StarPU opens the raw files relative to its own cwd and the
	 * converter runs in another directory. */
	char abs[PATH_MAX];
	if (!realpath(dir, abs))
		return _tuccompi_error(-errno, "trace directory %s: %s", dir, strerror(errno));
	char raw[PATH_MAX];
	if (snprintf(raw, sizeof(raw), "%s/fxt", abs) >= (int)sizeof(raw))
		return _tuccompi_error(-ENAMETOOLONG, "trace directory name too long: %s", abs);
	ret = mkdir_p(raw);
	if (ret < 0)
		return _tuccompi_error(ret, "cannot create trace directory %s: %s (choose a writable place)", raw,
				       strerror(-ret));
	/* Stale raw files of an earlier run would be merged into this trace: each rank removes its
	 * own (StarPU names them prof_file_USER_RANK) and its flush mark, rank 0 those of ranks this
	 * run does not have, so that no rank waits for another here (StarPU-MPI is not up yet). */
	{
		glob_t g;
		char pat[PATH_MAX + 16];
		snprintf(pat, sizeof(pat), "%s/prof_file_*", raw);
		if (glob(pat, 0, NULL, &g) == 0)
		{
			for (size_t i = 0; i < g.gl_pathc; i++)
			{
				const char *us = strrchr(g.gl_pathv[i], '_');
				char *end = NULL;
				long r = us ? strtol(us + 1, &end, 10) : -1;
				if (end && !*end && (r == _tuccompi.rank || (_tuccompi.rank == 0 && r >= _tuccompi.nranks)))
					unlink(g.gl_pathv[i]);
			}
			globfree(&g);
		}
		char mark[PATH_MAX + 32];
		snprintf(mark, sizeof(mark), "%s/flushed.%d", raw, _tuccompi.rank);
		unlink(mark);
	}
	if (_tuccompi.rank == 0)
	{
		/* What an earlier run converted would pass for this run's trace if this one's
		 * conversion fails: the files starpu_fxt_tool writes go now. */
		static const char *outputs[] = { "paje.trace", "tasks.rec",     "trace.rec",    "data.rec",
						 "dag.dot",    "activity.data", "distrib.data", "trace.html",
						 "tuccompi-sets.tsv" };
		for (unsigned i = 0; i < sizeof(outputs) / sizeof(outputs[0]); i++)
		{
			char p[PATH_MAX + 32];
			snprintf(p, sizeof(p), "%s/%s", abs, outputs[i]);
			unlink(p);
		}
	}
	snprintf(_tuccompi.trace_dir, sizeof(_tuccompi.trace_dir), "%s", abs);
	snprintf(_tuccompi.fxt_raw_dir, sizeof(_tuccompi.fxt_raw_dir), "%s", raw);
	char prefix[PATH_MAX + 2];
	snprintf(prefix, sizeof(prefix), "%s/", raw);
	setenv("STARPU_FXT_PREFIX", prefix, 1);
	setenv("STARPU_FXT_TRACE", "1", 1);
	return 0;
#endif
}

/* Path of starpu_fxt_tool: $TUCCOMPI_FXT_TOOL, else $PATH, else where configure saw it. */
static void fxt_tool_path(char *out, size_t n)
{
	const char *env = getenv("TUCCOMPI_FXT_TOOL");
	if (env && *env)
	{
		snprintf(out, n, "%s", env);
		return;
	}
	const char *path = getenv("PATH");
	if (path)
	{
		char *copy = strdup(path), *save = NULL;
		for (char *d = copy ? strtok_r(copy, ":", &save) : NULL; d; d = strtok_r(NULL, ":", &save))
		{
			snprintf(out, n, "%s/starpu_fxt_tool", d);
			if (access(out, X_OK) == 0)
			{
				free(copy);
				return;
			}
		}
		free(copy);
	}
	snprintf(out, n, "%s/starpu_fxt_tool", TUCCOMPI_STARPU_BINDIR);
}

/* The line of the tool's log that says why it failed: the last one that looks like an error
 * (StarPU's abort message comes after its backtrace), else the last non-empty one. */
static void log_cause(const char *log, char *out, size_t n)
{
	out[0] = '\0';
	FILE *f = fopen(log, "r");
	if (!f)
		return;
	char line[512], last[512] = "";
	while (fgets(line, sizeof(line), f))
	{
		line[strcspn(line, "\r\n")] = '\0';
		if (!line[0])
			continue;
		snprintf(last, sizeof(last), "%s", line);
		if (strstr(line, "abort") || strstr(line, "rror") || strstr(line, "ailed") || strstr(line, "annot"))
			snprintf(out, n, "%s", line);
	}
	fclose(f);
	if (!out[0])
		snprintf(out, n, "%s", last);
}

/* Moves every file of the directory from into the directory to (same file system). */
static int move_files(const char *from, const char *to)
{
	DIR *d = opendir(from);
	if (!d)
		return -errno;
	int ret = 0;
	struct dirent *e;
	while ((e = readdir(d)))
	{
		if (e->d_name[0] == '.')
			continue;
		char a[PATH_MAX + 256], b[PATH_MAX + 256];
		if (snprintf(a, sizeof(a), "%s/%s", from, e->d_name) >= (int)sizeof(a) ||
		    snprintf(b, sizeof(b), "%s/%s", to, e->d_name) >= (int)sizeof(b))
		{
			ret = ret ? ret : -ENAMETOOLONG;
			continue;
		}
		if (rename(a, b) < 0 && ret == 0)
			ret = -errno;
	}
	closedir(d);
	return ret;
}

static void remove_dir(const char *path)
{
	DIR *d = opendir(path);
	if (d)
	{
		struct dirent *e;
		while ((e = readdir(d)))
		{
			if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
				continue;
			char p[PATH_MAX + 256];
			if (snprintf(p, sizeof(p), "%s/%s", path, e->d_name) < (int)sizeof(p))
				unlink(p);
		}
		closedir(d);
	}
	rmdir(path);
}

/* What a trace's StarPU numbers mean, for the plots (scripts/tuccompi-plot): every task set's
 * number (the StarPU iteration of its tasks in tasks.rec) with its plug-in, policy and size, and
 * its scheduling context's. Rank 0 appends a line per set to DIR/tuccompi-sets.tsv. */
void _tuccompi_trace_note_set(const struct tuccompi_taskset_desc *d, const struct tuccompi_policy *policy,
			      unsigned serial, unsigned ctx, int mk)
{
	if (!_tuccompi.trace_dir[0] || _tuccompi.rank != 0)
		return;
	char path[PATH_MAX + 32];
	snprintf(path, sizeof(path), "%s/tuccompi-sets.tsv", _tuccompi.trace_dir);
	FILE *f = fopen(path, "a");
	if (!f)
		return;
	if (ftell(f) == 0)
		fprintf(f, "set\tplugin\tpolicy\tsched\tctx\tmk\ttasks\n");
	const char *sched = policy->sched && policy->sched->policy_name ? policy->sched->policy_name
			    : policy->sched_name ? policy->sched_name : "?";
	fprintf(f, "%u\t%s\t%s\t%s\t%u\t%d\t%llu\n", serial, d->plugin->name, policy->name ? policy->name : "?", sched,
		ctx, mk, (unsigned long long)d->ntasks);
	fclose(f);
}

void _tuccompi_trace_flushed(int rank)
{
	if (!_tuccompi.fxt_raw_dir[0])
		return;
	char mark[PATH_MAX + 32];
	snprintf(mark, sizeof(mark), "%s/flushed.%d", _tuccompi.fxt_raw_dir, rank);
	int fd = open(mark, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd >= 0)
		close(fd);
}

/* Rank 0 converts once every rank's FxT file is complete: StarPU-MPI is down by then, so the
 * ranks say so by a mark beside their file (the trace folder is shared: the converter reads
 * every rank's file anyway). */
static void wait_for_flushes(void)
{
	double until = _tuccompi_now() + TRACE_FLUSH_WAIT_S;
	for (int r = 0; r < _tuccompi.nranks; r++)
	{
		char mark[PATH_MAX + 32];
		snprintf(mark, sizeof(mark), "%s/flushed.%d", _tuccompi.fxt_raw_dir, r);
		while (access(mark, F_OK) != 0)
		{
			if (_tuccompi_now() > until)
			{
				_tuccompi_warn("trace: rank %d's FxT file is not complete after %d s (no %s); converting what is there",
					       r, TRACE_FLUSH_WAIT_S, mark);
				return;
			}
			usleep(10000);
		}
	}
}

int _tuccompi_trace_convert(int rank)
{
	if (!_tuccompi.trace_dir[0] || rank != 0)
		return 0;
	wait_for_flushes();
	const char *dir = _tuccompi.trace_dir;
	glob_t g;
	char pat[PATH_MAX + 16];
	snprintf(pat, sizeof(pat), "%s/prof_file_*", _tuccompi.fxt_raw_dir);
	if (glob(pat, 0, NULL, &g) != 0)
		return _tuccompi_error(-ENOENT, "no FxT file was written in %s (was STARPU_FXT_TRACE=0 forced?)",
				       _tuccompi.fxt_raw_dir);
	char tool[PATH_MAX];
	fxt_tool_path(tool, sizeof(tool));

	/* The tool writes paje.trace and its side files (tasks.rec, dag.dot, ...) into its cwd, as
	 * it goes: it runs in a fresh folder whose files replace DIR's only once it succeeded, so
	 * a failed conversion leaves no truncated paje.trace (and an older trace stays whole). */
	char work[PATH_MAX + 32], log[PATH_MAX + 32];
	snprintf(work, sizeof(work), "%s/.fxt_tool.XXXXXX", dir);
	snprintf(log, sizeof(log), "%s/fxt_tool.log", dir);
	if (!mkdtemp(work))
	{
		int err = -errno;
		globfree(&g);
		return _tuccompi_error(err, "cannot create a folder in %s for the trace conversion: %s", dir,
				       strerror(-err));
	}

	char **argv = calloc(2 * g.gl_pathc + 3, sizeof(char *));
	if (!argv)
	{
		globfree(&g);
		rmdir(work);
		return _tuccompi_error(-ENOMEM, "out of memory converting the trace");
	}
	int a = 0;
	argv[a++] = tool;
	argv[a++] = "-c"; /* a colour per codelet: ViTE shows which plug-in runs where */
	for (size_t i = 0; i < g.gl_pathc; i++)
	{
		argv[a++] = "-i";
		argv[a++] = g.gl_pathv[i]; /* absolute: fxt_raw_dir is */
	}
	/* No "-o": StarPU 1.3.10's tool frees its default output name (a string literal)
	 * when given -o and crashes; its default is paje.trace in the cwd anyway. */
	argv[a] = NULL;

	int ret = 0;
	pid_t pid = fork();
	if (pid == 0)
	{
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0)
		{
			dup2(fd, 1);
			dup2(fd, 2);
		}
		if (chdir(work) < 0)
		{
			fprintf(stderr, "cannot enter %s: %s\n", work, strerror(errno));
			_exit(126);
		}
		execv(tool, argv);
		fprintf(stderr, "cannot run %s: %s\n", tool, strerror(errno));
		_exit(127);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		ret = _tuccompi_error(-errno, "cannot run %s: %s", tool, strerror(errno));
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
	{
		char cause[512], how[64];
		log_cause(log, cause, sizeof(cause));
		if (WIFSIGNALED(status))
			snprintf(how, sizeof(how), "killed by signal %d (%s)", WTERMSIG(status),
				 strsignal(WTERMSIG(status)));
		else
			snprintf(how, sizeof(how), "exit %d", WEXITSTATUS(status));
		ret = _tuccompi_error(-EIO, "converting %zu FxT file(s) of %s to paje.trace failed: %s %s: %s (whole log: %s)",
				      g.gl_pathc, _tuccompi.fxt_raw_dir, tool, how, cause[0] ? cause : "no output",
				      log);
	}
	else if ((ret = move_files(work, dir)) < 0)
		ret = _tuccompi_error(ret, "cannot move the converted trace from %s into %s: %s", work, dir,
				      strerror(-ret));
	else
		_tuccompi_log("trace: %s/paje.trace (open it with ViTE)", dir);
	remove_dir(work);
	free(argv);
	globfree(&g);
	return ret;
}
