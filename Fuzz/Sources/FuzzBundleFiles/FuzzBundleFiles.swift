import TFLiteFuzzing

/// libFuzzer entry point: runs one input through `FuzzEntryPoints.bundleFiles`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.bundleFiles(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
