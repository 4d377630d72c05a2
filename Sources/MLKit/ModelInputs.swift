import Foundation

/// One number of an array input, kept exactly as given until the declared type is known.
enum ModelNumber: Sendable, Equatable {
    case signed(Int64)
    case unsigned(UInt64)
    case real(Double)

    var text: String {
        switch self {
        case .signed(let v): return "\(v)"
        case .unsigned(let v): return "\(v)"
        case .real(let v): return "\(v)"
        }
    }
}

/// One input as given to ``ModelInputs/addInput(_:)``.
enum ModelInputValue: Sendable {
    /// Raw little-endian bytes.
    case data(Data)
    /// A nested array's numbers in row-major order, and its shape.
    case numbers([ModelNumber], shape: [Int])
    /// A nested array's strings (UTF-8 for a `String`) in row-major order, and its shape.
    case strings([Data], shape: [Int])
}

/// The inputs of one run: Firebase's `ModelInputs`.
///
///     let inputs = ModelInputs()
///     try inputs.addInput(imageData)          // Data: raw bytes in the declared type
///     try inputs.addInput([[0.5, 1, 2]])      // or a nested array of numbers
public final class ModelInputs: NSObject, @unchecked Sendable {
    private let lock = NSLock()
    private var values: [ModelInputValue] = []

    public override init() { super.init() }

