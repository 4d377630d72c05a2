#if arch(arm64)
import _Builtin_intrinsics.arm.neon

/// One row of 16 `Int32` column sums of an integer GEMM block, in four vectors: what the
/// aarch64 8-bit GEMMs (`gemmQ8x4x16c4DotProd`, `gemmQ8x4x16c8I8MM`) hand to their
/// ``IntegerBlockOutput`` when a block is done.
@frozen
public struct Int32Row16 {
    public var v0: SIMD4<Int32>, v1: SIMD4<Int32>, v2: SIMD4<Int32>, v3: SIMD4<Int32>

    @inlinable @inline(__always)
    public init(_ v0: SIMD4<Int32>, _ v1: SIMD4<Int32>, _ v2: SIMD4<Int32>, _ v3: SIMD4<Int32>) {
        (self.v0, self.v1, self.v2, self.v3) = (v0, v1, v2, v3)
    }

    /// `width ≤ 16` values from `p` (nil: zeros), the rest zero: a panel's per-column
    /// values, read without touching memory past the last column.
    @inlinable @inline(__always)
    public init(_ p: UnsafePointer<Int32>?, width: Int) {
        guard let p else {
            self.init(SIMD4(), SIMD4(), SIMD4(), SIMD4())
            return
        }
        let r = UnsafeRawPointer(p)
        if width == 16 {
            self.init(
                r.loadUnaligned(as: SIMD4<Int32>.self), r.loadUnaligned(fromByteOffset: 16, as: SIMD4<Int32>.self),
                r.loadUnaligned(fromByteOffset: 32, as: SIMD4<Int32>.self),
                r.loadUnaligned(fromByteOffset: 48, as: SIMD4<Int32>.self))
            return
        }
        var v = SIMD16<Int32>()
        for j in 0 ..< width { v[j] = p[j] }
        self.init(v.lowHalf.lowHalf, v.lowHalf.highHalf, v.highHalf.lowHalf, v.highHalf.highHalf)
    }

    @inlinable @inline(__always)
    public static func &+ (a: Int32Row16, b: Int32Row16) -> Int32Row16 {
        Int32Row16(a.v0 &+ b.v0, a.v1 &+ b.v1, a.v2 &+ b.v2, a.v3 &+ b.v3)
    }
}

/// Where an aarch64 integer GEMM puts its finished rows: per panel of 16 columns,
/// `columns(first:width:)` makes what the panel's stores need (once per panel, so
/// per-channel constants are loaded once for all its rows), then each row's sums go to
/// its `store(_:row:)`.
public protocol IntegerBlockOutput {
    associatedtype Columns: IntegerBlockColumns
    func columns(first: Int, width: Int) -> Columns
}

/// One panel's store of ``IntegerBlockOutput``.
public protocol IntegerBlockColumns {
    func store(_ sums: Int32Row16, row: Int)
}

/// `Int32` rows `ldc` apart: a plain GEMM's output.
@frozen
public struct Int32BlockRows: IntegerBlockOutput {
    public let c: UnsafeMutablePointer<Int32>, ldc: Int

    @inlinable @inline(__always)
    public init(c: UnsafeMutablePointer<Int32>, ldc: Int) { (self.c, self.ldc) = (c, ldc) }

    @frozen
    public struct Columns: IntegerBlockColumns {
        public let c: UnsafeMutablePointer<Int32>, ldc: Int, width: Int

        @inlinable @inline(__always)
        public init(c: UnsafeMutablePointer<Int32>, ldc: Int, width: Int) {
            (self.c, self.ldc, self.width) = (c, ldc, width)
        }

        @inlinable @inline(__always)
        public func store(_ s: Int32Row16, row: Int) {
            let p = c + row * ldc, o = UnsafeMutableRawPointer(p)
            if width == 16 {
                o.storeBytes(of: s.v0, as: SIMD4<Int32>.self)
                o.storeBytes(of: s.v1, toByteOffset: 16, as: SIMD4<Int32>.self)
                o.storeBytes(of: s.v2, toByteOffset: 32, as: SIMD4<Int32>.self)
                o.storeBytes(of: s.v3, toByteOffset: 48, as: SIMD4<Int32>.self)
                return
            }
            let all = SIMD16<Int32>(
                lowHalf: SIMD8(lowHalf: s.v0, highHalf: s.v1), highHalf: SIMD8(lowHalf: s.v2, highHalf: s.v3))
            for j in 0 ..< width { p[j] = all[j] }
        }
    }

    @inlinable @inline(__always)
    public func columns(first j0: Int, width: Int) -> Columns { Columns(c: c + j0, ldc: ldc, width: width) }
}

/// Sixteen codes of one row: all of them, or the first `width` byte by byte.
@inlinable @inline(__always)
func storeCodes(_ bytes: SIMD16<Int8>, _ p: UnsafeMutableRawPointer, width: Int) {
    if width == 16 {
        p.storeBytes(of: bytes, as: SIMD16<Int8>.self)
    } else {
        for j in 0 ..< width { p.storeBytes(of: bytes[j], toByteOffset: j, as: Int8.self) }
    }
}

