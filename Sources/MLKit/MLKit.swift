// MLKit
