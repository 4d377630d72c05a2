// The CPU-feature query behind the runtime's kernel dispatch, and the spin-wait hint of
// its thread pool: the two things Swift cannot ask or emit by itself. Header-only; the
// kernels stay Swift.
//
// __builtin_cpu_supports also checks that the OS saves the wider registers (XCR0), so a
// "yes" means the instructions can run, not only that the CPU has them.
#ifndef TFLITE_CPU_FEATURES_H
#define TFLITE_CPU_FEATURES_H

#if defined(__x86_64__)
/// AVX2 and FMA3 (with F16C and BMI2, which every x86-64-v3 CPU has): 1 or 0.
static inline int tflite_cpu_x86_64_v3(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")
        && __builtin_cpu_supports("f16c") && __builtin_cpu_supports("bmi2");
}

/// AVX-512 F/BW/DQ/VL with VNNI (vpdpbusd): 1 or 0.
static inline int tflite_cpu_avx512_vnni(void) {
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw")
        && __builtin_cpu_supports("avx512dq") && __builtin_cpu_supports("avx512vl")
        && __builtin_cpu_supports("avx512vnni");
}
#else
static inline int tflite_cpu_x86_64_v3(void) { return 0; }
static inline int tflite_cpu_avx512_vnni(void) { return 0; }
#endif

/// The CPU's spin-wait hint (PAUSE, YIELD) for the runtime's thread pool: it frees the
/// core's pipeline while a worker polls for work. Swift has no way to emit it.
static inline void tflite_spin_hint(void) {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#elif defined(__aarch64__) || defined(__arm__)
    __asm__ __volatile__("yield");
#endif
}

#endif
