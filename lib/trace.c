/* Tracing switch: StarPU's FxT traces on for a run, converted to DIR/paje.trace (ViTE). */
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

int _tuccompi_trace_setup(const char *dir)
{
	_tuccompi.trace_dir[0] = '\0';
	_tuccompi.fxt_raw_dir[0] = '\0';
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
	char raw[PATH_MAX];
	if (snprintf(raw, sizeof(raw), "%s/fxt", dir) >= (int)sizeof(raw))
		return _tuccompi_error(-ENAMETOOLONG, "trace directory name too long: %s", dir);
	int ret = mkdir_p(raw);
	if (ret < 0)
		return _tuccompi_error(ret, "cannot create trace directory %s: %s (choose a writable place)", raw,
				       strerror(-ret));
	if (_tuccompi.rank == 0)
	{
		/* Stale raw files of an earlier run would be merged into this trace. */
		glob_t g;
		char pat[PATH_MAX + 16];
		snprintf(pat, sizeof(pat), "%s/prof_file_*", raw);
		if (glob(pat, 0, NULL, &g) == 0)
		{
			for (size_t i = 0; i < g.gl_pathc; i++)
				unlink(g.gl_pathv[i]);
			globfree(&g);
		}
	}
	_tuccompi_comm_barrier();
	snprintf(_tuccompi.trace_dir, sizeof(_tuccompi.trace_dir), "%s", dir);
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
		for (char *d = strtok_r(copy, ":", &save); d; d = strtok_r(NULL, ":", &save))
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

int _tuccompi_trace_convert(int rank)
{
	if (!_tuccompi.trace_dir[0] || rank != 0)
		return 0;
	glob_t g;
	char pat[PATH_MAX + 16];
	snprintf(pat, sizeof(pat), "%s/prof_file_*", _tuccompi.fxt_raw_dir);
	if (glob(pat, 0, NULL, &g) != 0)
		return _tuccompi_error(-ENOENT, "no FxT file was written in %s (was STARPU_FXT_TRACE=0 forced?)",
				       _tuccompi.fxt_raw_dir);
	char tool[PATH_MAX];
	fxt_tool_path(tool, sizeof(tool));
	char **argv = calloc(2 * g.gl_pathc + 2, sizeof(char *));
	int a = 0;
	argv[a++] = tool;
	for (size_t i = 0; i < g.gl_pathc; i++)
	{
		argv[a++] = "-i";
		argv[a++] = g.gl_pathv[i];
	}
	/* No "-o": StarPU 1.3.10's tool frees its default output name (a string literal)
	 * when given -o and crashes; its default is paje.trace in the cwd anyway. */
	argv[a] = NULL;

	int ret = 0;
	pid_t pid = fork();
	if (pid == 0)
	{
		/* starpu_fxt_tool writes its side files (tasks.rec, dag.dot, ...) in its cwd. */
		if (chdir(_tuccompi.trace_dir) < 0)
			_exit(126);
		int fd = open("fxt_tool.log", O_WRONLY | O_CREAT | O_TRUNC, 0666);
		if (fd >= 0)
		{
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execv(tool, argv);
		_exit(127);
	}
	int status = 0;
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		ret = _tuccompi_error(-errno, "cannot run %s: %s", tool, strerror(errno));
	else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
		ret = _tuccompi_error(-EIO,
				      "%s failed (exit %d) converting %zu FxT file(s); see %s/fxt_tool.log (set "
				      "TUCCOMPI_FXT_TOOL to the tool of this StarPU build)",
				      tool, WIFEXITED(status) ? WEXITSTATUS(status) : -1, g.gl_pathc, _tuccompi.trace_dir);
	else
		_tuccompi_log("trace: %s/paje.trace (open it with ViTE)", _tuccompi.trace_dir);
	free(argv);
	globfree(&g);
	return ret;
}
