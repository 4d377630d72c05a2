import Testing
import TFLiteModel
@testable import TFLiteRuntime

/// Test-only FlexBuffers writer for a flat map of scalars, every slot 8 bytes wide:
/// key strings, the keys vector, then the map (keys offset, keys width, count, value
/// slots, one packed type byte per value), then the root (offset, type, width).
enum FlexMapWriter {
    enum Scalar { case int(Int64), float(Double), bool(Bool) }

    static func encode(_ entries: [(String, Scalar)]) -> [UInt8] {
        let sorted = entries.sorted { Array($0.0.utf8).lexicographicallyPrecedes(Array($1.0.utf8)) }
        var out: [UInt8] = []
        func pad() { while out.count % 8 != 0 { out.append(0) } }
        func put(_ v: UInt64) { for i in 0 ..< 8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
        var keyPositions: [Int] = []
        for (key, _) in sorted {
            keyPositions.append(out.count)
            out += Array(key.utf8) + [0]
        }
        pad()
        put(UInt64(sorted.count))
        let keysVector = out.count
        for k in keyPositions { put(UInt64(out.count - k)) }
        put(UInt64(out.count - keysVector)) // keys offset, relative to this field
        put(8) // keys byte width
        put(UInt64(sorted.count))
        let map = out.count
        var types: [UInt8] = []
        for (_, value) in sorted {
            switch value {
            case .int(let v): put(UInt64(bitPattern: v)); types.append(1 << 2 | 3)
            case .float(let v): put(v.bitPattern); types.append(3 << 2 | 3)
            case .bool(let v): put(v ? 1 : 0); types.append(26 << 2 | 3)
            }
        }
        out += types
        pad()
        put(UInt64(out.count - map))
        out += [9 << 2 | 3, 8] // map with 8-byte children; 8-byte root slot
        return out
    }
}

@Suite struct DetectionPostProcessTests {
    struct Case: CustomStringConvertible {
        var name: String
        var options: [UInt8]
        var boxes: [Float]
        var classes: [Float]
        var scores: [Float]
        var count: Int
        var description: String { name }
    }

    struct Result {
        var boxes: [Float]
        var classes: [Float]
        var scores: [Float]
        var count: Float
    }

    static func options(
        maxDetections: Int, classesPerDetection: Int = 1, perClass: Int? = nil, regular: Bool? = nil,
        scoreThreshold: Double = 0.1, iou: Double = 0.5, numClasses: Int,
        scales: (Double, Double, Double, Double) = (10, 10, 5, 5)
    ) -> [UInt8] {
        var entries: [(String, FlexMapWriter.Scalar)] = [
            ("max_detections", .int(Int64(maxDetections))),
            ("max_classes_per_detection", .int(Int64(classesPerDetection))),
            ("nms_score_threshold", .float(scoreThreshold)),
            ("nms_iou_threshold", .float(iou)),
            ("num_classes", .int(Int64(numClasses))),
            ("y_scale", .float(scales.0)), ("x_scale", .float(scales.1)),
            ("h_scale", .float(scales.2)), ("w_scale", .float(scales.3)),
        ]
        if let perClass { entries.append(("detections_per_class", .int(Int64(perClass)))) }
        if let regular { entries.append(("use_regular_nms", .bool(regular))) }
        return FlexMapWriter.encode(entries)
    }

    /// A graph with the post-process on three graph inputs; returns the engine, allocated.
    static func engine(
        options: [UInt8], anchors n: Int, columns: Int, _ type: ElementType = .float32,
        quantizations: [Quantization?] = [nil, nil, nil]
    ) throws -> (Engine, ModelBytes) {
        var g = GraphBuilder()
        let boxes = g.input([1, n, 4], type, quantization: quantizations[0])
        let scores = g.input([1, n, columns], type, quantization: quantizations[1])
        let anchors = g.input([n, 4], type, quantization: quantizations[2])
        let outs = [g.tensor([1], .float32), g.tensor([1], .float32), g.tensor([1], .float32), g.tensor([1], .float32)]
        let storage = g.customOp(
            "TFLite_Detection_PostProcess", inputs: [boxes, scores, anchors], outputs: outs, options: options)
        for o in outs { g.output(o) }
        let engine = try g.engine()
        try engine.allocate()
        return (engine, storage)
    }

    static func run<T>(
        options: [UInt8], boxes: [T], scores: [T], anchors: [T], columns: Int, _ type: ElementType = .float32,
        quantizations: [Quantization?] = [nil, nil, nil]
    ) throws -> Result {
        let (engine, storage) = try engine(
            options: options, anchors: anchors.count / 4, columns: columns, type, quantizations: quantizations)
        return try withExtendedLifetime(storage) {
            try engine.setInput(0, boxes)
            try engine.setInput(1, scores)
            try engine.setInput(2, anchors)
            try engine.invoke()
            return Result(
                boxes: try engine.output(0, as: Float.self), classes: try engine.output(1, as: Float.self),
                scores: try engine.output(2, as: Float.self), count: try engine.output(3, as: Float.self)[0])
        }
    }

