import Microkernels

/// Which microkernels a level brings, for the kernels' prepare-time choices. A level of
/// the other architecture brings none: its modules are empty in this build.
extension KernelLevel {
    /// The float GEMM and matrix-vector product, the 3×3 depthwise rows, the
    /// requantization lanes and the 16-bit integer GEMM: `avx2` and up on x86-64, `neon`
    /// and up on aarch64.
    var hasVectorKernels: Bool { self > .portable && KernelLevel.native.contains(self) }

    /// An 8-bit dot product for the byte GEMM (``Conv2DQ8GemmU8S8``) and the byte
    /// matrix-vector product: `avx512` (`vpdpbusd`), `dotprod` and `i8mm` (`SDOT`/`UDOT`,
    /// and at `i8mm` the GEMM on `SMMLA`/`UMMLA`).
    var hasByteDot: Bool {
        #if arch(x86_64)
        self == .avx512
        #elseif arch(arm64)
        self == .dotprod || self == .i8mm
        #else
        false
        #endif
    }
}
