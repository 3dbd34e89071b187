/* The output paths of the tools, checked before any work (out_paths.h). */
#include "out_paths.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "numbers.h"

/* The folder of @p path ("." when it has none) into @p dir. */
static void folder_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* A name for comparisons that needs no file to exist: the real path of the nearest existing
 * folder of @p path, then the rest of it as given. "" when nothing resolves. */
static void canonical(const char *path, char *out, size_t len)
{
	char prefix[PATH_MAX], real[PATH_MAX];
	struct stat st;
	const char *rest = strrchr(path, '/');
	rest = rest ? rest + 1 : path;
	for (;;)
	{
		size_t plen = (size_t)(rest - path);
		snprintf(prefix, sizeof prefix, "%.*s", plen ? (int)plen : 1, plen ? path : ".");
		if (plen == 0 || stat(prefix, &st) == 0)
			break;
		const char *p = rest - 1; /* the '/' before rest: step back over one more component */
		while (p > path && p[-1] == '/')
			p--;
		while (p > path && p[-1] != '/')
			p--;
		rest = p;
	}
	if (!realpath(prefix, real))
		out[0] = '\0';
	else
		snprintf(out, len, "%s/%s", strcmp(real, "/") ? real : "", rest);
}

/* Whether a and b name the same file: the same inode when both exist, else the same
 * canonical name. */
static int same_file(const char *a, const char *b)
{
	struct stat sa, sb;
	if (stat(a, &sa) == 0 && stat(b, &sb) == 0)
		return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
	char ca[PATH_MAX + 256], cb[PATH_MAX + 256];
	canonical(a, ca, sizeof ca);
	canonical(b, cb, sizeof cb);
	return ca[0] && !strcmp(ca, cb);
}

/* The nearest folder of @p path that exists (path itself included) into @p out. */
static void existing_ancestor(const char *path, char *out, size_t len)
{
	struct stat st;
	snprintf(out, len, "%s", path);
	while (stat(out, &st) < 0)
	{
		char up[PATH_MAX];
		folder_of(out, up, sizeof up);
		if (!strcmp(up, out))
			break;
		snprintf(out, len, "%s", up);
	}
}

/* A folder the program will create (--trace DIR): a folder already, or creatable. */
static int check_new_dir(const struct cli_output *o, struct graph_error *err)
{
	char anc[PATH_MAX];
	struct stat st;
	if (stat(o->path, &st) == 0)
		return S_ISDIR(st.st_mode) ? 0 : graph_set_error(err, -ENOTDIR, "%s %s: not a folder; name a folder", o->option, o->path);
	existing_ancestor(o->path, anc, sizeof anc);
	if (stat(anc, &st) < 0 || !S_ISDIR(st.st_mode))
		return graph_set_error(err, -ENOTDIR, "%s %s: %s is not a folder", o->option, o->path, anc);
	if (access(anc, W_OK | X_OK) < 0)
		return graph_set_error(err, -errno, "%s %s: cannot create it in %s (%s); name a writable place", o->option, o->path,
				 anc, strerror(errno));
	return 0;
}

/* Whether @p dir is one of the folders of outs[] that the program creates. */
static int will_create(const char *dir, const struct cli_output *outs, unsigned nout)
{
	char a[PATH_MAX + 256], b[PATH_MAX + 256], trimmed[PATH_MAX];
	canonical(dir, a, sizeof a);
	for (unsigned k = 0; k < nout; k++)
	{
		if (!outs[k].is_dir || !outs[k].path)
			continue;
		size_t len = strlen(outs[k].path);
		while (len > 1 && outs[k].path[len - 1] == '/')
			len--;
		snprintf(trimmed, sizeof trimmed, "%.*s", (int)len, outs[k].path);
		canonical(trimmed, b, sizeof b);
		if (a[0] && !strcmp(a, b))
			return 1;
	}
	return 0;
}

static int check_folder(const struct cli_output *o, const struct cli_output *outs, unsigned nout,
			struct graph_error *err)
{
	char dir[PATH_MAX];
	struct stat st;
	size_t len = strlen(o->path);
	if (len == 0)
		return cli_bad_arg(err, "%s '': empty file name", o->option);
	if (o->path[len - 1] == '/' || (stat(o->path, &st) == 0 && S_ISDIR(st.st_mode)))
		return graph_set_error(err, -EISDIR, "%s %s: is a folder; name a file in it", o->option, o->path);
	if (len + 32 >= PATH_MAX)
		return graph_set_error(err, -ENAMETOOLONG, "%s %s: name too long; use a shorter path", o->option, o->path);
	folder_of(o->path, dir, sizeof dir);
	if (stat(dir, &st) < 0 && errno == ENOENT && will_create(dir, outs, nout))
		return 0;
	if (stat(dir, &st) < 0)
		return graph_set_error(err, -errno, "%s %s: folder %s %s; create it first or name another folder", o->option,
				 o->path, dir, errno == ENOENT ? "does not exist" : strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return graph_set_error(err, -ENOTDIR, "%s %s: %s is not a folder", o->option, o->path, dir);
	if (access(dir, W_OK | X_OK) < 0)
		return graph_set_error(err, -errno, "%s %s: cannot write in folder %s (%s); name a writable folder", o->option,
				 o->path, dir, strerror(errno));
	return 0;
}

int cli_check_outputs(const struct cli_output *outs, unsigned nout, const char *const *inputs, unsigned nin,
		      struct graph_error *err)
{
	for (unsigned i = 0; i < nout; i++)
	{
		const struct cli_output *o = &outs[i];
		if (!o->path)
			continue;
		if (o->is_dir)
		{
			int rc = check_new_dir(o, err);
			if (rc < 0)
				return rc;
			continue;
		}
		if (!strcmp(o->path, "-"))
		{
			if (!o->stdout_ok)
				return cli_bad_arg(err, "%s -: standard output is not taken here; name a file", o->option);
			continue;
		}
		int rc = check_folder(o, outs, nout, err);
		if (rc < 0)
			return rc;
		for (unsigned k = 0; k < nin; k++)
			if (inputs[k] && strcmp(inputs[k], "-") && same_file(o->path, inputs[k]))
				return cli_bad_arg(err, "%s %s is the input %s: writing it would destroy the input; name another file",
					     o->option, o->path, inputs[k]);
		for (unsigned k = 0; k < i; k++)
			if (outs[k].path && !outs[k].is_dir && strcmp(outs[k].path, "-") && same_file(o->path, outs[k].path))
				return cli_bad_arg(err, "%s and %s both name %s; give each output its own file", outs[k].option,
					     o->option, o->path);
	}
	return 0;
}
