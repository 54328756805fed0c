/* The host's floating-point environment, set to the default around the library's code that uses the
 * host's arithmetic, and given back as the caller had it, raised flags included: no result depends on
 * the caller's rounding mode or on x86's flush-to-zero (FTZ, MXCSR bit 15) and denormals-are-zero
 * (DAZ, bit 6), which a -ffast-math library or torch.set_flush_denormal sets (tests/api/fpenv.c). */
#ifndef MMAREF_HOST_FP_H
#define MMAREF_HOST_FP_H

#include <fenv.h>

#define HOST_FP_INLINE static inline __attribute__((always_inline))

/* SSE only (double and float arithmetic on x86-64): MXCSR at its default, round to nearest even, no
 * FTZ, no DAZ, exceptions masked.  A few cycles: the batched kernels' SFMA and GPS lanes. */
#if defined(__SSE2__)
#include <xmmintrin.h>
typedef unsigned host_fp_env;
enum { MXCSR_DEFAULT = 0x1F80, MXCSR_FLAGS = 0x3F };
HOST_FP_INLINE host_fp_env host_fp_default(void)
{
    host_fp_env csr = _mm_getcsr();
    if ((csr & ~MXCSR_FLAGS) != MXCSR_DEFAULT)
        _mm_setcsr(MXCSR_DEFAULT);
    return csr;
}
HOST_FP_INLINE void host_fp_restore(host_fp_env csr) { _mm_setcsr(csr); }
#else
typedef fenv_t host_fp_env;
HOST_FP_INLINE host_fp_env host_fp_default(void)
{
    host_fp_env env;
    fegetenv(&env);
    fesetenv(FE_DFL_ENV);
    return env;
}
HOST_FP_INLINE void host_fp_restore(host_fp_env env) { fesetenv(&env); }
#endif

/* Every unit: the x87 control word too (long double, whose rounding fesetround also sets), then MXCSR
 * as above.  For entry points that compute with double or long double (the generator, coverage). */
typedef struct {
    fenv_t env;
    host_fp_env sse;
} host_fp_all_env;

HOST_FP_INLINE void host_fp_all_default(host_fp_all_env *saved)
{
    fegetenv(&saved->env);
    fesetenv(FE_DFL_ENV);
    saved->sse = host_fp_default();
}
HOST_FP_INLINE void host_fp_all_restore(const host_fp_all_env *saved)
{
    fesetenv(&saved->env);
    host_fp_restore(saved->sse);
}

#endif
