/* How the ranks of one node share it (lib/node_split.c), for node shapes no CI machine has: the
 * blocks of cores of all local ranks tile the node without overlap; a rank with GPUs gets a core
 * per stream worker plus one for StarPU-MPI's thread when its equal share is smaller, and the other
 * ranks share the rest; where that leaves a rank fewer than two cores, or every rank has GPUs, the
 * blocks stay equal; GPUs go round-robin, capped. */
#include "node_split.h"
#include "testutil.h"

/* every local rank's block; checks that they tile [0, ncores) in rank order */
static void blocks(int ncores, int ls, const int *need, int *size)
{
	int at = 0;
	for (int r = 0; r < ls; r++)
	{
		int first = -1, last = -1;
		_tuccompi_split_cores(ncores, ls, r, need, &first, &last);
		if (first != at || last < first)
			FAIL("%d cores, %d ranks: rank %d got [%d, %d), expected to start at %d", ncores, ls, r, first, last, at);
		size[r] = last - first;
		at = last;
	}
	ASSERT_EQ(at, ncores);
}

int main(void)
{
	int size[8];
	/* the H100 node of docs/apsp.md: 16 cores, 2 ranks, the GPU's rank at MK 8 needs 9 */
	blocks(16, 2, (int[]){ 9, 0 }, size);
	ASSERT_EQ(size[0], 9);
	ASSERT_EQ(size[1], 7);
	/* no GPU anywhere: equal (the split before need counted) */
	blocks(16, 2, (int[]){ 0, 0 }, size);
	ASSERT_EQ(size[0], 8);
	ASSERT_EQ(size[1], 8);
	blocks(7, 3, (int[]){ 0, 0, 0 }, size);
	ASSERT_EQ(size[0] + size[1] + size[2], 7);
	ASSERT(size[0] >= 2 && size[1] >= 2 && size[2] >= 2);
	/* a share already large enough is kept: 64 cores, 2 ranks, MK 8 */
	blocks(64, 2, (int[]){ 9, 0 }, size);
	ASSERT_EQ(size[0], 32);
	ASSERT_EQ(size[1], 32);
	/* three ranks, one GPU: the two others share the rest (7 cores: 3 and 4) */
	blocks(16, 3, (int[]){ 9, 0, 0 }, size);
	ASSERT_EQ(size[0], 9);
	ASSERT_EQ(size[1], 3);
	ASSERT_EQ(size[2], 4);
	/* two GPUs on ranks 0 and 2 of 4, MK 8 on 16 cores: 18 cores needed, equal blocks */
	blocks(16, 4, (int[]){ 9, 0, 9, 0 }, size);
	for (int r = 0; r < 4; r++)
		ASSERT_EQ(size[r], 4);
	/* every rank has a GPU: nobody to take cores from, equal blocks */
	blocks(16, 2, (int[]){ 9, 9 }, size);
	ASSERT_EQ(size[0], 8);
	ASSERT_EQ(size[1], 8);
	/* the others would keep fewer than two cores each: equal blocks */
	blocks(10, 2, (int[]){ 9, 0 }, size);
	ASSERT_EQ(size[0], 5);
	ASSERT_EQ(size[1], 5);
	blocks(11, 2, (int[]){ 9, 0 }, size);
	ASSERT_EQ(size[0], 9);
	ASSERT_EQ(size[1], 2);
	/* a GPU rank not first: its block moves, the blocks still tile the node */
	blocks(16, 2, (int[]){ 0, 9 }, size);
	ASSERT_EQ(size[0], 7);
	ASSERT_EQ(size[1], 9);

	/* GPUs: round-robin with at least as many GPUs as ranks, one each to the first ranks otherwise */
	unsigned ids[8];
	ASSERT_EQ(_tuccompi_split_gpus(4, 2, 0, 0, ids), 2);
	ASSERT_EQ(ids[0], 0);
	ASSERT_EQ(ids[1], 2);
	ASSERT_EQ(_tuccompi_split_gpus(4, 2, 1, 0, ids), 2);
	ASSERT_EQ(ids[0], 1);
	ASSERT_EQ(ids[1], 3);
	ASSERT_EQ(_tuccompi_split_gpus(4, 2, 1, 1, ids), 1); /* tuccompi_conf.ncuda = 1 */
	ASSERT_EQ(ids[0], 1);
	ASSERT_EQ(_tuccompi_split_gpus(1, 2, 0, 0, ids), 1);
	ASSERT_EQ(ids[0], 0);
	ASSERT_EQ(_tuccompi_split_gpus(1, 2, 1, 0, NULL), 0);
	ASSERT_EQ(_tuccompi_split_gpus(0, 2, 0, 0, NULL), 0);
	ASSERT_EQ(_tuccompi_split_gpus(3, 4, 3, 0, NULL), 0);
	ASSERT_EQ(_tuccompi_split_gpus(3, 4, 2, 0, ids), 1);
	ASSERT_EQ(ids[0], 2);
	printf("node_split: all checks passed\n");
	return 0;
}
