// Fig. 5, plug-in GPU, of tuccompi-example: GPULAUNCH a characterised kernel into this
// task's PARLLMK workspace, then reduce it; GPUSYN waits.
#include <tuccompi.h>
#include <tuccompi_cuda.h>

#define NTASKS 4096
#define STEPS (1 << 20)

TUCCOMPI_KERNELCHAR(integrand, 1, coalesced, high, low, low);
__global__ void integrand(double *y, double x0, double h, int n)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n)
	{
		double x = x0 + (i + 0.5) * h;
		y[i] = 4.0 / (1.0 + x * x);
	}
}

TUCCOMPI_KERNELCHAR(sum_halves, 1, coalesced, low, low, low);
__global__ void sum_halves(double *y, int half)
{
	int i = blockIdx.x * blockDim.x + threadIdx.x;
	if (i < half)
		y[i] += y[i + half];
}

extern "C" void slice_gpu(struct tuccompi_task *t, void *arg)
{
	double *y = (double *)tuccompi_task_workspace(t, 0); // PARLLMK(y, double, STEPS)
	double h = 1.0 / ((double)NTASKS * STEPS);
	TUCCOMPI_GPULAUNCH(integrand, STEPS, y, (double)tuccompi_task_id(t) / NTASKS, h, STEPS);
	for (int half = STEPS / 2; half >= 1; half /= 2)
		TUCCOMPI_GPULAUNCH(sum_halves, half, y, half);
	double s;
	cudaMemcpyAsync(&s, y, sizeof(s), cudaMemcpyDeviceToHost, tuccompi_gpu_stream());
	TUCCOMPI_GPUSYN();
	*(double *)tuccompi_task_result(t) = s * h;
}
