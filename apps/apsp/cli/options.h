/* Option tables: a program declares each option once, in a table of struct cli_option (its name,
 * whether it takes a value, where the value goes and its help text); cli_options_parse() reads argv
 * with it and cli_options_help() prints the help text from it (as GAPBS's command-line class).
 * Errors as in numbers.h. */
#ifndef TUCCOMPI_APSP_CLI_OPTIONS_H
#define TUCCOMPI_APSP_CLI_OPTIONS_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "graph.h"

/** How an option's value is taken (into the field at cli_option::off of the program's struct). */
enum cli_opt_kind
{
	CLI_OPT_SECTION, /**< no option: a heading of the help text (cli_option::help), after a blank line */
	CLI_OPT_TEXT,    /**< no option: help text, verbatim, or beside cli_option::label */
	CLI_OPT_FLAG,    /**< no value: the int field becomes 1 */
	CLI_OPT_STRING,  /**< the value as given: a const char * field */
	CLI_OPT_U64,     /**< an integer min..max: a uint64_t field */
	CLI_OPT_U32,     /**< an integer min..max: a uint32_t field */
	CLI_OPT_INT,     /**< an integer min..max (at most INT_MAX): an int field */
	CLI_OPT_DOUBLE,  /**< a finite number dmin..dmax: a double field */
	CLI_OPT_BYTES,   /**< a byte count (cli_parse_bytes): a uint64_t field */
	CLI_OPT_CUSTOM,  /**< cli_option::parse decides */
};

/** One option (or a line of the help text). */
struct cli_option
{
	const char *name;  /**< "--seed"; NULL for headings and text */
	const char *alias; /**< a second name ("-o" beside "--output"), or NULL */
	const char *value; /**< the value's name in the help ("S"); NULL: the option takes no value */
	enum cli_opt_kind kind;
	size_t off;        /**< offsetof() the field in the program's options struct */
	uint64_t min, max; /**< CLI_OPT_U64, U32, INT */
	double dmin, dmax; /**< CLI_OPT_DOUBLE */
	/** CLI_OPT_CUSTOM: take @p value (NULL when the option takes none) for option @p name into
	 *  @p opts; 0, or -EINVAL with a message naming the option. */
	int (*parse)(const char *name, const char *value, void *opts, struct graph_error *err);
	const char *help;  /**< lines separated by '\n'; NULL: not shown (documented by another row) */
	const char *label; /**< shown instead of "NAME VALUE" (e.g. "-q, --quiet"), or NULL */
};

/** Column where the help text of an option starts. */
#define CLI_HELP_COLUMN 25
/** Widest line of help: a longer label puts the help below it. */
#define CLI_HELP_WIDTH 100

/** Read argv[1..argc-1] into @p opts with @p table (@p n rows): options by name or alias, a value
 *  as the next argument or after '=' ("--seed=5"); anything else (and "-") goes to @p positional.
 *  0, or -EINVAL with one line: an unknown option, a missing value, a bad value. */
int cli_options_parse(const struct cli_option *table, size_t n, int argc, char **argv, void *opts,
		      int (*positional)(const char *arg, void *opts, struct graph_error *err), struct graph_error *err);

/** The help text of @p table: headings, then "  NAME VALUE   help" with the help's lines from
 *  column CLI_HELP_COLUMN (all below the label when its first line would pass CLI_HELP_WIDTH). */
void cli_options_help(const struct cli_option *table, size_t n, FILE *f);

#endif
