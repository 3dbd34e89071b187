#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <sys/mman.h>
#include <cuda_runtime.h>
static double now(){timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec+1e-9*t.tv_nsec;}
int main(){
  const size_t k=10000, T=10000, rs=16+4*T, len=k*rs, huge=2<<20;
  cudaFree(0);
  void *d; cudaMalloc(&d, 256*T*4); cudaMemset(d,1,256*T*4);
  for(int mode=0;mode<3;mode++){
    void *p; posix_memalign(&p,huge,(len+huge-1)&~(huge-1)); madvise(p,(len+huge-1)&~(huge-1),MADV_HUGEPAGE); memset(p,0,len);
    double t0=now(), treg=0;
    if(mode==1){ cudaError_t e=cudaHostRegister(p,len,cudaHostRegisterDefault); treg=now()-t0; printf("register %s: %.4f s\n", cudaGetErrorString(e), treg);}
    void *pin=nullptr; if(mode!=1){ double a=now(); cudaMallocHost(&pin,256*T*4); printf("mallochost 10MB: %.4f s\n",now()-a);}
    cudaStream_t s; cudaStreamCreate(&s);
    double t1=now();
    for(size_t g=0; g<k; g+=256){
      size_t n = k-g<256?k-g:256;
      if(mode==1) cudaMemcpy2DAsync((char*)p+g*rs+16, rs, d, T*4, T*4, n, cudaMemcpyDeviceToHost, s);
      else if(mode==0){ cudaMemcpyAsync(pin,d,n*T*4,cudaMemcpyDeviceToHost,s); cudaStreamSynchronize(s); for(size_t i=0;i<n;i++) memcpy((char*)p+(g+i)*rs+16,(char*)pin+i*T*4,T*4);}
      else { cudaMemcpy2DAsync((char*)p+g*rs+16, rs, d, T*4, T*4, n, cudaMemcpyDeviceToHost, s); }
    }
    cudaStreamSynchronize(s);
    printf("mode %d (%s): copies %.4f s\n", mode, mode==0?"pinned staging + memcpy":mode==1?"registered, 2D DMA":"pageable 2D", now()-t1);
    if(mode==1){ double a=now(); cudaHostUnregister(p); printf("unregister %.4f s\n", now()-a);}
    if(pin) cudaFreeHost(pin);
    free(p);
  }
}