    // Four anchors given as boxes through zero encodings (box = anchor's corners):
    // A0 [0,0,1,1]; A1 [0,0.1,1,1.1] (IoU with A0 = 0.9/1.1 ≈ 0.82); A2 [2,2,3,3] (disjoint);
    // A3 [0,0,1,1] (scores below the threshold).
    static let anchors: [Float] = [0.5, 0.5, 1, 1, 0.5, 0.6, 1, 1, 2.5, 2.5, 1, 1, 0.5, 0.5, 1, 1]
    static let zeroEncodings = [Float](repeating: 0, count: 16)
    // Columns: background, class 0, class 1. The background scores would win if not skipped.
    static let scores: [Float] = [
        0.9, 0.8, 0.1,
        0.0, 0.7, 0.95,
        0.99, 0.3, 0.6,
        0.0, 0.05, 0.02,
    ]
    // A1's x extent is computed in Float like the kernel's: 0.6 ∓ 0.5.
    static let boxA0: [Float] = [0, 0, 1, 1], boxA1: [Float] = [0, Float(0.6) - 0.5, 1, Float(0.6) + 0.5],
        boxA2: [Float] = [2, 2, 3, 3]
    static let none: [Float] = [0, 0, 0, 0]

    @Test func fastNMSSkipsBackgroundAndSuppressesOverlaps() throws {
        // Anchor scores (best class): A0 0.8 (c0), A1 0.95 (c1), A2 0.6 (c1); A3 is below 0.1.
        // A1 first, suppressing A0; then A2.
        let r = try Self.run(
            options: Self.options(maxDetections: 3, numClasses: 2), boxes: Self.zeroEncodings,
            scores: Self.scores, anchors: Self.anchors, columns: 3)
        #expect(r.count == 2)
        #expect(r.boxes == Self.boxA1 + Self.boxA2 + Self.none)
        #expect(r.classes == [1, 1, 0])
        #expect(r.scores == [0.95, 0.6, 0])
    }

    @Test func fastNMSWithTwoClassesPerDetection() throws {
        let r = try Self.run(
            options: Self.options(maxDetections: 3, classesPerDetection: 2, numClasses: 2), boxes: Self.zeroEncodings,
            scores: Self.scores, anchors: Self.anchors, columns: 3)
        #expect(r.count == 2)
        #expect(r.boxes == Self.boxA1 + Self.boxA1 + Self.boxA2 + Self.boxA2 + Self.none + Self.none)
        #expect(r.classes == [1, 0, 1, 0, 0, 0])
        #expect(r.scores == [0.95, 0.7, 0.6, 0.3, 0, 0])
    }

    @Test func fastNMSWithMoreClassesPerDetectionThanClasses() throws {
        // max_classes_per_detection 3 > 2 classes: each detection has 3 slots, the last one unused.
        let r = try Self.run(
            options: Self.options(maxDetections: 3, classesPerDetection: 3, numClasses: 2), boxes: Self.zeroEncodings,
            scores: Self.scores, anchors: Self.anchors, columns: 3)
        #expect(r.count == 2)
        #expect(
            r.boxes == Self.boxA1 + Self.boxA1 + Self.none + Self.boxA2 + Self.boxA2 + Self.none + Self.none + Self.none
                + Self.none)
        #expect(r.classes == [1, 0, 0, 1, 0, 0, 0, 0, 0])
        #expect(r.scores == [0.95, 0.7, 0, 0.6, 0.3, 0, 0, 0, 0])
    }

    @Test func regularNMSPerClassThenBestOverall() throws {
        // Class 0: A0 0.8, A1 0.7 (suppressed by A0), A2 0.3 → A0, A2.
        // Class 1: A1 0.95, A2 0.6, A0 0.1 (kept: >= threshold; suppressed by A1) → A1, A2.
        // Best 3 overall: A1/c1 0.95, A0/c0 0.8, A2/c1 0.6.
        let r = try Self.run(
            options: Self.options(maxDetections: 3, perClass: 2, regular: true, numClasses: 2),
            boxes: Self.zeroEncodings, scores: Self.scores, anchors: Self.anchors, columns: 3)
        #expect(r.count == 3)
        #expect(r.boxes == Self.boxA1 + Self.boxA0 + Self.boxA2)
        #expect(r.classes == [1, 0, 1])
        #expect(r.scores == [0.95, 0.8, 0.6])
    }

    @Test func regularNMSHonoursDetectionsPerClass() throws {
        // One per class: class 0 → A0 0.8, class 1 → A1 0.95; A2 never makes it.
        let r = try Self.run(
            options: Self.options(maxDetections: 3, perClass: 1, regular: true, numClasses: 2),
            boxes: Self.zeroEncodings, scores: Self.scores, anchors: Self.anchors, columns: 3)
        #expect(r.count == 2)
        #expect(r.classes == [1, 0, 0])
        #expect(r.scores == [0.95, 0.8, 0])
        #expect(r.boxes == Self.boxA1 + Self.boxA0 + Self.none)
    }

    /// Fast NMS with one class per detection takes each anchor's arg-max in one pass (split
    /// over the threads); with two, in selection passes. Both pick the first class on ties,
    /// keep a NaN first score (an anchor whose candidate is NaN never passes the threshold)
    /// and never pick a later NaN.
    @Test func fastNMSArgMaxOnTiesAndNaN() throws {
        let anchors: [Float] = [0.5, 0.5, 1, 1, 2.5, 2.5, 1, 1]
        let encodings = [Float](repeating: 0, count: 8)
        let scores: [Float] = [0.3, 0.7, 0.7, .nan, .nan, 0.9, 0.2, 0.1]
        let one = try Self.run(
            options: Self.options(maxDetections: 2, numClasses: 4), boxes: encodings, scores: scores,
            anchors: anchors, columns: 4)
        #expect(one.count == 1)
        #expect(one.classes == [1, 0])
        #expect(one.scores == [0.7, 0])
        let two = try Self.run(
            options: Self.options(maxDetections: 2, classesPerDetection: 2, numClasses: 4), boxes: encodings,
            scores: scores, anchors: anchors, columns: 4)
        #expect(two.count == 1)
        #expect(two.classes == [1, 2, 0, 0])
        #expect(two.scores == [0.7, 0.7, 0, 0])
    }

