// Placeholder until the decoder lands: keeps the package building.
struct ModelDecoder {
    let bytes: ModelBytes
    let limits: ModelLimits
    func decode() throws(ModelError) -> Model {
        throw .malformed("decoder not implemented")
    }
}
