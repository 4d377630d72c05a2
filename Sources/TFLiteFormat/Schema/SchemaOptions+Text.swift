// Options tables of the text, hashing and lookup operators (in the `builtin_options`
// union). Enum fields are returned as raw codes; absent fields take the schema defaults.

extension Schema {
    /// `LSHProjectionOptions`: type (LSHProjectionType: UNKNOWN 0, SPARSE 1, DENSE 2).
    package static func lshProjectionType(_ t: FlatBufferTable) throws(FlatBufferError) -> Int8 {
        try t.scalar(0, "type", default: 0)
    }

    /// `SkipGramOptions`: ngram_size, max_skip_size, include_all_ngrams.
    package static func skipGram(_ t: FlatBufferTable) throws(FlatBufferError) -> (
        ngramSize: Int32, maxSkipSize: Int32, includeAllNgrams: Bool
    ) {
        (
            try t.scalar(0, "ngram_size", default: 0), try t.scalar(1, "max_skip_size", default: 0),
            try t.bool(2, "include_all_ngrams")
        )
    }

    /// `HashtableOptions`: table_id, key_dtype and value_dtype (TensorType codes).
    package static func hashtable(_ t: FlatBufferTable) throws(FlatBufferError) -> (
        tableID: Int32, keyType: Int8, valueType: Int8
    ) {
        (
            try t.scalar(0, "table_id", default: 0), try t.scalar(1, "key_dtype", default: 0),
            try t.scalar(2, "value_dtype", default: 0)
        )
    }
}

extension Schema.BuiltinOptionsType {
    package static let lshProjection: UInt8 = 4
    package static let skipGram: UInt8 = 18
    package static let hashtable: UInt8 = 107
}
