#include <stdio.h>
#include <stdint.h>
int main(void)
{
	unsigned long long bad = 0;
	for (uint64_t d = 1; d <= 0xfffffffeull; d++) {
		volatile double dd = (double)d;
		double a = 2305843009213693952.0 / dd, r = 1.0 / dd, b = r * 2305843009213693952.0;
		if (a != b) { if (bad++ < 5) printf("d=%llu\n", (unsigned long long)d); }
	}
	printf("mismatches: %llu\n", bad);
	return bad != 0;
}
