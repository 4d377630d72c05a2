import Testing

/// Expects `c` (`m` rows `ldc` apart) to hold `expected` (`m × n`) in its first `n`
/// columns and the untouched marker `0x5A5A` past them.
func expectGemmResult(
    _ c: [Int32], ldc: Int, expected: [Int32], m: Int, n: Int, k: Int,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    for i in 0 ..< m {
        for j in 0 ..< ldc {
            if j < n {
                #expect(
                    c[i * ldc + j] == expected[i * n + j], "m \(m) n \(n) k \(k): C[\(i), \(j)]",
                    sourceLocation: sourceLocation)
            } else {
                #expect(
                    c[i * ldc + j] == 0x5A5A, "m \(m) n \(n) k \(k): wrote past column \(n - 1)",
                    sourceLocation: sourceLocation)
            }
        }
    }
}
