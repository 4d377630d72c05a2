import Microkernels
#if arch(x86_64)
import MicrokernelsAVX512
#elseif arch(arm64)
import MicrokernelsDotProd
import MicrokernelsI8MM
#endif
#if arch(x86_64)
/// The kernels that requantize in registers, as they finish each block of sums, instead of
/// storing `Int32` sums for ``Requantizer/storeRows(_:rows:count:accStride:firstChannel:bias:into:outStride:)``.
extension Requantizer {
    /// The AVX-512 VNNI byte GEMM (``GemmU8S8Layout``) with this requantizer's arithmetic in
    /// its epilogue: `m` rows of `n` channels from `firstChannel` on, codes `outStride`
    /// apart. Needs ``level`` `.avx512` and the fixed-point or float32 arithmetic (callers
    /// check; the double arithmetic has no lane form).
    @inline(__always)
    func gemmU8S8Requantized<T: Quantized8>(
        m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, packedB: UnsafePointer<Int8>, initial: UnsafePointer<Int32>,
        firstChannel c0: Int, bias: UnsafePointer<Int32>?, into out: UnsafeMutablePointer<T>, outStride: Int
    ) {
        let b = bias.map { $0 + c0 }, y = UnsafeMutableRawPointer(out)
        switch arithmetic {
        case .double:
            return
        case .float32:
            floatScales.withUnsafeBufferPointer { s in
                guard let s = s.baseAddress else { return }
                gemmU8S8x8x16c4RequantizeF32AVX512VNNI(
                    m: m, n: n, kp: kp, a: a, lda: kp, packedB: packedB, initial: initial, bias: b, scale: s + c0,
                    outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, into: y, outStride: outStride)
            }
        case .fixedPoint:
            withFixedPointLanes { mv, lv, rv in
                gemmU8S8x8x16c4RequantizeQ31AVX512VNNI(
                    m: m, n: n, kp: kp, a: a, lda: kp, packedB: packedB, initial: initial, bias: b,
                    mantissa: mv + c0, left: lv + c0, shiftsLeft: anyLeftShift, right: rv + c0,
                    outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, saturating: saturates, into: y,
                    outStride: outStride)
            }
        }
    }

    /// The per-channel mantissas, left and right shifts, as pointers for the lane kernels.
    @inline(__always)
    private func withFixedPointLanes(
        _ body: (UnsafePointer<Int32>, UnsafePointer<Int32>, UnsafePointer<Int32>) -> Void
    ) {
        mantissas.withUnsafeBufferPointer { mv in
            leftShifts.withUnsafeBufferPointer { lv in
                rightShifts.withUnsafeBufferPointer { rv in
                    guard let mv = mv.baseAddress, let lv = lv.baseAddress, let rv = rv.baseAddress else { return }
                    body(mv, lv, rv)
                }
            }
        }
    }
}
#endif
#if arch(arm64)
extension Requantizer {
    /// The aarch64 byte GEMM with this requantizer's arithmetic in its epilogue: `m` rows
    /// of `n` channels from `firstChannel` on, codes `outStride` apart, on `SMMLA`
    /// (``GemmQ8C8Layout``) at `.i8mm` and on `SDOT` (``GemmU8S8Layout``) at `.dotprod`;
    /// `signed` says int8 codes (else uint8). Needs one of those levels and the fixed-point
    /// or float32 arithmetic (callers check; the double arithmetic has no lane form).
    @inline(__always)
    func gemmQ8Requantized<T: Quantized8>(
        m: Int, n: Int, kp: Int, a: UnsafePointer<UInt8>, packedB: UnsafePointer<Int8>, initial: UnsafePointer<Int32>,
        firstChannel c0: Int, bias: UnsafePointer<Int32>?, into out: UnsafeMutablePointer<T>, outStride: Int
    ) {
        let b = bias.map { $0 + c0 }, y = UnsafeMutableRawPointer(out)
        let signed = T.isSigned, matrix = level == .i8mm
        switch arithmetic {
        case .double:
            return
        case .float32:
            floatScales.withUnsafeBufferPointer { s in
                guard let s = s.baseAddress else { return }
                if matrix {
                    gemmQ8x4x16c8RequantizeF32I8MM(
                        m: m, n: n, kp: kp, a: a, lda: kp, packedB: packedB, signed: signed, initial: initial, bias: b,
                        scale: s + c0, outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, into: y,
                        outStride: outStride)
                } else {
                    gemmQ8x4x16c4RequantizeF32DotProd(
                        m: m, n: n, kp: kp, a: a, lda: kp, packedB: packedB, signed: signed, initial: initial, bias: b,
                        scale: s + c0, outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, into: y,
                        outStride: outStride)
                }
            }
        case .fixedPoint:
            mantissas.withUnsafeBufferPointer { mv in
                leftShifts.withUnsafeBufferPointer { lv in
                    rightShifts.withUnsafeBufferPointer { rv in
                        guard let mv = mv.baseAddress, let lv = lv.baseAddress, let rv = rv.baseAddress else { return }
                        if matrix {
                            gemmQ8x4x16c8RequantizeQ31I8MM(
                                m: m, n: n, kp: kp, a: a, lda: kp, packedB: packedB, signed: signed, initial: initial,
                                bias: b, mantissa: mv + c0, left: lv + c0, shiftsLeft: anyLeftShift, right: rv + c0,
                                outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, into: y,
                                outStride: outStride)
                        } else {
                            gemmQ8x4x16c4RequantizeQ31DotProd(
                                m: m, n: n, kp: kp, a: a, lda: kp, packedB: packedB, signed: signed, initial: initial,
                                bias: b, mantissa: mv + c0, left: lv + c0, shiftsLeft: anyLeftShift, right: rv + c0,
                                outputZeroPoint: outputZeroPoint, lower: lower, upper: upper, into: y,
                                outStride: outStride)
                        }
                    }
                }
            }
        }
    }
}
#endif
