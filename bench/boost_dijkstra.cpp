/* bench/boost_dijkstra: one CPU core, three SSSP codes on the same graph and the same sources, in one
 * run, with every distance compared:
 *   (a) the Boost Graph Library's dijkstra_shortest_paths_no_color_map on a
 *       compressed_sparse_row_graph built from the same CSR (the baseline);
 *   (b) the plug-in's heap Dijkstra (sssp_dijkstra, codelets/sssp/crauser/dijkstra.c);
 *   (c) the bucket-queue engine (sssp_cpu_run, codelets/sssp/cpu/sssp_cpu.c) as it configures itself for
 *       the graph, and with --variants also: without its pipeline (plain), forced to Dial's buckets or
 *       to the radix heap, renumbered or not.
 * Sources are taken in turn (a, b, c for source 1, then source 2, ...) so that drifts of a shared
 * machine hit every code alike. Prints a table and CSV: SSSP/s, ns per arc scanned, ratio to Boost.
 * Exit 1 when any distance or summary differs.
 *
 * Usage: boost_dijkstra [GRAPH | --gen SPEC | --n N] [--sources K] [--seed S] [--variants] [--cpu-clock]
 *                       [--csv FILE]
 *   GRAPH     a .gr, .mtx or .tgb file;  SPEC  random:N[:D1-D2[:W1-W2]] | rmat:SCALE[:EF] | grid:RxC[:W1-W2]
 *   --n N     the same as --gen random:N (default random:1049088, the paper's graph);
 *   --sources K distinct random sources (default 4), picked as tuccompi-apsp --sources random:K --seed S
 *   does; --seed S also seeds the generators (default 1); --cpu-clock times with this thread's CPU time
 *   instead of the wall clock (for shared machines). */
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/dijkstra_shortest_paths_no_color_map.hpp>
#include <boost/property_map/property_map.hpp>

#include <cerrno>
#include <cinttypes>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <utility>
#include <vector>

#include "bench.h"
#include "cpu/sssp_cpu.h"
#include "sssp.h"

namespace
{

struct Arc
{
	uint32_t weight;
};
typedef boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, Arc, boost::no_property, uint32_t,
					   uint64_t>
	Csr;

/* K distinct sources, the same as tuccompi-apsp --sources random:K --seed S. */
uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

std::vector<uint32_t> pick_sources(uint32_t n, uint64_t k, uint64_t seed)
{
	std::vector<uint32_t> src;
	uint64_t s = seed ^ 0x5eed5eed5eedULL;
	if (k * 4 < n)
	{
		std::vector<bool> seen(n);
		while (src.size() < k)
		{
			uint32_t v = (uint32_t)(splitmix(&s) % n);
			if (!seen[v])
			{
				seen[v] = true;
				src.push_back(v);
			}
		}
		return src;
	}
	std::vector<uint32_t> perm(n);
	for (uint32_t i = 0; i < n; i++)
		perm[i] = i;
	for (uint64_t i = 0; i < k; i++)
	{
		uint64_t j = i + splitmix(&s) % (n - i);
		std::swap(perm[i], perm[j]);
		src.push_back(perm[i]);
	}
	return src;
}

bool cpu_clock = false;

/* Seconds: wall clock, or with --cpu-clock this thread's CPU time (steadier on a shared machine;
 * the same on an idle one). */
double now()
{
	if (cpu_clock)
	{
		timespec ts;
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
		return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
	}
	return bench_now();
}

/* One engine's row of the table. */
struct Engine
{
	std::string name;
	double seconds = 0;
	uint64_t arcs = 0; /* arcs scanned: out-degrees of the reached vertices */
	/* the bucket engine's packed graph and workspace (empty for the others) */
	std::vector<uint64_t> packed, work;
};

} // namespace