    /// Appends an input at the next index (0, 1, …).
    ///
    /// `input` is either `Data` (or `NSData`): the tensor's raw little-endian bytes; or an
    /// array, possibly nested, whose innermost elements are numbers: `NSNumber` or Swift
    /// `Int`, `Int8`…`Int64`, `UInt`, `UInt8`…`UInt64`, `Float`, `Double`. Numbers are
    /// converted to the declared type when the model runs; a value that type cannot hold
    /// exactly is an error then. For an input declared ``ModelElementType/string`` (an
    /// addition), the innermost elements are `String`s (or `Data`, bytes that need not be
    /// UTF-8).
    ///
    /// - Throws: an `NSError` with ``MachineLearningErrorCode/invalidArgument`` when
    ///   `input` is neither, an element is not a number, or the array is ragged.
    public func addInput(_ input: Any) throws {
        lock.lock(); defer { lock.unlock() }
        let index = values.count
        if let data = input as? Data {
            values.append(.data(data))
        } else if let data = input as? NSData {
            values.append(.data(Data(referencing: data)))
        } else if let array = Self.elements(of: input), Self.holdsStrings(array) {
            var strings: [Data] = []
            let shape = Self.leadingShape(array)
            try Self.flattenStrings(array, path: [], shape: shape, into: &strings, input: index)
            values.append(.strings(strings, shape: shape))
        } else if let array = Self.elements(of: input) {
            var numbers: [ModelNumber] = []
            let shape = Self.leadingShape(array)
            try Self.flatten(array, path: [], shape: shape, into: &numbers, input: index)
            values.append(.numbers(numbers, shape: shape))
        } else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "Input \(index) has type \(type(of: input)); expected Data or an array of numbers.")
        }
    }

    /// The inputs added so far, in order.
    var snapshot: [ModelInputValue] {
        lock.lock(); defer { lock.unlock() }
        return values
    }

    // MARK: - Nested arrays

    private static func elements(of value: Any) -> [Any]? {
        if let array = value as? [Any] { return array }
        if let array = value as? NSArray { return Array(array) }
        return nil
    }

    /// The shape read along the first element at each depth: `[[1, 2], [3, 4], [5, 6]]` → `[3, 2]`.
    private static func leadingShape(_ array: [Any]) -> [Int] {
        var shape = [array.count]
        var current = array
        while let first = current.first, let nested = elements(of: first) {
            shape.append(nested.count)
            current = nested
        }
        return shape
    }

    /// Appends the numbers of `array` (reached through `path`) in row-major order,
    /// checking that every array at depth `path.count` has `shape[path.count]` elements
    /// and that only the last depth holds numbers.
    private static func flatten(
        _ array: [Any], path: [Int], shape: [Int], into numbers: inout [ModelNumber], input: Int
    ) throws {
        let depth = path.count
        guard array.count == shape[depth] else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "Input \(input) is a ragged array: the array at \(path) has \(array.count) elements, but the first array at that depth has \(shape[depth])."
            )
        }
        let holdsArrays = depth + 1 < shape.count
        for (i, element) in array.enumerated() {
            let elementPath = path + [i]
            if let nested = elements(of: element) {
                guard holdsArrays else { throw mixed(input, elementPath) }
                try flatten(nested, path: elementPath, shape: shape, into: &numbers, input: input)
            } else if let number = number(element) {
                guard !holdsArrays else { throw mixed(input, elementPath) }
                numbers.append(number)
            } else {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "Input \(input) has a non-numeric element of type \(type(of: element)) at \(elementPath); expected NSNumber or a Swift integer or floating-point number."
                )
            }
        }
    }

    /// Whether the first innermost element of `array` is a string (then all must be).
    private static func holdsStrings(_ array: [Any]) -> Bool {
        var current: Any = array
        while let nested = elements(of: current) {
            guard let first = nested.first else { return false }
            current = first
        }
        return current is String || current is NSString || current is Data
    }

    /// Appends the strings of `array` in row-major order, checking the shape as
    /// `flatten` does.
    private static func flattenStrings(
        _ array: [Any], path: [Int], shape: [Int], into strings: inout [Data], input: Int
    ) throws {
        let depth = path.count
        guard array.count == shape[depth] else {
            throw MachineLearningErrorCode.invalidArgument.error(
                "Input \(input) is a ragged array: the array at \(path) has \(array.count) elements, but the first array at that depth has \(shape[depth])."
            )
        }
        let holdsArrays = depth + 1 < shape.count
        for (i, element) in array.enumerated() {
            let elementPath = path + [i]
            if let nested = elements(of: element) {
                guard holdsArrays else { throw mixed(input, elementPath) }
                try flattenStrings(nested, path: elementPath, shape: shape, into: &strings, input: input)
            } else if !holdsArrays, let text = element as? String {
                strings.append(Data(text.utf8))
            } else if !holdsArrays, let bytes = element as? Data {
                strings.append(bytes)
            } else {
                throw MachineLearningErrorCode.invalidArgument.error(
                    "Input \(input) has an element of type \(type(of: element)) at \(elementPath) in an array of strings; expected String or Data."
                )
            }
        }
    }

    private static func mixed(_ input: Int, _ path: [Int]) -> NSError {
        MachineLearningErrorCode.invalidArgument.error(
            "Input \(input) is a ragged array: the element at \(path) is nested to a different depth than the first element."
        )
    }

    /// `value` as a number, or `nil` if it is not one.
    static func number(_ value: Any) -> ModelNumber? {
        if let n = value as? NSNumber { return number(n) }
        switch value {
        case let v as Int: return .signed(Int64(v))
        case let v as Int8: return .signed(Int64(v))
        case let v as Int16: return .signed(Int64(v))
        case let v as Int32: return .signed(Int64(v))
        case let v as Int64: return .signed(v)
        case let v as UInt: return .unsigned(UInt64(v))
        case let v as UInt8: return .unsigned(UInt64(v))
        case let v as UInt16: return .unsigned(UInt64(v))
        case let v as UInt32: return .unsigned(UInt64(v))
        case let v as UInt64: return .unsigned(v)
        case let v as Float: return .real(Double(v))
        case let v as Double: return .real(v)
        default: return nil
        }
    }

    /// An `NSNumber` as the kind of number it was made from (its Objective-C type code).
    static func number(_ n: NSNumber) -> ModelNumber {
        switch UInt8(bitPattern: n.objCType.pointee) {
        case UInt8(ascii: "f"), UInt8(ascii: "d"): return .real(n.doubleValue)
        case UInt8(ascii: "C"), UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "L"), UInt8(ascii: "Q"):
            return .unsigned(n.uint64Value)
        default: return .signed(n.int64Value)
        }
    }
}
