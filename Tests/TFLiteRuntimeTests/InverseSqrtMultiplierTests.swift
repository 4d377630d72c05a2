import Foundation
import Testing
@testable import TFLiteRuntime

/// The fixed-point `1/√x` of the 8-bit L2_NORMALIZATION (bit-exact against LiteRT in the
/// conformance corpus): within 1e-5 of the real value (it is 1.2e-6 off at worst here), and
/// defined at the edges.
@Suite struct InverseSqrtMultiplierTests {
    @Test(arguments: [2, 3, 7, 100, 1000, 65_025, 1 << 20, (1 << 29) - 1, 1 << 29, 1 << 30, Int32.max] as [Int32])
    func approximatesTheInverseSquareRoot(x: Int32) {
        let (mantissa, shift) = FixedPoint.inverseSqrtMultiplier(x)
        #expect(shift <= 0)
        let value = Double(mantissa) * pow(2, Double(-31 + shift))
        let exact = 1 / Double(x).squareRoot()
        #expect(abs(value - exact) / exact < 1e-5, "x = \(x): \(value) vs \(exact)")
    }

    @Test(arguments: [Int32.min, -5, 0, 1] as [Int32])
    func valuesUpToOneGiveTheLargestMultiplier(x: Int32) {
        let r = FixedPoint.inverseSqrtMultiplier(x)
        #expect(r.mantissa == .max && r.shift == 0)
    }
}