/// Codes requantized in registers with TFLite's fixed point (``RequantizeQ31Lanes``, the
/// arithmetic of `requantizeQ31NEON`), rows `outStride` bytes apart; the per-channel
/// `mantissa`, `left`, `right` start at column 0.
@frozen
public struct Q31BlockCodes: IntegerBlockOutput {
    public let mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, shiftsLeft: Bool
    public let right: UnsafePointer<Int32>, range: CodeRangeLanes
    public let out: UnsafeMutableRawPointer, outStride: Int

    @inlinable @inline(__always)
    public init(
        mantissa: UnsafePointer<Int32>, left: UnsafePointer<Int32>, shiftsLeft: Bool, right: UnsafePointer<Int32>,
        range: CodeRangeLanes, out: UnsafeMutableRawPointer, outStride: Int
    ) {
        (self.mantissa, self.left, self.shiftsLeft, self.right) = (mantissa, left, shiftsLeft, right)
        (self.range, self.out, self.outStride) = (range, out, outStride)
    }

    @frozen
    public struct Columns: IntegerBlockColumns {
        public let lanes: (RequantizeQ31Lanes, RequantizeQ31Lanes, RequantizeQ31Lanes, RequantizeQ31Lanes)
        public let shiftsLeft: Bool, range: CodeRangeLanes
        public let out: UnsafeMutableRawPointer, outStride: Int, width: Int

        @inlinable @inline(__always)
        public init(
            lanes: (RequantizeQ31Lanes, RequantizeQ31Lanes, RequantizeQ31Lanes, RequantizeQ31Lanes),
            shiftsLeft: Bool, range: CodeRangeLanes, out: UnsafeMutableRawPointer, outStride: Int, width: Int
        ) {
            (self.lanes, self.shiftsLeft, self.range) = (lanes, shiftsLeft, range)
            (self.out, self.outStride, self.width) = (out, outStride, width)
        }

        @inlinable @inline(__always)
        public func store(_ s: Int32Row16, row: Int) {
            @inline(__always) func code(_ v: SIMD4<Int32>, _ l: RequantizeQ31Lanes) -> SIMD4<Int32> {
                range.clamp(l.apply(v, shiftsLeft: shiftsLeft))
            }
            let bytes = narrowToBytes(
                code(s.v0, lanes.0), code(s.v1, lanes.1), code(s.v2, lanes.2), code(s.v3, lanes.3))
            storeCodes(bytes, out + row * outStride, width: width)
        }
    }

    @inlinable @inline(__always)
    public func columns(first j0: Int, width: Int) -> Columns {
        let m = Int32Row16(mantissa + j0, width: width), l = Int32Row16(left + j0, width: width)
        let r = Int32Row16(right + j0, width: width)
        @inline(__always) func lanes(_ m: SIMD4<Int32>, _ l: SIMD4<Int32>, _ r: SIMD4<Int32>) -> RequantizeQ31Lanes {
            RequantizeQ31Lanes(mantissa: m, left: l, right: r)
        }
        return Columns(
            lanes: (lanes(m.v0, l.v0, r.v0), lanes(m.v1, l.v1, r.v1), lanes(m.v2, l.v2, r.v2), lanes(m.v3, l.v3, r.v3)),
            shiftsLeft: shiftsLeft, range: range, out: out + j0, outStride: outStride, width: width)
    }
}

/// Codes requantized in registers with the float32 arithmetic (``FloatCodeLanes``, as
/// `requantizeF32NEON`): one `Float` `scale` per column from column 0.
@frozen
public struct F32BlockCodes: IntegerBlockOutput {
    public let scale: UnsafePointer<Float>, range: FloatCodeLanes
    public let out: UnsafeMutableRawPointer, outStride: Int

    @inlinable @inline(__always)
    public init(scale: UnsafePointer<Float>, range: FloatCodeLanes, out: UnsafeMutableRawPointer, outStride: Int) {
        (self.scale, self.range, self.out, self.outStride) = (scale, range, out, outStride)
    }

    @frozen
    public struct Columns: IntegerBlockColumns {
        public let scales: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
        public let range: FloatCodeLanes, out: UnsafeMutableRawPointer, outStride: Int, width: Int

        @inlinable @inline(__always)
        public init(
            scales: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>), range: FloatCodeLanes,
            out: UnsafeMutableRawPointer, outStride: Int, width: Int
        ) {
            (self.scales, self.range, self.out, self.outStride, self.width) = (scales, range, out, outStride, width)
        }

        @inlinable @inline(__always)
        public func store(_ s: Int32Row16, row: Int) {
            let bytes = narrowToBytes(
                range.codes(s.v0, scale: scales.0), range.codes(s.v1, scale: scales.1),
                range.codes(s.v2, scale: scales.2), range.codes(s.v3, scale: scales.3))
            storeCodes(bytes, out + row * outStride, width: width)
        }
    }

    @inlinable @inline(__always)
    public func columns(first j0: Int, width: Int) -> Columns {
        var v = SIMD16<Float>()
        for j in 0 ..< width { v[j] = scale[j0 + j] }
        return Columns(
            scales: (v.lowHalf.lowHalf, v.lowHalf.highHalf, v.highHalf.lowHalf, v.highHalf.highHalf), range: range,
            out: out + j0, outStride: outStride, width: width)
    }
}
#endif
