import TFLiteModel

/// A hash table an interpreter keeps (HASHTABLE and its FIND, IMPORT and SIZE operators):
/// string keys to `Int64` values, or `Int64` keys to string values, filled once by
/// HASHTABLE_IMPORT. It lives in the interpreter's ``InterpreterState`` like a resource variable.
final class LookupTable {
    let keyType: ElementType
    let valueType: ElementType
    /// The table's contents: exactly one of the two is used, as the types say.
    private(set) var stringToInteger: [[UInt8]: Int64] = [:]
    private(set) var integerToString: [Int64: [UInt8]] = [:]
    /// Whether an import has filled the table, and a fingerprint of what it imported (a
    /// second import of the same keys and values is the converter's doing and changes
    /// nothing; one of other contents is refused).
    private(set) var imported: (keys: UInt64, values: UInt64)?
    /// Bytes the contents hold, charged to the memory budget.
    private(set) var bytes = 0

    init(keyType: ElementType, valueType: ElementType) {
        self.keyType = keyType
        self.valueType = valueType
    }

    var count: Int { keyType == .string ? stringToInteger.count : integerToString.count }

    /// Whether LiteRT has such a table: string → INT64, or INT64 → string.
    static func supports(key: ElementType, value: ElementType) -> Bool {
        (key == .string && value == .int64) || (key == .int64 && value == .string)
    }

    /// Fills the table from `keys` and `values` (one per key); when a key repeats, its
    /// first value stays, as in LiteRT. `charge` is given the bytes the contents take and
    /// throws when they do not fit the memory budget.
    func fill(
        stringKeys: StringTensorView?, integerKeys: UnsafeBufferPointer<Int64>?,
        stringValues: StringTensorView?, integerValues: UnsafeBufferPointer<Int64>?,
        fingerprint: (keys: UInt64, values: UInt64), charge: (Int) throws(KernelError) -> Void
    ) throws(KernelError) {
        var size = 0
        if let stringKeys, let integerValues {
            var map: [[UInt8]: Int64] = [:]
            for i in 0 ..< Swift.min(stringKeys.count, integerValues.count) {
                let key = Array(stringKeys[i])
                if map[key] == nil {
                    map[key] = integerValues[i]
                    size = InterpreterState.add(size, InterpreterState.add(key.count, 48))
                }
            }
            try charge(size)
            stringToInteger = map
        } else if let integerKeys, let stringValues {
            var map: [Int64: [UInt8]] = [:]
            for i in 0 ..< Swift.min(integerKeys.count, stringValues.count) where map[integerKeys[i]] == nil {
                let value = Array(stringValues[i])
                map[integerKeys[i]] = value
                size = InterpreterState.add(size, InterpreterState.add(value.count, 48))
            }
            try charge(size)
            integerToString = map
        } else {
            throw .invalid("the keys and values do not match the table's types")
        }
        bytes = size
        imported = fingerprint
    }
}
