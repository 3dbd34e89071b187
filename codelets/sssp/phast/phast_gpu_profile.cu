// GPU PHAST's profile (sssp_phast_gpu_knobs::profile, phast_gpu.h): where a pass's time went, per
// class of levels, from the times the kernel stamped (phast_gpu.cu).
#include <stdio.h>
#include <stdlib.h>

#include <cuda_runtime_api.h>

#include "phast/phast_gpu_plan.h"

namespace phast_plan
{
// knobs->profile = N: the first N passes of the process print where their time went
// (stderr): per class of levels (by vertices) the levels, vertices, arcs and microseconds of the
// upward and downward sweeps, and the costliest levels. For profiling; it costs a few
// small copies per profiled pass.
void phast_print_profile(const struct sssp_ch_view *v, const level_plan *dplan, const unsigned long long *t,
			 unsigned lanes, unsigned k, unsigned grid, unsigned blk)
{
	const unsigned L = v->levels;
	level_plan *pl = (level_plan *)malloc(L * sizeof *pl);
	unsigned long long *da = (unsigned long long *)malloc((L + 1) * sizeof *da);
	unsigned long long *ua = (unsigned long long *)malloc((L + 1) * sizeof *ua);
	if (!pl || !da || !ua || cudaMemcpy(pl, dplan, L * sizeof *pl, cudaMemcpyDeviceToHost) != cudaSuccess)
		goto out;
	for (unsigned b = 0; b <= L; b++)
	{
		uint32_t p = b < L ? pl[b].p0 : pl[L - 1].p1;
		if (cudaMemcpy(&da[b], v->down_start + p, sizeof da[b], cudaMemcpyDeviceToHost) != cudaSuccess ||
		    cudaMemcpy(&ua[b], v->upin_start + p, sizeof ua[b], cudaMemcpyDeviceToHost) != cudaSuccess)
			goto out;
	}
	{
		const unsigned NC = 7;
		const uint32_t lim[NC] = { 32, 256, 1024, 8192, 65536, 262144, UINT32_MAX };
		struct cls
		{
			unsigned levels, up_chained, up_split, down_chained, down_split;
			unsigned long long verts, down, up;
			double up_us, down_us;
		} c[NC] = {};
		double up_total = 0, down_total = 0;
		int worst_up = -1, worst_down = -1;
		double wu = 0, wd = 0;
		for (unsigned b = 0; b < L; b++)
		{
			uint32_t nv = pl[b].p1 - pl[b].p0;
			unsigned i = 0;
			while (nv > lim[i])
				i++;
			double up = (t[2 + b] - (b + 1 < L ? t[2 + b + 1] : t[1])) / 1e3;
			double dn = (t[2 + L + b] - (b ? t[2 + L + b - 1] : t[2])) / 1e3;
			c[i].levels++;
			c[i].up_chained += (pl[b].up & CHAINED) != 0;
			c[i].up_split += split_of(pl[b].up) > 1;
			c[i].down_chained += (pl[b].down & CHAINED) != 0;
			c[i].down_split += split_of(pl[b].down) > 1;
			c[i].verts += nv;
			c[i].down += da[b + 1] - da[b];
			c[i].up += ua[b + 1] - ua[b];
			c[i].up_us += up;
			c[i].down_us += dn;
			up_total += up;
			down_total += dn;
			if (up > wu)
				wu = up, worst_up = (int)b;
			if (dn > wd)
				wd = dn, worst_down = (int)b;
		}
		fprintf(stderr,
			"PHAST GPU profile: %u sources of %u lanes, %u levels, %u blocks x %u threads: "
			"sources %.1f us, upward %.1f us, downward %.1f us\n",
			k, lanes, L, grid, blk, (t[1] - t[0]) / 1e3, up_total, down_total);
		fprintf(stderr, "  %-14s %6s %11s %11s %9s %10s %10s %9s %9s %8s\n", "vertices/level", "levels",
			"up ch/split", "dn ch/split", "vertices", "down arcs", "up arcs", "up us", "down us", "us/lvl");
		for (unsigned i = 0; i < NC; i++)
			if (c[i].levels)
			{
				char name[32], u[24], d[24];
				if (i == 0)
					snprintf(name, sizeof name, "1-%u", lim[0]);
				else if (i + 1 == NC)
					snprintf(name, sizeof name, ">%u", lim[i - 1]);
				else
					snprintf(name, sizeof name, "%u-%u", lim[i - 1] + 1, lim[i]);
				snprintf(u, sizeof u, "%u/%u", c[i].up_chained, c[i].up_split);
				snprintf(d, sizeof d, "%u/%u", c[i].down_chained, c[i].down_split);
				fprintf(stderr, "  %-14s %6u %11s %11s %9llu %10llu %10llu %9.1f %9.1f %8.2f\n", name, c[i].levels, u,
					d, c[i].verts, c[i].down, c[i].up, c[i].up_us, c[i].down_us,
					(c[i].up_us + c[i].down_us) / 2 / c[i].levels);
			}
		if (worst_down >= 0)
			fprintf(stderr,
				"  costliest: downward level %d (%u vertices, %llu arcs, plan %#x) %.1f us; upward level %d (%u "
				"vertices, %llu arcs, plan %#x) %.1f us\n",
				worst_down, pl[worst_down].p1 - pl[worst_down].p0, da[worst_down + 1] - da[worst_down],
				pl[worst_down].down, wd, worst_up, pl[worst_up].p1 - pl[worst_up].p0,
				ua[worst_up + 1] - ua[worst_up], pl[worst_up].up, wu);
	}
out:
	free(pl);
	free(da);
	free(ua);
}
} // namespace phast_plan
