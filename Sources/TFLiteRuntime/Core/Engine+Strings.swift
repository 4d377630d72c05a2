import TFLiteModel

extension Engine {
    /// Points every STRING tensor's pointer table entry at its slot (``StringSlot``).
    func pointStrings() {
        for (t, slot) in stringSlots.enumerated() {
            if let slot { pointerTable[t] = Unmanaged.passUnretained(slot).toOpaque() }
        }
    }

    /// Gives the string tensors among `indices` their planned element counts: a constant's
    /// slot views its bytes, the others hold that many strings (empty until written).
    func planStrings(_ indices: Range<Int>) throws(RuntimeError) {
        for t in indices {
            guard let slot = stringSlots[t] else { continue }
            guard let elements = Shape.elementCount(tensors[t].shape) else {
                throw .unsupportedModel(
                    "string tensor \(t) ('\(tensors[t].name)') has an invalid shape \(tensors[t].shape)")
            }
            if let constant = tensors[t].constant {
                slot.setConstant(constant, elements: elements)
                continue
            }
            do {
                try slot.plan(elements: elements)
            } catch {
                let layout = StringTensorLayout.size(count: elements, payload: 0) ?? Int.max
                throw .memoryBudgetExceeded(
                    required: InterpreterState.add(interpreterState.heldBytes(besides: nil), layout),
                    budget: options.memoryBudget)
            }
        }
    }

    /// The strings of STRING tensor `index`, or nil when it is not one or has no value yet
    /// (before `allocate()`).
    public func strings(forTensor index: Int) -> [[UInt8]]? {
        stringView(forTensor: index)?.arrays
    }

    /// The value of STRING tensor `index` in TFLite's layout (an `Int32` count, offsets,
    /// then the bytes), or nil when it is not one or before `allocate()`.
    public func stringBuffer(forTensor index: Int) -> UnsafeRawBufferPointer? {
        stringView(forTensor: index)?.bytes
    }

    package func stringView(forTensor index: Int) -> StringTensorView? {
        guard isAllocated, index >= 0, index < stringSlots.count, let slot = stringSlots[index] else { return nil }
        return slot.view
    }

    /// Sets STRING tensor `index` (a graph input) to `buffer`, in TFLite's layout, after
    /// checking every offset and that it holds as many strings as the tensor's shape has
    /// elements.
    public func setStrings(forTensor index: Int, buffer: UnsafeRawBufferPointer) throws(RuntimeError) {
        guard isAllocated else { throw .notAllocated }
        guard index >= 0, index < stringSlots.count, let slot = stringSlots[index], !tensors[index].isConstant else {
            throw .invalidInput("tensor \(index) is not a STRING tensor that can be written")
        }
        do {
            try slot.assign(copying: buffer)
        } catch {
            throw .invalidInput("tensor \(index) ('\(tensors[index].name)'): \(error.message)")
        }
    }

    /// Sets STRING tensor `index` (a graph input) to `strings`, one per element of its shape.
    public func setStrings(forTensor index: Int, _ strings: [[UInt8]]) throws(RuntimeError) {
        guard let layout = StringTensorLayout.encode(strings) else {
            throw .invalidInput("tensor \(index): the strings pass the 2 GiB a string tensor can hold")
        }
        var failure: RuntimeError?
        layout.withUnsafeBytes { raw in
            do throws(RuntimeError) { try setStrings(forTensor: index, buffer: raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }
}
