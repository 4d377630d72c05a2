import Microkernels
import SeededRandom
import Testing
#if arch(x86_64)
import MicrokernelsAVX2
#endif

/// CAST float32 → int32 as the runtime defines it, written out independently: NaN → 0,
/// truncation toward zero, saturation at `±2^31`.
private func expected(_ x: Float) -> Int32 {
    if x.isNaN { return 0 }
    if x >= 0x1p31 { return .max }
    if x < -0x1p31 { return .min }
    return Int32(x.rounded(.towardZero))
}

private func castLevels() -> [(String, (UnsafePointer<Float>, UnsafeMutablePointer<Int32>, Int) -> Void)] {
    var levels: [(String, (UnsafePointer<Float>, UnsafeMutablePointer<Int32>, Int) -> Void)] = [
        ("portable", { castF32ToI32Portable($0, $1, count: $2) })
    ]
    #if arch(x86_64)
    if KernelLevel.host >= .avx2 { levels.append(("avx2", { castF32ToI32AVX2($0, $1, count: $2) })) }
    #endif
    return levels
}

/// The values where the conversion's edges are: ±0, subnormals, fractions, the largest
/// floats below `±2^31`, `±2^31` itself, beyond, ±∞, NaNs of both signs and payloads.
private let edges: [Float] = [
    0, -0.0, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 0.999_999_9, -0.999_999_9, 1.5, -1.5, 2.5, -2.5,
    2_147_483_520, -2_147_483_520, 0x1p31, -0x1p31, Float(0x1p31).nextUp, Float(-0x1p31).nextDown,
    3e9, -3e9, 1e30, -1e30,
    .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .infinity, -.infinity, .nan, -.nan,
    Float(bitPattern: 0x7FC1_2345), Float(bitPattern: 0xFF80_0001), Float(bitPattern: 0x7F80_0001), 16_777_215,
    -8_388_609.5, 123.75, -123.75,
]

@Test func castF32ToI32MatchesTheDefinitionOnEdges() {
    var rng = SplitMix64(seed: 17)
    // Every edge in every lane position: the edges, then shifted by one element 16 times.
    var x: [Float] = []
    for shift in 0 ..< 16 { x += [Float](repeating: 7.25, count: shift) + edges }
    x += (0 ..< 4000).map { _ in Float(bitPattern: UInt32.random(in: 0 ... .max, using: &rng)) }
    x += (0 ..< 4000).map { _ in Float.random(in: -3e9 ... 3e9, using: &rng) }
    for (name, kernel) in castLevels() {
        var y = [Int32](repeating: 1, count: x.count)
        x.withUnsafeBufferPointer { xb in
            y.withUnsafeMutableBufferPointer { kernel(xb.baseAddress!, $0.baseAddress!, x.count) }
        }
        var bad = 0
        for (v, got) in zip(x, y) where got != expected(v) || got != saturatingInt32(v) {
            if bad < 3 {
                Issue.record(
                    "\(name) cast \(v) (bits \(String(v.bitPattern, radix: 16))) = \(got), want \(expected(v))")
            }
            bad += 1
        }
        #expect(bad == 0)
    }
}

/// Every length 0...15 at offsets 0...3: the elements converted, nothing around them written.
@Test func castF32ToI32TailsAndOffsets() {
    for (name, kernel) in castLevels() {
        for offset in 0 ..< 4 {
            for count in 0 ... 15 {
                let x = Array(edges[offset ..< offset + count])
                var out = [Int32](repeating: 42, count: offset + count + 4)
                // One element past the end, so the buffer of an empty row has an address.
                (x + [1]).withUnsafeBufferPointer { xb in
                    out.withUnsafeMutableBufferPointer { kernel(xb.baseAddress!, $0.baseAddress! + offset, count) }
                }
                #expect(
                    out[..<offset].allSatisfy { $0 == 42 } && out[(offset + count)...].allSatisfy { $0 == 42 },
                    "\(name)")
                #expect(Array(out[offset ..< offset + count]) == x.map(expected), "\(name) \(x)")
            }
        }
    }
}
