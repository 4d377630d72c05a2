/// Bytes a kernel derives from constants at prepare (its weights converted to the
/// layout its `eval` reads), stored with every other kernel's in one region.
///
/// A kernel asks ``PrepareContext/pack(bytes:fill:)`` for a buffer and keeps it; its
/// ``pointer`` is valid from the end of the engine's prepare on, which is before any
/// `eval`. One region for the graph rather than a buffer per layer: the region is
/// mapped with 2 MiB pages where it spans them (``PageMemory``), while MobileNet's
/// layers (1 MB of packed weights and less, most of them) would each be faulted in as
/// 4 KiB pages, the largest part of an 8-bit model's load time.
final class PackedBuffer: @unchecked Sendable {
    let count: Int
    /// The bytes, 64-byte aligned. Written once by the engine before any kernel runs.
    private(set) var pointer: UnsafeMutableRawPointer
    /// What the fill returned: a number derived from the data while it was written (the
    /// 8-bit GEMM kernels' largest weight magnitude), read by the kernel at eval.
    private(set) var derived = 0
    /// Keeps the shared region alive for as long as the kernel holding this buffer.
    private var region: AlignedBuffer?

    init(count: Int) {
        self.count = count
        pointer = PackedBuffer.unplaced.pointer
    }

    fileprivate func place(in region: AlignedBuffer, at offset: Int, fill: (UnsafeMutableRawPointer) -> Int) {
        self.region = region
        pointer = region.pointer + offset
        derived = fill(pointer)
    }

    /// Where `pointer` points until the buffer is placed (never read by a kernel).
    private static let unplaced = AlignedBuffer(zeroedCount: 64)
}

/// The packing requests of one prepare pass, laid out and filled together.
final class ConstantPacker {
    private var pending: [(buffer: PackedBuffer, offset: Int, fill: (UnsafeMutableRawPointer) -> Int)] = []
    /// Bytes of the pending requests, each rounded up to 64.
    private var total = 0

    /// Reserves `bytes`; `fill` writes them all at ``finish()`` and returns
    /// ``PackedBuffer/derived``.
    func request(bytes: Int, fill: @escaping (UnsafeMutableRawPointer) -> Int) throws(KernelError) -> PackedBuffer {
        let (rounded, o1) = Swift.max(bytes, 0).addingReportingOverflow(AlignedBuffer.alignment - 1)
        let (end, o2) = total.addingReportingOverflow(rounded / AlignedBuffer.alignment * AlignedBuffer.alignment)
        guard !o1, !o2 else { throw .invalid("packed constants of \(bytes) bytes overflow") }
        let buffer = PackedBuffer(count: bytes)
        pending.append((buffer, total, fill))
        total = end
        return buffer
    }

    /// Maps one region for the pending requests and fills them in order. Called when all
    /// operators are prepared, and before an operator is evaluated at prepare (folding);
    /// requests made after that go to the next region.
    func finish() {
        guard !pending.isEmpty else { return }
        let region = AlignedBuffer(uninitializedCount: total)
        for request in pending {
            request.buffer.place(in: region, at: request.offset, fill: request.fill)
        }
        pending = []
        total = 0
    }
}
