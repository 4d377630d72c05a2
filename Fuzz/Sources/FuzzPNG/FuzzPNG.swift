import TFLiteFuzzing

/// libFuzzer entry point: runs one input through `FuzzEntryPoints.png`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.png(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
