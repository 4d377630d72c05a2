import TFLiteModel

/// The decoded FlexBuffers `custom_options` of a custom operator, as JSON.
///
/// Returns nil until the FlexBuffers reader in `TFLiteFormat` is wired in here; callers
/// then show only the byte count. This is the single place that decoding plugs in:
/// `inspect` prints the result in its operator table and in `--json` output.
func customOptionsJSON(_ options: ByteView) -> JSONValue? {
    nil
}
