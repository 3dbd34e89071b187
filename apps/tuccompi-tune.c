/* tuccompi-tune: look at and clear the tuning database, and ask the rule engine what it
 * would choose for a characterisation on a known or recorded GPU. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tuccompi.h>
#include <tuccompi_tune.h>

#include "tool_version.h"
#ifdef TUNE_TOOL_WITH_CUDA
#include <tuccompi_cuda.h>
#endif

static const char usage_text[] =
	"Usage: tuccompi-tune COMMAND\n"
	"  show                     the tuning database (newest record per kernel/plug-in and device)\n"
	"  clear                    remove the tuning database\n"
	"  path                     print where the database is ($TUCCOMPI_TUNE_DB overrides)\n"
	"  --version                the versions of this program and of the library\n"
	"  rules DEVICE 'NAME DIMS A B C D' [REGS [SHARED_BYTES]]\n"
	"                           the rule engine's choice for a kernel characterisation (Table 1 of\n"
	"                           the TuCCompi paper) on DEVICE: gtx480, gtx680, k20, a100, h100, h200,\n"
	"                           or cuda:N for a GPU of this machine\n"
	"Example: tuccompi-tune rules h200 'relax 1 scatter low high low' 32\n";

int main(int argc, char **argv)
{
	if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
	{
		fputs(usage_text, argc < 2 ? stderr : stdout);
		return argc < 2 ? 2 : 0;
	}
	if (!strcmp(argv[1], "--version"))
	{
		tool_print_version("tuccompi-tune");
		return 0;
	}
	if (!strcmp(argv[1], "show"))
		return tuccompi_tune_db_print(stdout) < 0 ? (fprintf(stderr, "tuccompi-tune: %s\n", tuccompi_last_error()), 1) : 0;
	if (!strcmp(argv[1], "path"))
	{
		printf("%s\n", tuccompi_tune_db_path());
		return 0;
	}
	if (!strcmp(argv[1], "clear"))
	{
		if (tuccompi_tune_db_clear() < 0)
		{
			fprintf(stderr, "tuccompi-tune: %s\n", tuccompi_last_error());
			return 1;
		}
		printf("removed %s\n", tuccompi_tune_db_path());
		return 0;
	}
	if (!strcmp(argv[1], "rules") && argc >= 4)
	{
		struct tuccompi_device_props local;
		const struct tuccompi_device_props *dev = tuccompi_device_props_recorded(argv[2]);
		if (!dev && !strncmp(argv[2], "cuda:", 5))
		{
#ifdef TUNE_TOOL_WITH_CUDA
			if (tuccompi_gpu_device_props(atoi(argv[2] + 5), &local, NULL, 0) == 0)
				dev = &local;
#endif
		}
		if (!dev)
		{
			fprintf(stderr, "tuccompi-tune: unknown device '%s' (gtx480, gtx680, k20, a100, h100, h200, cuda:N)\n",
				argv[2]);
			return 2;
		}
		struct tuccompi_kernel_char kc;
		char name[96];
		if (tuccompi_kernel_char_parse(argv[3], &kc, name, sizeof(name)) < 0)
		{
			fprintf(stderr, "tuccompi-tune: %s\n", tuccompi_last_error());
			return 2;
		}
		struct tuccompi_kernel_attr attr = { argc > 4 ? atoi(argv[4]) : 32, 1024,
						     argc > 5 ? (size_t)atol(argv[5]) : 0, 0 };
		struct tuccompi_geometry g;
		if (tuccompi_tune_rules(&kc, &attr, dev, 1u << 20, 1, &g) < 0)
		{
			fprintf(stderr, "tuccompi-tune: %s\n", tuccompi_last_error());
			return 1;
		}
		printf("%s on %s: block %ux%u, carveout %d%%, %d blocks/SM, occupancy %.0f%%\n  because: %s\n", name,
		       dev->name, g.block_x, g.block_y, g.carveout, g.blocks_per_sm, 100 * g.occupancy, g.why);
		return 0;
	}
	fprintf(stderr, "tuccompi-tune: unknown command '%s'\n%s", argv[1], usage_text);
	return 2;
}