    @Test func tiesGoToTheLowerAnchorAndTheLowerClass() throws {
        // Three disjoint boxes, one class, no background column, equal scores.
        let anchors: [Float] = [0.5, 0.5, 1, 1, 2.5, 2.5, 1, 1, 4.5, 4.5, 1, 1]
        let encodings = [Float](repeating: 0, count: 12)
        let fast = try Self.run(
            options: Self.options(maxDetections: 2, numClasses: 1), boxes: encodings,
            scores: [0.5, 0.5, 0.5], anchors: anchors, columns: 1)
        #expect(fast.boxes == Self.boxA0 + Self.boxA2)
        // Regular, two classes: class 0's best (A1, 0.7) and class 1's best (A0, 0.7) tie;
        // only one is kept: class 0's, which entered the list first.
        let regular = try Self.run(
            options: Self.options(maxDetections: 1, perClass: 1, regular: true, numClasses: 2), boxes: encodings,
            scores: [0.1, 0.7, 0.7, 0.1, 0.2, 0.2], anchors: anchors, columns: 2)
        #expect(regular.count == 1)
        #expect(regular.classes == [0])
        #expect(regular.boxes == Self.boxA2)
    }

    @Test func iouMustExceedTheThresholdStrictly() throws {
        // A [0,0,1,1] and B [0,0,1,0.5]: IoU exactly 0.5.
        let anchors: [Float] = [0.5, 0.5, 1, 1, 0.5, 0.25, 1, 0.5]
        let encodings = [Float](repeating: 0, count: 8)
        let kept = try Self.run(
            options: Self.options(maxDetections: 2, iou: 0.5, numClasses: 1), boxes: encodings,
            scores: [0.9, 0.8], anchors: anchors, columns: 1)
        #expect(kept.count == 2)
        let suppressed = try Self.run(
            options: Self.options(maxDetections: 2, iou: 0.49, numClasses: 1), boxes: encodings,
            scores: [0.9, 0.8], anchors: anchors, columns: 1)
        #expect(suppressed.count == 1)
    }

    @Test func decodesCenterSizeEncodings() throws {
        // yc = 1/10·0.2 + 0.5 = 0.52, xc = -2/10·0.4 + 0.5 = 0.42,
        // half_h = 0.5·e^0.1·0.2 ≈ 0.110517, half_w = 0.5·e^0.2·0.4 ≈ 0.244281.
        let r = try Self.run(
            options: Self.options(maxDetections: 1, numClasses: 1), boxes: [1, -2, 0.5, 1] as [Float],
            scores: [0.9] as [Float], anchors: [0.5, 0.5, 0.2, 0.4] as [Float], columns: 1)
        let expected: [Float] = [0.4094829, 0.1757194, 0.6305171, 0.6642806]
        for (a, e) in zip(r.boxes, expected) { #expect(abs(a - e) < 1e-6) }
    }

    @Test func invertedBoxesFailTheInvoke() throws {
        let (engine, storage) = try Self.engine(
            options: Self.options(maxDetections: 1, numClasses: 1), anchors: 1, columns: 1)
        try withExtendedLifetime(storage) {
            try engine.setInput(0, [0, 0, 0, 0] as [Float])
            try engine.setInput(1, [0.9] as [Float])
            try engine.setInput(2, [0.5, 0.5, -1, 1] as [Float])
            #expect(
                throws: RuntimeError.invokeFailed(
                    index: 0, op: "CUSTOM:TFLite_Detection_PostProcess",
                    reason: "decoded box 0 has ymin > ymax or xmin > xmax")
            ) {
                try engine.invoke()
            }
        }
    }

    @Test func unusedSlotsAreZeroedOnEveryInvoke() throws {
        let (engine, storage) = try Self.engine(
            options: Self.options(maxDetections: 3, numClasses: 2), anchors: 4, columns: 3)
        try withExtendedLifetime(storage) {
            try engine.setInput(0, Self.zeroEncodings)
            try engine.setInput(2, Self.anchors)
            try engine.setInput(1, Self.scores)
            try engine.invoke()
            #expect(try engine.output(3, as: Float.self) == [2])
            // Without A2's scores only A1 survives; the slots A2 filled before must be zero again.
            var scores = Self.scores
            scores.replaceSubrange(6 ..< 9, with: [0, 0, 0])
            try engine.setInput(1, scores)
            try engine.invoke()
            #expect(try engine.output(3, as: Float.self) == [1])
            #expect(try engine.output(1, as: Float.self) == [1, 0, 0])
            #expect(try engine.output(2, as: Float.self) == [0.95, 0, 0])
            #expect(try engine.output(0, as: Float.self) == Self.boxA1 + Self.none + Self.none)
        }
    }

