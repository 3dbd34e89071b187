/* Option tables of the APSP tools (options.h): one row per option, parsed and printed from
 * the same row. */
#include "options.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "numbers.h"

static const struct cli_option *find(const struct cli_option *t, size_t n, const char *arg, size_t len)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].name && ((strlen(t[i].name) == len && !strncmp(t[i].name, arg, len)) ||
				  (t[i].alias && strlen(t[i].alias) == len && !strncmp(t[i].alias, arg, len))))
			return &t[i];
	return NULL;
}

static int take(const struct cli_option *o, const char *name, const char *v, void *opts, struct graph_error *err)
{
	char *field = (char *)opts + o->off;
	uint64_t x;
	int rc = 0;
	switch (o->kind)
	{
	case CLI_OPT_FLAG:
		*(int *)field = 1;
		break;
	case CLI_OPT_STRING:
		*(const char **)field = v;
		break;
	case CLI_OPT_U64:
		rc = cli_parse_u64(name, v, o->min, o->max, (uint64_t *)field, err);
		break;
	case CLI_OPT_U32:
		if ((rc = cli_parse_u64(name, v, o->min, o->max > UINT32_MAX ? UINT32_MAX : o->max, &x, err)) == 0)
			*(uint32_t *)field = (uint32_t)x;
		break;
	case CLI_OPT_INT:
		if ((rc = cli_parse_u64(name, v, o->min, o->max > INT_MAX ? INT_MAX : o->max, &x, err)) == 0)
			*(int *)field = (int)x;
		break;
	case CLI_OPT_DOUBLE:
		rc = cli_parse_double(name, v, o->dmin, o->dmax, (double *)field, err);
		break;
	case CLI_OPT_BYTES:
		rc = cli_parse_bytes(name, v, (uint64_t *)field, err);
		break;
	case CLI_OPT_CUSTOM:
		rc = o->parse(name, v, opts, err);
		break;
	default:
		rc = cli_bad_arg(err, "%s: not an option", name);
	}
	return rc;
}

int cli_options_parse(const struct cli_option *table, size_t n, int argc, char **argv, void *opts,
		      int (*positional)(const char *arg, void *opts, struct graph_error *err), struct graph_error *err)
{
	for (int i = 1; i < argc; i++)
	{
		const char *a = argv[i];
		if (a[0] != '-' || !a[1])
		{
			int rc = positional(a, opts, err);
			if (rc < 0)
				return rc;
			continue;
		}
		/* "--name=value" for long options */
		const char *eq = a[1] == '-' ? strchr(a, '=') : NULL;
		size_t len = eq ? (size_t)(eq - a) : strlen(a);
		const struct cli_option *o = find(table, n, a, len);
		char name[64];
		snprintf(name, sizeof name, "%.*s", (int)(len < sizeof name ? len : sizeof name - 1), a);
		if (!o)
			return cli_bad_arg(err, "unknown option '%s' (see --help)", name);
		const char *v = NULL;
		if (o->value && eq)
			v = eq + 1;
		else if (o->value && i + 1 < argc)
			v = argv[++i];
		else if (o->value)
			return cli_bad_arg(err, "option %s needs a value (see --help)", name);
		else if (eq)
			return cli_bad_arg(err, "option %s takes no value: '%s' (see --help)", name, a);
		int rc = take(o, name, v, opts, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}

void cli_options_help(const struct cli_option *table, size_t n, FILE *f)
{
	for (size_t i = 0; i < n; i++)
	{
		const struct cli_option *o = &table[i];
		if (!o->help)
			continue;
		if (o->kind == CLI_OPT_SECTION)
		{
			fprintf(f, "\n%s\n", o->help);
			continue;
		}
		if (o->kind == CLI_OPT_TEXT && !o->label)
		{
			fputs(o->help, f);
			continue;
		}
		char label[128];
		if (o->label)
			snprintf(label, sizeof label, "%s", o->label);
		else
			snprintf(label, sizeof label, "%s%s%s", o->name, o->value ? " " : "", o->value ? o->value : "");
		int col = 2 + (int)strlen(label);
		fprintf(f, "  %s", label);
		/* the first line beside the label, at least two blanks after it (or below a label too
		 * long for both to fit in CLI_HELP_WIDTH); the others below */
		if (col + 2 > CLI_HELP_COLUMN && col + 3 + (int)strcspn(o->help, "\n") > CLI_HELP_WIDTH)
		{
			fputc('\n', f);
			col = 0;
		}
		for (const char *line = o->help; *line;)
		{
			size_t len = strcspn(line, "\n");
			int pad = col + 2 <= CLI_HELP_COLUMN ? CLI_HELP_COLUMN - col : 3;
			fprintf(f, "%*s%.*s\n", pad, "", (int)len, line);
			line += len + (line[len] == '\n');
			col = 0;
		}
	}
}
