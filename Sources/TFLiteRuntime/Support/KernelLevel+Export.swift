// The kernel level is part of `EngineOptions`; users of the runtime see it without
// importing the microkernel module themselves.
@_exported import enum Microkernels.KernelLevel