    @Test func optionsDefaultsAndValidation() throws {
        let parsed = try FlexMapWriter.encode([("num_classes", .int(3)), ("nms_iou_threshold", .float(0.6))])
            .withUnsafeBytes {
                try DetectionPostProcessOptions.parse($0)
            }
        #expect(parsed.detectionsPerClass == 100)
        #expect(parsed.useRegularNMS == false)
        #expect(parsed.maxDetections == 0)
        #expect(parsed.iouThreshold == 0.6)
        #expect(throws: KernelError.invalid("nms_iou_threshold (0.0) must be in (0, 1]")) {
            try parsed.with {
                $0.maxClassesPerDetection = 1; $0.iouThreshold = 0
            }.validate()
        }
        #expect(throws: KernelError.invalid("max_classes_per_detection (0) must be positive")) { try parsed.validate() }
        let malformed: [UInt8] = [1, 2, 3, 9 << 2 | 3, 200]
        #expect(throws: KernelError.self) {
            try malformed.withUnsafeBytes { try DetectionPostProcessOptions.parse($0) }
        }
    }

    @Test func shapesAreCheckedAtPrepare() throws {
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:TFLite_Detection_PostProcess",
                reason: "class predictions have 4 columns; num_classes 2 needs 2 or 3 (with background)")
        ) {
            try Self.engine(options: Self.options(maxDetections: 3, numClasses: 2), anchors: 4, columns: 4)
        }
        #expect(
            throws: RuntimeError.invalidOperator(
                index: 0, op: "CUSTOM:TFLite_Detection_PostProcess",
                reason: "nms_iou_threshold (0.0) must be in (0, 1]")
        ) {
            try Self.engine(options: Self.options(maxDetections: 3, iou: 0, numClasses: 2), anchors: 4, columns: 3)
        }
    }

    @Test func outputShapesFollowTheOptions() throws {
        let (engine, storage) = try Self.engine(
            options: Self.options(maxDetections: 5, classesPerDetection: 2, numClasses: 2), anchors: 4, columns: 3)
        withExtendedLifetime(storage) {
            #expect(engine.outputShape(0) == [1, 10, 4])
            #expect(engine.outputShape(1) == [1, 10])
            #expect(engine.outputShape(2) == [1, 10])
            #expect(engine.outputShape(3) == [1])
        }
    }

    // MARK: - LiteRT goldens

    static func expectMatches(_ r: Result, _ c: Case) {
        #expect(r.count == Float(c.count), "\(c.name)")
        #expect(r.classes == c.classes, "\(c.name)")
        #expect(r.scores == c.scores, "\(c.name)")
        #expect(r.boxes.count == c.boxes.count, "\(c.name)")
        for (i, (a, e)) in zip(r.boxes, c.boxes).enumerated() where abs(a - e) > 1e-6 {
            Issue.record("\(c.name): box value \(i) is \(a), expected \(e)")
            return
        }
    }

    @Test(arguments: Goldens.cases)
    func matchesLiteRT(_ c: Case) throws {
        let r = try Self.run(
            options: c.options, boxes: Goldens.boxEncodings, scores: Goldens.classPredictions,
            anchors: Goldens.anchors, columns: 4)
        Self.expectMatches(r, c)
    }

    @Test func matchesLiteRTWithUInt8Inputs() throws {
        let q: [Quantization?] = [
            Quantization(scales: [0.05], zeroPoints: [128]), Quantization(scales: [Float(1.0 / 255)], zeroPoints: [0]),
            Quantization(scales: [0.004], zeroPoints: [0]),
        ]
        let r = try Self.run(
            options: Goldens.quantized.options, boxes: Goldens.quantizedBoxEncodings,
            scores: Goldens.quantizedClassPredictions,
            anchors: Goldens.quantizedAnchors, columns: 4, .uint8, quantizations: q)
        Self.expectMatches(r, Goldens.quantized)
    }

    @Test func readsOptionsWrittenByPythonFlexBuffers() throws {
        let options = try Goldens.cases[3].options.withUnsafeBytes { try DetectionPostProcessOptions.parse($0) }
        #expect(
            options
                == DetectionPostProcessOptions(
                    maxDetections: 6, maxClassesPerDetection: 1, detectionsPerClass: 3, useRegularNMS: true,
                    scoreThreshold: 0.3, iouThreshold: 0.45, numClasses: 3,
                    yScale: 10, xScale: 10, hScale: 5, wScale: 5))
    }
}

extension DetectionPostProcessOptions {
    func with(_ change: (inout DetectionPostProcessOptions) -> Void) -> DetectionPostProcessOptions {
        var copy = self
        change(&copy)
        return copy
    }
}