int main(int argc, char **argv)
{
	bench_name = "boost_dijkstra";
	const char *path = nullptr, *gen = nullptr, *csv = nullptr;
	std::string nspec;
	uint64_t k = 4, seed = 1;
	bool variants = false;
	for (int i = 1; i < argc; i++)
	{
		const char *a = argv[i];
		if (!std::strcmp(a, "--gen") && i + 1 < argc)
			gen = argv[++i];
		else if (!std::strcmp(a, "--n") && i + 1 < argc)
		{
			nspec = std::string("random:") + argv[++i];
			gen = nspec.c_str();
		}
		else if (!std::strcmp(a, "--sources") && i + 1 < argc)
		{
			k = bench_uint("--sources", argv[++i], 1, UINT32_MAX);
		}
		else if (!std::strcmp(a, "--seed") && i + 1 < argc)
		{
			seed = bench_uint("--seed", argv[++i], 0, UINT64_MAX);
		}
		else if (!std::strcmp(a, "--csv") && i + 1 < argc)
			csv = argv[++i];
		else if (!std::strcmp(a, "--variants"))
			variants = true;
		else if (!std::strcmp(a, "--cpu-clock"))
			cpu_clock = true;
		else if (!std::strcmp(a, "--help") || !std::strcmp(a, "-h"))
		{
			std::printf("usage: boost_dijkstra [GRAPH | --gen SPEC | --n N] [--sources K] [--seed S] "
				    "[--variants] [--cpu-clock] [--csv FILE]\n");
			return 0;
		}
		else if (a[0] != '-' && !path)
			path = a;
		else
			bench_die("unknown argument '%s' (see --help)", a);
	}
	if (path && gen)
		bench_die("give a graph file or --gen, not both");

	graph g = {};
	double t0 = now();
	bench_load(path, gen ? gen : "random:1049088", seed, &g);
	if (!g.n)
		bench_die("the graph has no vertices");
	if (k > g.n)
		k = g.n;
	std::vector<uint32_t> sources = pick_sources(g.n, k, seed);
	sssp_graph view = apsp_graph_view(&g);
	double t_load = now() - t0;

	/* (a) Boost: CSR from the same arrays (already sorted by source). */
	t0 = now();
	std::vector<std::pair<uint32_t, uint32_t>> edges(g.m);
	std::vector<Arc> props(g.m);
	for (uint32_t u = 0; u < g.n; u++)
		for (uint64_t e = g.rowptr[u]; e < g.rowptr[u + 1]; e++)
		{
			edges[e] = std::make_pair(u, g.col[e]);
			props[e].weight = g.w[e];
		}
	Csr bg(boost::edges_are_sorted, edges.begin(), edges.end(), props.begin(), g.n);
	std::vector<std::pair<uint32_t, uint32_t>>().swap(edges);
	double t_boost_build = now() - t0;

	/* (c) the bucket engine, as chosen and (--variants) forced */
	std::vector<Engine> eng(3);
	eng[0].name = "boost";
	eng[1].name = "heap";
	struct Variant
	{
		const char *name;
		sssp_cpu_options opt;
	};
	std::vector<Variant> var;
	var.push_back({"bucket", {}});
	if (variants)
	{
		sssp_cpu_options o = {};
		o.plain = 1;
		var.push_back({"bucket-plain", o});
		o = {};
		o.queue = SSSP_CPU_QUEUE_DIAL;
		if (g.max_w <= 65535) /* one bucket per weight value */
			var.push_back({"bucket-dial", o});
		o.queue = SSSP_CPU_QUEUE_RADIX;
		var.push_back({"bucket-radix", o});
		o = {};
		o.relabel = 1;
		var.push_back({"bucket-renumbered", o});
		o.relabel = -1;
		var.push_back({"bucket-not-renumbered", o});
	}
	eng.resize(2 + var.size());
	t0 = now();
	for (size_t i = 0; i < var.size(); i++)
	{
		Engine &e = eng[2 + i];
		e.name = var[i].name;
		e.packed.resize(sssp_cpu_packed_size_opt(&view, &var[i].opt) / 8 + 1);
		sssp_cpu_pack_opt(&view, &var[i].opt, e.packed.data());
		e.work.resize(sssp_cpu_workspace_size(e.packed.data()) / 8 + 1);
		if (!i)
			eng[2].name = std::string("bucket (") +
				      (sssp_cpu_packed_queue(e.packed.data()) == SSSP_CPU_QUEUE_DIAL ? "dial" : "radix") +
				      (sssp_cpu_packed_renumbered(e.packed.data()) ? ", renumbered)" : ")");
	}
	double t_pack = now() - t0;
	std::printf("graph: %s: n = %u, m = %" PRIu64 ", max weight %u; %zu sources (seed %" PRIu64
		    "); load %.2f s, Boost CSR %.2f s, packing %.2f s\n",
		    path ? path : gen ? gen : "random:1049088", g.n, g.m, g.max_w, sources.size(), seed, t_load,
		    t_boost_build, t_pack);

	std::vector<uint32_t> want(g.n), dist(g.n), heap(g.n), pos(g.n);
	int bad = 0;
	for (uint32_t s : sources)
	{
		/* (a) Boost */
		t0 = now();
		boost::dijkstra_shortest_paths_no_color_map(
			bg, s,
			boost::distance_map(boost::make_iterator_property_map(want.data(), get(boost::vertex_index, bg)))
				.weight_map(get(&Arc::weight, bg)));
		eng[0].seconds += now() - t0;
		uint64_t arcs = 0;
		for (uint32_t v = 0; v < g.n; v++)
			if (want[v] != SSSP_INF)
				arcs += g.rowptr[v + 1] - g.rowptr[v];
		sssp_summary ws;
		sssp_summarize(want.data(), g.n, s, &ws);
		for (Engine &e : eng)
			e.arcs += arcs;
		/* (b) the heap, (c) the bucket engine(s) */
		for (size_t i = 1; i < eng.size(); i++)
		{
			sssp_summary got;
			std::fill(dist.begin(), dist.end(), 12345u);
			t0 = now();
			if (i == 1)
				sssp_dijkstra(&view, s, dist.data(), heap.data(), pos.data(), &got);
			else
				sssp_cpu_run(eng[i].packed.data(), s, dist.data(), eng[i].work.data(), &got);
			eng[i].seconds += now() - t0;
			for (uint32_t v = 0; v < g.n; v++)
				if (dist[v] != want[v])
				{
					std::fprintf(stderr, "boost_dijkstra: %s: source %u: dist[%u] = %u, Boost says %u\n",
						     eng[i].name.c_str(), s, v, dist[v], want[v]);
					bad = 1;
					break;
				}
			if (got.source != s || got.reached != ws.reached || got.sum != ws.sum || got.ecc != ws.ecc ||
			    got.overflow != ws.overflow)
			{
				std::fprintf(stderr,
					     "boost_dijkstra: %s: source %u: summary reached %u sum %" PRIu64
					     " ecc %u overflow %u, the distances give %u %" PRIu64 " %u %u\n",
					     eng[i].name.c_str(), s, got.reached, got.sum, got.ecc, got.overflow, ws.reached,
					     ws.sum, ws.ecc, ws.overflow);
				bad = 1;
			}
		}
	}

	std::printf("%-26s %8s %10s %10s %10s %12s\n", "engine", "sources", "seconds", "SSSP/s", "ns/arc", "vs Boost");
	std::string rows = "engine,sources,seconds,sssp_per_s,ns_per_arc,ratio_to_boost\n";
	for (const Engine &e : eng)
	{
		double rate = (double)sources.size() / e.seconds;
		double ns = e.arcs ? 1e9 * e.seconds / (double)e.arcs : 0;
		double ratio = eng[0].seconds / e.seconds;
		std::printf("%-26s %8zu %10.3f %10.2f %10.2f %11.2fx\n", e.name.c_str(), sources.size(), e.seconds, rate, ns,
			    ratio);
		char line[256];
		std::snprintf(line, sizeof line, "%s,%zu,%.6f,%.4f,%.3f,%.4f\n", e.name.c_str(), sources.size(), e.seconds,
			      rate, ns, ratio);
		rows += line;
	}
	std::printf("\n%s", rows.c_str());
	if (csv)
	{
		std::string tmp = std::string(csv) + ".tmp";
		FILE *f = std::fopen(tmp.c_str(), "w");
		if (!f || std::fputs(rows.c_str(), f) < 0 || std::fclose(f) || std::rename(tmp.c_str(), csv))
			bench_die("%s: cannot write the CSV (%s); check the directory", csv, std::strerror(errno));
	}
	std::printf("%s\n", bad ? "DIFFERENT distances: see above" : "all distances identical");
	graph_free(&g);
	return bad;
}
