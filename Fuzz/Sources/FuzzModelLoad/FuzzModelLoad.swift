import TFLiteFuzzing

/// libFuzzer entry point: runs one input through `FuzzEntryPoints.modelLoad`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    _ = FuzzEntryPoints.modelLoad(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
