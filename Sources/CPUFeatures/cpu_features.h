// The CPU-feature queries behind the runtime's kernel dispatch, the environment lookup of
// its level cap, and the spin-wait hint of its thread pool: the things Swift cannot ask or
// emit by itself without a platform module. Header-only; the kernels stay Swift. It
// compiles for every target the kernels do, Embedded Swift's bare-metal ones included.
//
// A query answers "yes" only when the instructions can run: on x86-64,
// __builtin_cpu_supports also checks that the OS saves the wider registers (XCR0); on
// aarch64 the answers come from the OS (Linux/Android: the auxiliary vector's hardware
// capabilities; Apple platforms: the hw.optional.arm sysctls), which report only what it
// enables for user code.
#ifndef TFLITE_CPU_FEATURES_H
#define TFLITE_CPU_FEATURES_H

#include <stdlib.h>

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

#if defined(__aarch64__) && defined(__APPLE__)
#include <sys/sysctl.h>
/// An hw.optional sysctl that is present and nonzero: 1 or 0 (an OS too old to know the
/// name answers 0).
static inline int tflite_sysctl_flag(const char *name) {
    int value = 0;
    size_t size = sizeof value;
    return sysctlbyname(name, &value, &size, NULL, 0) == 0 && value != 0;
}
/// Advanced SIMD: every Apple arm64 CPU has it (the platform ABI requires it).
static inline int tflite_cpu_arm64_neon(void) { return 1; }
/// SDOT/UDOT (FEAT_DotProd; Apple A13 and M1 on).
static inline int tflite_cpu_arm64_dotprod(void) { return tflite_sysctl_flag("hw.optional.arm.FEAT_DotProd"); }
/// SMMLA/UMMLA/USMMLA (FEAT_I8MM; Apple A15 and M2 on).
static inline int tflite_cpu_arm64_i8mm(void) { return tflite_sysctl_flag("hw.optional.arm.FEAT_I8MM"); }
#elif defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
// Bits of the Linux arm64 hwcaps ABI (arch/arm64/include/uapi/asm/hwcap.h), spelled out
// so that no kernel header version is assumed.
#define TFLITE_HWCAP_ASIMD (1UL << 1)
#define TFLITE_HWCAP_ASIMDDP (1UL << 20)
#define TFLITE_HWCAP2_I8MM (1UL << 13)
/// Advanced SIMD (AT_HWCAP's ASIMD bit).
static inline int tflite_cpu_arm64_neon(void) { return (getauxval(AT_HWCAP) & TFLITE_HWCAP_ASIMD) != 0; }
/// SDOT/UDOT (AT_HWCAP's ASIMDDP bit; Cortex-A55/A76 and Neoverse N1 on).
static inline int tflite_cpu_arm64_dotprod(void) { return (getauxval(AT_HWCAP) & TFLITE_HWCAP_ASIMDDP) != 0; }
/// SMMLA/UMMLA/USMMLA (AT_HWCAP2's I8MM bit; Neoverse V1/N2, Cortex-A510/A710 on).
static inline int tflite_cpu_arm64_i8mm(void) { return (getauxval(AT_HWCAP2) & TFLITE_HWCAP2_I8MM) != 0; }
#elif defined(__aarch64__)
/// Other aarch64 systems: Advanced SIMD is part of the architecture's baseline, and the
/// extensions are not looked up.
static inline int tflite_cpu_arm64_neon(void) { return 1; }
static inline int tflite_cpu_arm64_dotprod(void) { return 0; }
static inline int tflite_cpu_arm64_i8mm(void) { return 0; }
#else
static inline int tflite_cpu_arm64_neon(void) { return 0; }
static inline int tflite_cpu_arm64_dotprod(void) { return 0; }
static inline int tflite_cpu_arm64_i8mm(void) { return 0; }
#endif

/// The environment variable `name`, or NULL: `getenv` without a platform module, so that
/// the kernel level also compiles where Swift has none (Embedded Swift).
static inline const char *tflite_environment(const char *name) { return getenv(name); }

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
