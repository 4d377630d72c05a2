/// The outcome of one kernel check: how many expectations ran and the first failures.
/// The aarch64 checks in this folder take one, so that Swift Testing (`swift test` on an
/// aarch64 machine) and the Embedded Swift runner (the same checks under emulation, which
/// has no test framework) run the same code.
struct KernelCheck {
    private(set) var expectations = 0
    private(set) var failures = 0
    /// The first few failures' descriptions.
    private(set) var messages: [String] = []

    init() {}

    mutating func expect(_ ok: Bool, _ what: @autoclosure () -> String) {
        expectations += 1
        guard !ok else { return }
        failures += 1
        if messages.count < 10 { messages.append(what()) }
    }
}