/// From `scripts/fixtures/goldens_detection.py` (LiteRT 2.3.0, BUILTIN_REF): 24 anchors,
/// 3 classes plus background, score threshold 0.3, IoU threshold 0.45, scales 10/10/5/5.
extension DetectionPostProcessTests {
    enum Goldens {
        static let boxEncodings: [Float] = [
            0.3515583574771881, -1.8579673767089844, -3.4059648513793945, 0.44585859775543213, 1.3327058553695679,
            3.7043464183807373, -1.0023974180221558, 0.7352288961410522, -0.1737835854291916, -3.5526046752929688,
            0.5622092485427856, -0.4826367199420929, -1.9146161079406738, 2.531716823577881, -0.925605297088623,
            0.7033249735832214, -0.3981400430202484, -1.074810266494751, -0.2518249452114105, 1.1895941495895386,
            -1.0349323749542236, -2.477215051651001, 2.6945581436157227, 0.659046471118927, -1.4385565519332886,
            -0.13753558695316315, -2.3471598625183105, -0.09779177606105804, 1.2909456491470337, -2.897608757019043,
            1.3005540370941162, 1.2114607095718384, -0.4078044295310974, 0.1537162810564041, -0.5001523494720459,
            -0.6688660383224487, -2.7926833629608154, 2.4456045627593994, -1.007218837738037, 0.2021588534116745,
            -0.34177327156066895, 0.6831444501876831, 0.8506548404693604, -1.5318468809127808, 0.543436586856842,
            -0.4049641191959381, -1.3253021240234375, 1.9455419778823853, 1.7678426504135132, -1.3565946817398071,
            -0.45336005091667175, -1.5161482095718384, -1.7060669660568237, -1.473618507385254, 0.8320021629333496,
            -2.1248779296875, -2.19399356842041, 0.43139758706092834, -1.0794498920440674, 1.8438560962677002,
            -1.4412403106689453, -0.7293513417243958, -1.1634293794631958, -3.472271203994751, 0.5217678546905518,
            1.0428251028060913, 1.432684063911438, -0.2826783061027527, 1.0017486810684204, -0.23177340626716614,
            -0.14135076105594635, -1.202581524848938, -0.23685821890830994, -1.415125846862793, 0.8995057940483093,
            -1.0124832391738892, -1.568543791770935, -0.16162969172000885, -0.08826357871294022, -2.534661293029785,
            -1.6059688329696655, -0.8787555694580078, 0.5715907216072083, 0.7812160849571228, 1.1739972829818726,
            -0.39999714493751526, -1.2549583911895752, -2.160874843597412, 0.14797186851501465, -0.6281105875968933,
            0.6228005290031433, 1.4863969087600708, 2.9717395305633545, -1.3258898258209229, 0.830268383026123,
            -2.491894245147705,
        ]
        static let classPredictions: [Float] = [
            0.9465528130531311, 0.10505525767803192, 0.6344533562660217, 0.47439318895339966, 0.8223580121994019,
            0.21641044318675995, 0.9412664175033569, 0.7835732698440552, 0.771538496017456, 0.8711984753608704,
            0.2033071666955948, 0.24251540005207062, 0.0944271981716156, 0.6287482380867004, 0.9630658626556396,
            0.18492276966571808, 0.20498108863830566, 0.4968751072883606, 0.9710884690284729, 0.6279523968696594,
            0.7394524812698364, 0.5463132858276367, 0.7565679550170898, 0.61220383644104, 0.7791090607643127,
            0.28564539551734924, 0.875005304813385, 0.7490755319595337, 0.2998262643814087, 0.2687782347202301,
            0.836678683757782, 0.42720434069633484, 0.4991088807582855, 0.8792490363121033, 0.4106445908546448,
            0.5543885231018066, 0.7000296115875244, 0.37235283851623535, 0.2919566035270691, 0.7229552865028381,
            0.6909432411193848, 0.4962009787559509, 0.6907527446746826, 0.6757640242576599, 0.5752865076065063,
            0.820220410823822, 0.7599485516548157, 0.7229884266853333, 0.8935328125953674, 0.00043404882308095694,
            0.8110309839248657, 0.16684748232364655, 0.07401193678379059, 0.12515787780284882, 0.005104778800159693,
            0.09482838213443756, 0.849030613899231, 0.6055201888084412, 0.774212658405304, 0.4200795590877533,
            0.6658182144165039, 0.6963513493537903, 0.20222587883472443, 0.03735746443271637, 0.10126310586929321,
            0.3608553409576416, 0.25340721011161804, 0.7993606925010681, 0.8723707795143127, 0.14612440764904022,
            0.9426634907722473, 0.9443354606628418, 0.9306861758232117, 0.4333215355873108, 0.4262833595275879,
            0.3698773980140686, 0.9005881547927856, 0.04876677319407463, 0.4215207099914551, 0.9358711242675781,
            0.7380297183990479, 0.8112289905548096, 0.8379935622215271, 0.2766861021518707, 0.581015944480896,
            0.26395389437675476, 0.4510371685028076, 0.38203033804893494, 0.023801429197192192, 0.9237338304519653,
            0.010842178016901016, 0.2987573742866516, 0.9347826242446899, 0.9969664812088013, 0.6715204119682312,
            0.41879668831825256,
        ]
        static let anchors: [Float] = [
            0.3680455684661865, 0.476688027381897, 0.4952358901500702, 0.28697657585144043, 0.2730318009853363,
            0.5135650038719177, 0.33391648530960083, 0.29117244482040405, 0.44550105929374695, 0.24298372864723206,
            0.21196968853473663, 0.2733599543571472, 0.2593800127506256, 0.7917730212211609, 0.29810038208961487,
            0.37255123257637024, 0.6164407134056091, 0.46921306848526, 0.22086942195892334, 0.4792379140853882,
            0.5841060876846313, 0.3622933030128479, 0.2596469521522522, 0.3588218092918396, 0.3811243772506714,
            0.2440052479505539, 0.30687424540519714, 0.30781522393226624, 0.23155134916305542, 0.6844850778579712,
            0.4733428359031677, 0.4667707085609436, 0.6879832148551941, 0.20298296213150024, 0.3831208348274231,
            0.2839253842830658, 0.3980332016944885, 0.2534521222114563, 0.24643930792808533, 0.3396040201187134,
            0.4807681441307068, 0.57061368227005, 0.25091278553009033, 0.3491138517856598, 0.5306288599967957,
            0.2804371118545532, 0.2211865931749344, 0.20503495633602142, 0.6214656829833984, 0.5677816271781921,
            0.3594528138637543, 0.317733496427536, 0.480455219745636, 0.3782762885093689, 0.4989143908023834,
            0.31235796213150024, 0.7510363459587097, 0.25006380677223206, 0.35978275537490845, 0.3168979287147522,
            0.2868579626083374, 0.4271424412727356, 0.43210282921791077, 0.3132627010345459, 0.35553431510925293,
            0.569725751876831, 0.27712613344192505, 0.337117075920105, 0.616732656955719, 0.6223365664482117,
            0.4410105347633362, 0.3566082715988159, 0.6643316149711609, 0.30514177680015564, 0.4036325514316559,
            0.3806478977203369, 0.6477883458137512, 0.3476293385028839, 0.27059948444366455, 0.34450164437294006,
            0.5216014385223389, 0.3326987326145172, 0.31670188903808594, 0.43908238410949707, 0.6873047947883606,
            0.26473668217658997, 0.2807041108608246, 0.44394049048423767, 0.45850270986557007, 0.5802311301231384,
            0.30730339884757996, 0.2994239330291748, 0.6184539198875427, 0.25722143054008484, 0.47589048743247986,
            0.4610220193862915,
        ]
        static let cases: [Case] = [
            Case(
                name: "fast",
                options: [
                    110, 109, 115, 95, 115, 99, 111, 114, 101, 95, 116, 104, 114, 101, 115, 104, 111, 108, 100, 0, 110,
                    109, 115, 95, 105, 111, 117, 95, 116, 104, 114, 101, 115, 104, 111, 108, 100, 0, 110, 117, 109, 95,
                    99, 108, 97, 115, 115, 101, 115, 0, 121, 95, 115, 99, 97, 108, 101, 0, 120, 95, 115, 99, 97, 108,
                    101, 0, 104, 95, 115, 99, 97, 108, 101, 0, 119, 95, 115, 99, 97, 108, 101, 0, 109, 97, 120, 95, 100,
                    101, 116, 101, 99, 116, 105, 111, 110, 115, 0, 109, 97, 120, 95, 99, 108, 97, 115, 115, 101, 115,
                    95, 112, 101, 114, 95, 100, 101, 116, 101, 99, 116, 105, 111, 110, 0, 117, 115, 101, 95, 114, 101,
                    103, 117, 108, 97, 114, 95, 110, 109, 115, 0, 10, 74, 44, 60, 123, 144, 107, 23, 73, 90, 99, 0, 0,
                    12, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 64,
                    1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 205, 204, 204, 204, 204, 204, 220, 63, 51, 51, 51,
                    51, 51, 51, 211, 63, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 64, 0, 0,
                    0, 0, 0, 0, 36, 64, 0, 0, 0, 0, 0, 0, 36, 64, 15, 7, 7, 15, 15, 7, 107, 15, 15, 15, 90, 39, 1,
                ],
                boxes: [
                    0.4789493680000305, 0.05605615675449371, 1.0408029556274414, 0.33613383769989014,
                    0.5026366114616394, 0.11372196674346924, 0.7126573920249939, 0.7216861844062805, 0.0784439742565155,
                    0.6716819405555725, 0.3261664807796478, 1.1005029678344727, 0.44655200839042664, 0.4738847017288208,
                    0.8752696514129639, 0.7542579174041748, 0.18090473115444183, 0.45277729630470276,
                    0.4541613459587097, 0.7900735139846802,
                ],
                classes: [0.0, 1.0, 1.0, 2.0, 1.0],
                scores: [
                    0.9969664812088013, 0.9710884690284729, 0.9630658626556396, 0.9443354606628418, 0.9412664175033569,
                ],
                count: 5),
            Case(
                name: "fastTwoClasses",
                options: [
                    110, 109, 115, 95, 115, 99, 111, 114, 101, 95, 116, 104, 114, 101, 115, 104, 111, 108, 100, 0, 110,
                    109, 115, 95, 105, 111, 117, 95, 116, 104, 114, 101, 115, 104, 111, 108, 100, 0, 110, 117, 109, 95,
                    99, 108, 97, 115, 115, 101, 115, 0, 121, 95, 115, 99, 97, 108, 101, 0, 120, 95, 115, 99, 97, 108,
                    101, 0, 104, 95, 115, 99, 97, 108, 101, 0, 119, 95, 115, 99, 97, 108, 101, 0, 109, 97, 120, 95, 100,
                    101, 116, 101, 99, 116, 105, 111, 110, 115, 0, 109, 97, 120, 95, 99, 108, 97, 115, 115, 101, 115,
                    95, 112, 101, 114, 95, 100, 101, 116, 101, 99, 116, 105, 111, 110, 0, 117, 115, 101, 95, 114, 101,
                    103, 117, 108, 97, 114, 95, 110, 109, 115, 0, 10, 74, 44, 60, 123, 144, 107, 23, 73, 90, 99, 0, 0,
                    12, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 64,
                    2, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 205, 204, 204, 204, 204, 204, 220, 63, 51, 51, 51,
                    51, 51, 51, 211, 63, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 64, 0, 0,
                    0, 0, 0, 0, 36, 64, 0, 0, 0, 0, 0, 0, 36, 64, 15, 7, 7, 15, 15, 7, 107, 15, 15, 15, 90, 39, 1,
                ],
                boxes: [
                    0.4789493680000305, 0.05605615675449371, 1.0408029556274414, 0.33613383769989014,
                    0.4789493680000305, 0.05605615675449371, 1.0408029556274414, 0.33613383769989014,
                    0.5026366114616394, 0.11372196674346924, 0.7126573920249939, 0.7216861844062805, 0.5026366114616394,
                    0.11372196674346924, 0.7126573920249939, 0.7216861844062805, 0.0784439742565155, 0.6716819405555725,
                    0.3261664807796478, 1.1005029678344727, 0.0784439742565155, 0.6716819405555725, 0.3261664807796478,
                    1.1005029678344727, 0.44655200839042664, 0.4738847017288208, 0.8752696514129639, 0.7542579174041748,
                    0.44655200839042664, 0.4738847017288208, 0.8752696514129639, 0.7542579174041748,
                ],
                classes: [0.0, 1.0, 1.0, 2.0, 1.0, 0.0, 2.0, 1.0],
                scores: [
                    0.9969664812088013, 0.6715204119682312, 0.9710884690284729, 0.6279523968696594, 0.9630658626556396,
                    0.6287482380867004, 0.9443354606628418, 0.9426634907722473,
                ],
                count: 4),
            Case(
                name: "fastMoreClassesThanExist",
                options: [
                    110, 109, 115, 95, 115, 99, 111, 114, 101, 95, 116, 104, 114, 101, 115, 104, 111, 108, 100, 0, 110,
                    109, 115, 95, 105, 111, 117, 95, 116, 104, 114, 101, 115, 104, 111, 108, 100, 0, 110, 117, 109, 95,
                    99, 108, 97, 115, 115, 101, 115, 0, 121, 95, 115, 99, 97, 108, 101, 0, 120, 95, 115, 99, 97, 108,
                    101, 0, 104, 95, 115, 99, 97, 108, 101, 0, 119, 95, 115, 99, 97, 108, 101, 0, 109, 97, 120, 95, 100,
                    101, 116, 101, 99, 116, 105, 111, 110, 115, 0, 109, 97, 120, 95, 99, 108, 97, 115, 115, 101, 115,
                    95, 112, 101, 114, 95, 100, 101, 116, 101, 99, 116, 105, 111, 110, 0, 117, 115, 101, 95, 114, 101,
                    103, 117, 108, 97, 114, 95, 110, 109, 115, 0, 10, 74, 44, 60, 123, 144, 107, 23, 73, 90, 99, 0, 0,
                    12, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 64,
                    4, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 205, 204, 204, 204, 204, 204, 220, 63, 51, 51, 51,
                    51, 51, 51, 211, 63, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 64, 0, 0,
                    0, 0, 0, 0, 36, 64, 0, 0, 0, 0, 0, 0, 36, 64, 15, 7, 7, 15, 15, 7, 107, 15, 15, 15, 90, 39, 1,
                ],
                boxes: [
                    0.4789493680000305, 0.05605615675449371, 1.0408029556274414, 0.33613383769989014,
                    0.4789493680000305, 0.05605615675449371, 1.0408029556274414, 0.33613383769989014,
                    0.4789493680000305, 0.05605615675449371, 1.0408029556274414, 0.33613383769989014, 0.0, 0.0, 0.0,
                    0.0, 0.5026366114616394, 0.11372196674346924, 0.7126573920249939, 0.7216861844062805,
                    0.5026366114616394, 0.11372196674346924, 0.7126573920249939, 0.7216861844062805, 0.5026366114616394,
                    0.11372196674346924, 0.7126573920249939, 0.7216861844062805, 0.0, 0.0, 0.0, 0.0, 0.0784439742565155,
                    0.6716819405555725, 0.3261664807796478, 1.1005029678344727, 0.0784439742565155, 0.6716819405555725,
                    0.3261664807796478, 1.1005029678344727, 0.0784439742565155, 0.6716819405555725, 0.3261664807796478,
                    1.1005029678344727, 0.0, 0.0, 0.0, 0.0,
                ],
                classes: [0.0, 1.0, 2.0, 0.0, 1.0, 2.0, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0],
                scores: [
                    0.9969664812088013, 0.6715204119682312, 0.41879668831825256, 0.0, 0.9710884690284729,
                    0.6279523968696594, 0.4968751072883606, 0.0, 0.9630658626556396, 0.6287482380867004,
                    0.18492276966571808, 0.0,
                ],
                count: 3),
            Case(
                name: "regular",
                options: [
                    110, 109, 115, 95, 115, 99, 111, 114, 101, 95, 116, 104, 114, 101, 115, 104, 111, 108, 100, 0, 110,
                    109, 115, 95, 105, 111, 117, 95, 116, 104, 114, 101, 115, 104, 111, 108, 100, 0, 110, 117, 109, 95,
                    99, 108, 97, 115, 115, 101, 115, 0, 121, 95, 115, 99, 97, 108, 101, 0, 120, 95, 115, 99, 97, 108,
                    101, 0, 104, 95, 115, 99, 97, 108, 101, 0, 119, 95, 115, 99, 97, 108, 101, 0, 109, 97, 120, 95, 100,
                    101, 116, 101, 99, 116, 105, 111, 110, 115, 0, 109, 97, 120, 95, 99, 108, 97, 115, 115, 101, 115,
                    95, 112, 101, 114, 95, 100, 101, 116, 101, 99, 116, 105, 111, 110, 0, 100, 101, 116, 101, 99, 116,
                    105, 111, 110, 115, 95, 112, 101, 114, 95, 99, 108, 97, 115, 115, 0, 117, 115, 101, 95, 114, 101,
                    103, 117, 108, 97, 114, 95, 110, 109, 115, 0, 11, 38, 96, 66, 82, 145, 166, 129, 24, 95, 112, 121,
                    0, 0, 0, 0, 15, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 11, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 64, 1, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 0, 0, 0, 0, 205, 204, 204,
                    204, 204, 204, 220, 63, 51, 51, 51, 51, 51, 51, 211, 63, 3, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0,
                    0, 0, 0, 0, 0, 0, 0, 0, 20, 64, 0, 0, 0, 0, 0, 0, 36, 64, 0, 0, 0, 0, 0, 0, 36, 64, 7, 15, 7, 7, 15,
                    15, 7, 107, 15, 15, 15, 99, 39, 1,
                ],
                boxes: [
                    0.4789493680000305, 0.05605615675449371, 1.0408029556274414, 0.33613383769989014,
                    0.5026366114616394, 0.11372196674346924, 0.7126573920249939, 0.7216861844062805, 0.0784439742565155,
                    0.6716819405555725, 0.3261664807796478, 1.1005029678344727, 0.44655200839042664, 0.4738847017288208,
                    0.8752696514129639, 0.7542579174041748, 0.44655200839042664, 0.4738847017288208, 0.8752696514129639,
                    0.7542579174041748, 0.4724113345146179, 0.23830750584602356, 0.738275945186615, 0.4458148181438446,
                ],
                classes: [0.0, 1.0, 1.0, 2.0, 1.0, 2.0],
                scores: [
                    0.9969664812088013, 0.9710884690284729, 0.9630658626556396, 0.9443354606628418, 0.9426634907722473,
                    0.9358711242675781,
                ],
                count: 6),
        ]
        static let quantizedBoxEncodings: [UInt8] = [
            135, 91, 60, 137, 155, 202, 108, 143, 125, 57, 139, 118, 90, 179, 109, 142, 120, 107, 123, 152, 107, 78,
            182, 141, 99, 125, 81, 126, 154, 70, 154, 152, 120, 131, 118, 115, 72, 177, 108, 132, 121, 142, 145, 97,
            139, 120, 101, 167, 163, 101, 119, 98, 94, 99, 145, 86, 84, 137, 106, 165, 99, 113, 105, 59, 138, 149, 157,
            122, 148, 123, 125, 104, 123, 100, 146, 108, 97, 125, 126, 77, 96, 110, 139, 144, 151, 120, 103, 85, 131,
            115, 140, 158, 187, 101, 145, 78,
        ]
        static let quantizedClassPredictions: [UInt8] = [
            241, 27, 162, 121, 210, 55, 240, 200, 197, 222, 52, 62, 24, 160, 246, 47, 52, 127, 248, 160, 189, 139, 193,
            156, 199, 73, 223, 191, 76, 69, 213, 109, 127, 224, 105, 141, 179, 95, 74, 184, 176, 127, 176, 172, 147,
            209, 194, 184, 228, 0, 207, 43, 19, 32, 1, 24, 217, 154, 197, 107, 170, 178, 52, 10, 26, 92, 65, 204, 222,
            37, 240, 241, 237, 110, 109, 94, 230, 12, 107, 239, 188, 207, 214, 71, 148, 67, 115, 97, 6, 236, 3, 76, 238,
            254, 171, 107,
        ]
        static let quantizedAnchors: [UInt8] = [
            92, 119, 124, 72, 68, 128, 83, 73, 111, 61, 53, 68, 65, 198, 75, 93, 154, 117, 55, 120, 146, 91, 65, 90, 95,
            61, 77, 77, 58, 171, 118, 117, 172, 51, 96, 71, 100, 63, 62, 85, 120, 143, 63, 87, 133, 70, 55, 51, 155,
            142, 90, 79, 120, 95, 125, 78, 188, 63, 90, 79, 72, 107, 108, 78, 89, 142, 69, 84, 154, 156, 110, 89, 166,
            76, 101, 95, 162, 87, 68, 86, 130, 83, 79, 110, 172, 66, 70, 111, 115, 145, 77, 75, 155, 64, 119, 115,
        ]
        static let quantized = Case(
            name: "uint8Regular",
            options: [
                109, 97, 120, 95, 100, 101, 116, 101, 99, 116, 105, 111, 110, 115, 0, 109, 97, 120, 95, 99, 108, 97,
                115, 115, 101, 115, 95, 112, 101, 114, 95, 100, 101, 116, 101, 99, 116, 105, 111, 110, 0, 110, 109, 115,
                95, 115, 99, 111, 114, 101, 95, 116, 104, 114, 101, 115, 104, 111, 108, 100, 0, 110, 109, 115, 95, 105,
                111, 117, 95, 116, 104, 114, 101, 115, 104, 111, 108, 100, 0, 110, 117, 109, 95, 99, 108, 97, 115, 115,
                101, 115, 0, 121, 95, 115, 99, 97, 108, 101, 0, 120, 95, 115, 99, 97, 108, 101, 0, 104, 95, 115, 99, 97,
                108, 101, 0, 119, 95, 115, 99, 97, 108, 101, 0, 117, 115, 101, 95, 114, 101, 103, 117, 108, 97, 114, 95,
                110, 109, 115, 0, 10, 33, 126, 142, 82, 103, 66, 23, 32, 49, 58, 0, 0, 12, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0,
                0, 0, 0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 64, 1, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0,
                0, 0, 0, 205, 204, 204, 204, 204, 204, 220, 63, 51, 51, 51, 51, 51, 51, 211, 63, 3, 0, 0, 0, 0, 0, 0, 0,
                1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 20, 64, 0, 0, 0, 0, 0, 0, 36, 64, 0, 0, 0, 0, 0, 0, 36, 64,
                15, 7, 7, 15, 15, 7, 107, 15, 15, 15, 90, 39, 1,
            ],
            boxes: [
                0.4783174693584442, 0.054397955536842346, 1.0425225496292114, 0.33340203762054443, 0.5025647878646851,
                0.11250019073486328, 0.7118352651596069, 0.7226998209953308, 0.07895614951848984, 0.672909140586853,
                0.32704389095306396, 1.1008110046386719, 0.44650205969810486, 0.4750802516937256, 0.8734980821609497,
                0.755119800567627, 0.18091070652008057, 0.45041224360466003, 0.45272934436798096, 0.7896678447723389,
            ],
            classes: [0.0, 1.0, 1.0, 2.0, 1.0],
            scores: [
                0.9960784912109375, 0.9725490808486938, 0.9647059440612793, 0.9450981020927429, 0.9411765336990356,
            ],
            count: 5)
    }
}
