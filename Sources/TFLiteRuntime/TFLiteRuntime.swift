// TFLiteRuntime
