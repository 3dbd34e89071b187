/* A kernel characterised with its one block (TUCCOMPI_KERNELCHAR_BLOCK) runs with that block in the
 * rules, empirical, cuda and fixed modes (the CUDA half: block_gpu_cuda.cu). Needs a GPU (77 without). */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int block_gpu_test(char *why, size_t whylen);

int main(void)
{
	/* the empirical mode may write the tuning database: a file of the test's own */
	char db[] = "/tmp/tuccompi-block-gpu-XXXXXX";
	int fd = mkstemp(db);
	if (fd < 0)
		return perror("mkstemp"), 1;
	close(fd);
	setenv("TUCCOMPI_TUNE_DB", db, 1);
	char why[512] = "";
	int r = block_gpu_test(why, sizeof(why));
	unlink(db);
	if (r)
		printf("%s%s\n", r == 77 ? "" : "FAIL: ", why);
	return r;
}
