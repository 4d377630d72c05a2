// TFLiteFormat
