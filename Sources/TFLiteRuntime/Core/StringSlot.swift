import TFLiteModel

/// The value of one STRING tensor of an engine while it runs.
///
/// A string tensor's size depends on its contents, so it has no place in the arena: the
/// engine keeps one slot per STRING tensor for its whole life, and the tensor's entry in
/// the pointer table points at the slot (``EvalContext/strings(_:)`` and
/// ``EvalContext/setStrings(_:_:)`` read and write it). A slot holds the bytes in
/// ``StringTensorLayout``: a view of the model file for a constant, else a buffer of its
/// own that grows when a longer value is written, its bytes counted against the memory
/// budget through the interpreter state. Every value a slot holds has been checked, and holds as
/// many strings as the tensor's shape has elements.
package final class StringSlot {
    /// The current value, in ``StringTensorLayout``.
    private(set) var bytes: UnsafeRawBufferPointer
    private(set) var count: Int
    /// The buffer `bytes` lies in when the slot owns it.
    private var storage: AlignedBuffer?
    /// Keeps a constant's bytes alive while `bytes` views them.
    private var constant: ConstantBytes?
    /// The element count of the tensor's shape, which every value must have (set each
    /// time the engine plans the tensor).
    private(set) var elementCount = 0
    /// The interpreter state whose memory budget the slot's storage counts against; it outlives the
    /// slot's storage (``release()``).
    unowned(unsafe) let interpreterState: InterpreterState

    init(interpreterState: InterpreterState) {
        self.interpreterState = interpreterState
        bytes = UnsafeRawBufferPointer(start: nil, count: 0)
        count = 0
    }

    package var view: StringTensorView { StringTensorView(validated: bytes, count: count) }

    /// Bytes of storage the slot owns.
    var ownedBytes: Int { storage?.count ?? 0 }

    /// Makes the slot view `constant` (already checked, by the model decoder or when it
    /// was folded), holding `elements` strings.
    func setConstant(_ constant: ConstantBytes, elements: Int) {
        release()
        self.constant = constant
        bytes = constant.bytes
        count = elements
        elementCount = elements
    }

    /// Prepares the slot for a tensor of `elements` strings: unless it holds that many
    /// already, it is given that many empty strings (kernels then always read a value of
    /// the tensor's shape, even one nothing has written yet).
    func plan(elements: Int) throws(KernelError) {
        elementCount = elements
        if constant == nil, storage != nil, count == elements { return }
        constant = nil
        var empty = StringTensorBuilder()
        for _ in 0 ..< elements { empty.append(EmptyCollection<UInt8>()) }
        try assign(empty)
    }

    /// Replaces the value with the strings `builder` collected, which must be as many as
    /// the tensor's elements.
    func assign(_ builder: StringTensorBuilder) throws(KernelError) {
        guard builder.count == elementCount else {
            throw .invalid("it wrote \(builder.count) strings to a tensor of \(elementCount) elements")
        }
        guard let size = builder.encodedSize else {
            throw .invalid("its \(builder.count) strings pass the 2 GiB a string tensor can hold")
        }
        let destination = try reserve(size)
        builder.write(to: destination)
        bytes = UnsafeRawBufferPointer(start: destination, count: size)
        count = builder.count
    }

    /// Replaces the value with `source`, checked against ``StringTensorLayout`` and the
    /// tensor's element count (bytes from the API or another engine).
    func assign(copying source: UnsafeRawBufferPointer) throws(KernelError) {
        switch StringTensorLayout.validate(source, expected: elementCount) {
        case .failure(let fault): throw .invalid(fault.description)
        case .success(let strings):
            let destination = try reserve(source.count)
            if let base = source.baseAddress, source.count > 0 {
                destination.copyMemory(from: base, byteCount: source.count)
            }
            bytes = UnsafeRawBufferPointer(start: destination, count: source.count)
            count = strings
        }
    }

    /// Owned storage of at least `size` bytes, reused when large enough; new storage is
    /// charged to the interpreter state's memory budget first.
    private func reserve(_ size: Int) throws(KernelError) -> UnsafeMutableRawPointer {
        constant = nil
        if let storage, storage.count >= size { return storage.pointer }
        let growth = size - (storage?.count ?? 0)
        try interpreterState.chargeStrings(growth)
        let buffer = AlignedBuffer(uninitializedCount: size)
        storage = buffer
        return buffer.pointer
    }

    /// Gives the storage back, and its bytes to the interpreter state's budget. The engine calls it
    /// from its `deinit`, while the interpreter state it holds is still alive.
    func release() {
        interpreterState.stringBytes -= storage?.count ?? 0
        storage = nil
    }
}

extension EvalContext {
    /// The slot of STRING tensor `index`: the engine points every string tensor's entry at
    /// its slot, so this is valid for any tensor prepare checked to be STRING.
    @inline(__always)
    package func stringSlot(_ index: Int) -> StringSlot {
        Unmanaged<StringSlot>.fromOpaque(UnsafeRawPointer(raw(index))).takeUnretainedValue()
    }

    /// The strings of STRING tensor `index`.
    package func strings(_ index: Int) -> StringTensorView { stringSlot(index).view }

    /// Makes `builder`'s strings the value of STRING tensor `index`; fails when their
    /// count is not the tensor's element count or their memory passes the budget.
    package func setStrings(_ index: Int, _ builder: StringTensorBuilder) throws(KernelError) {
        try stringSlot(index).assign(builder)
    }
}

extension InterpreterState {
    /// Charges `bytes` more string storage to the memory budget, which it must fit beside
    /// every engine's arena and folded constants, the variables, the tables and the
    /// strings already held.
    func chargeStrings(_ bytes: Int) throws(KernelError) {
        let held = heldBytes(besides: nil)
        let (total, overflow) = held.addingReportingOverflow(bytes)
        guard !overflow, total <= options.memoryBudget else {
            throw .invalid(
                "its strings need \(bytes) more bytes, past the memory budget of \(options.memoryBudget) bytes (EngineOptions.memoryBudget)"
            )
        }
        stringBytes += bytes
    }
}
