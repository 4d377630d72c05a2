// The one place that chooses the CBLAS implementation: Accelerate on Apple platforms,
// OpenBLAS elsewhere.
#if canImport(Accelerate)
import Accelerate
#else
import COpenBLAS
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Synchronization
#endif

/// Single-precision GEMM through CBLAS, row-major:
/// `C[m×n] = op(A) · op(B) + beta·C`, where `op(A)` is `A[m×k]` or, when `transposeA`,
/// the transpose of `A[k×m]`, and `op(B)` is `B[k×n]` or, when `transposeB`, the
/// transpose of `B[n×k]` (the layout of TFLite's OHWI filters and FULLY_CONNECTED
/// weights). Callers check at prepare that every size fits in `Int32`.
@inline(__always)
func sgemm(
    m: Int, n: Int, k: Int,
    a: UnsafePointer<Float>, lda: Int, transposeA: Bool = false,
    b: UnsafePointer<Float>, ldb: Int, transposeB: Bool,
    c: UnsafeMutablePointer<Float>, ldc: Int, beta: Float = 0
) {
    cblas_sgemm(
        CblasRowMajor, transposeA ? CblasTrans : CblasNoTrans, transposeB ? CblasTrans : CblasNoTrans,
        Int32(m), Int32(n), Int32(k), 1.0,
        a, Int32(lda), b, Int32(ldb), beta, c, Int32(ldc))
}

/// Single-precision matrix-vector product through CBLAS, row-major:
/// `y[m] = A[m×n] · x[n] + beta·y` (rows of `A` `lda` apart). A one-row product through
/// `sgemm` would pack the whole matrix on every call. Callers check at prepare that every
/// size fits in `Int32`, and pass `n ≥ 1`.
@inline(__always)
func sgemv(
    m: Int, n: Int, a: UnsafePointer<Float>, lda: Int, x: UnsafePointer<Float>, y: UnsafeMutablePointer<Float>,
    beta: Float = 0
) {
    cblas_sgemv(CblasRowMajor, CblasNoTrans, Int32(m), Int32(n), 1.0, a, Int32(lda), x, 1, beta, y, 1)
}

/// Sets how many threads the BLAS library may use (no-op where it cannot be set). With
/// OpenBLAS, setting 1 also stops its idle server threads (see ``blasThreadLock``).
func setBLASThreadCount(_ n: Int) {
    #if !canImport(Accelerate)
    blasThreadLock.withLock { _ in
        // OpenBLAS 0.3.21 restarts its server threads inside `openblas_set_num_threads`,
        // whatever the count, so the call is made only when the count changes.
        guard openblas_get_num_threads() != Int32(n) else { return }
        openblas_set_num_threads(Int32(n))
        guard n == 1, let symbol = dlsym(nil, "blas_thread_shutdown_") else { return }
        typealias Shutdown = @convention(c) () -> Int32
        _ = unsafeBitCast(symbol, to: Shutdown.self)()
    }
    #endif
}

#if !canImport(Accelerate)
/// Serializes the engine's changes to OpenBLAS's thread count.
///
/// OpenBLAS's threaded builds start server threads when the library loads, and a server
/// thread with no work calls `sched_yield` in a loop for 2^28 time-stamp ticks (about
/// 0.1 s) before it sleeps, and again after every job. The engine runs BLAS
/// single-threaded under its own partitioning and never hands them work, but while they
/// spin they hold a core: on a 2-core machine, most two-thread runs of a 0.12 ms
/// depthwise layer in a fresh process measured at one-thread speed. So when the engine
/// sets one thread it also stops them with `blas_thread_shutdown_` (looked up at run
/// time: OpenBLAS's serial builds have no server and no such function). A later
/// multi-threaded BLAS call elsewhere in the process restarts them, as OpenBLAS does
/// after a `fork`.
private let blasThreadLock = Mutex<Void>(())
#endif

/// The BLAS library's name for the kernels it chose for this CPU (OpenBLAS's core name,
/// e.g. `Haswell` or `SkylakeX`; it follows `OPENBLAS_CORETYPE` when that is set).
public func blasCoreName() -> String {
    #if canImport(Accelerate)
    return "Accelerate"
    #else
    guard let name = openblas_get_corename() else { return "unknown" }
    return String(cString: name)
    #endif
}
