/* How the ranks of one node share it: lib/node_split.h. */
#include "node_split.h"

int _tuccompi_split_gpus(int g, int ls, int j, int cap, unsigned *ids)
{
	int n = 0;
	for (int d = 0; d < g && (cap <= 0 || n < cap); d++)
		if ((g >= ls && d % ls == j) || (g < ls && d == j))
		{
			if (ids)
				ids[n] = (unsigned)d;
			n++;
		}
	return n;
}

void _tuccompi_split_cores(int ncores, int ls, int lr, const int *need, int *first, int *last)
{
	*first = (int)((long)lr * ncores / ls);
	*last = (int)((long)(lr + 1) * ncores / ls);
	if (ls > TUCCOMPI_SPLIT_MAX_RANKS)
		return;
	int size[TUCCOMPI_SPLIT_MAX_RANKS], short_of = 0, rest = ncores, others = 0;
	for (int j = 0; j < ls; j++)
	{
		size[j] = (int)((long)(j + 1) * ncores / ls - (long)j * ncores / ls);
		short_of |= need[j] > size[j];
	}
	for (int j = 0; short_of && j < ls; j++)
		if (need[j] > 0)
			rest -= need[j] > size[j] ? need[j] : size[j];
		else
			others++;
	if (short_of && others > 0 && rest >= 2 * others)
	{
		for (int j = 0, k = 0; j < ls; j++)
		{
			if (need[j] > 0)
			{
				size[j] = need[j] > size[j] ? need[j] : size[j];
				continue;
			}
			size[j] = (int)((long)(k + 1) * rest / others - (long)k * rest / others);
			k++;
		}
	}
	*first = 0;
	for (int j = 0; j < lr; j++)
		*first += size[j];
	*last = *first + size[lr];
}
