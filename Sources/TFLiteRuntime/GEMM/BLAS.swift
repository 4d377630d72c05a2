// The one place that chooses the CBLAS implementation: Accelerate on Apple platforms,
// OpenBLAS elsewhere.
#if canImport(Accelerate)
import Accelerate
#else
import COpenBLAS
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

/// Sets how many threads the BLAS library may use (no-op where it cannot be set).
func setBLASThreadCount(_ n: Int) {
    #if !canImport(Accelerate)
    openblas_set_num_threads(Int32(n))
    #endif
}

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
