import TFLiteModel

/// The index tuples of GATHER_ND and SCATTER_ND: an int32 or int64 tensor whose last
/// dimension `K` is the length of each tuple; every other dimension enumerates tuples.
/// A tuple `(i₀, …, i_{K−1})` names the slice `t[i₀, …, i_{K−1}, ...]` of a tensor of
/// shape `dims`, whose first `K` dimensions it indexes.
struct IndexTuples: Sendable {
    let tensor: Int
    let wide: Bool
    /// Tuples in the tensor.
    let count: Int
    /// `K`.
    let length: Int
    /// The indexed tensor's first `K` dimensions and their strides in slices.
    let dims: [Int]
    let strides: [Int]

    init(_ indices: TensorState, indexing shape: [Int], role: String) throws(KernelError) {
        guard indices.type == .int32 || indices.type == .int64 else {
            throw .types("the indices have type \(indices.type); expected INT32 or INT64")
        }
        guard let k = indices.shape.last else { throw .invalid("the indices must have rank 1 or more") }
        guard k <= shape.count else {
            throw .invalid("index tuples of length \(k) cannot index the \(role), of rank \(shape.count)")
        }
        tensor = indices.index
        wide = indices.type == .int64
        length = k
        count = try ShapeSupport.product(indices.shape.dropLast(), role: "the index tuples")
        dims = Array(shape[..<k])
        // Strides in slices: products of trailing dimensions, checked (see ShapeSupport.product).
        var s = [Int](repeating: 1, count: k)
        for d in (0 ..< k).reversed() {
            s[d] = try ShapeSupport.product(shape[(d + 1) ..< k], role: "the indexed dimensions")
        }
        strides = s
    }

    /// The slice number tuple `t` names, or an error naming the index out of range.
    @inline(__always)
    func slice(_ t: Int, in context: EvalContext) throws(KernelError) -> Int {
        let raw = UnsafeRawPointer(context.raw(tensor))
        var slice = 0
        for d in 0 ..< length {
            let at = t * length + d
            let i =
                wide
                ? Int(raw.load(fromByteOffset: 8 * at, as: Int64.self))
                : Int(raw.load(fromByteOffset: 4 * at, as: Int32.self))
            guard i >= 0, i < dims[d] else {
                throw .invalid("index \(i) (component \(d) of index tuple \(t)) is out of range 0..<\(dims[d])")
            }
            slice += i * strides[d]
        }
        return slice
    }
}
