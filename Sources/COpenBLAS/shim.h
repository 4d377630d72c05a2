// OpenBLAS's CBLAS interface (Debian: libopenblas-dev, found through pkg-config).
#include <cblas.h>

// The CPU's spin-wait hint, for the runtime's thread pool. Swift cannot emit PAUSE or
// YIELD itself, and this is the one C header the runtime compiles on every platform
// where it runs its own worker threads without Accelerate.
static inline void tflite_spin_hint(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}
