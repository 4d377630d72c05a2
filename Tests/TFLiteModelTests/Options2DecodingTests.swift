import Foundation
import Testing
@testable import TFLiteModel

/// The `builtin_options_2` union and the CONV_3D / random options, decoded from the
/// conformance corpus's schema-written models (scripts/fixtures/conformance/cases_more_ops.py
/// states the values each was written with).
@Suite struct Options2DecodingTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/conformance")

    func op(_ path: String, _ code: BuiltinOperator) throws -> Operator {
        let model = try Model(contentsOfFile: Self.corpus.appendingPathComponent("\(path)/model.tflite").path)
        return try #require(model.mainSubgraph.operators.first { $0.code.builtin == code })
    }

    @Test func stablehloOptionsDecode() throws {
        let pad = try op("STABLEHLO_PAD/f32_121_200", .stablehloPad)
        #expect(pad.options2 == .stablehloPad(low: [1, 2], high: [2, 0], interior: [1, 0]))
        let gather = try op("STABLEHLO_GATHER/i8_windows_clamped", .stablehloGather)
        #expect(
            gather.options2
                == .stablehloGather(
                    StablehloGatherOptions(
                        offsetDims: [1, 2], collapsedSliceDims: [], startIndexMap: [0, 1], indexVectorDim: 1,
                        sliceSizes: [2, 3])))
        let rng = try op("STABLEHLO_RNG_BIT_GENERATOR/threefry_u32", .stablehloRngBitGenerator)
        #expect(rng.options2 == .stablehloRngBitGenerator(algorithm: 2))
        #expect(try op("REDUCE_WINDOW/b_any_2x3", .reduceWindow).options2 == .reduceWindow(function: 6))
        #expect(try op("DILATE/f32_2x2", .dilate).options2 == .empty(typeID: 18))
        #expect(try op("STABLEHLO_ADD/f32_basic", .stablehloAdd).options2 == BuiltinOptions2.none)
    }

    /// The tables that name subgraphs (cases_stablehlo_calls.py wrote these models).
    @Test func stablehloCallOptionsDecode() throws {
        let composite = try op("STABLEHLO_COMPOSITE/i32_two_outputs", .stablehloComposite)
        #expect(composite.options2 == .stablehloComposite(name: "odml.diff_prod", decompositionSubgraph: 1, version: 2))
        let branches = try op("STABLEHLO_CASE/f32_3way_index0", .stablehloCase)
        #expect(branches.options2 == .stablehloCase(branchSubgraphs: [1, 2, 3]))
        let window = try op("STABLEHLO_REDUCE_WINDOW/f32_min_w2x3_d2x2_pm1x0x2xm1", .stablehloReduceWindow)
        #expect(
            window.options2
                == .stablehloReduceWindow(
                    StablehloReduceWindowOptions(
                        windowDimensions: [2, 3], windowStrides: [1, 1], baseDilations: [1, 1],
                        windowDilations: [2, 2], padding: [-1, 0, 2, -1], bodySubgraph: 1)))
        let scatter = try op("STABLEHLO_SCATTER/f32_2d_batch_replace", .stablehloScatter)
        #expect(
            scatter.options2
                == .stablehloScatter(
                    StablehloScatterOptions(
                        updateWindowDims: [2], insertedWindowDims: [0, 1], scatterDimsToOperandDims: [1, 0],
                        indexVectorDim: 2, updateComputationSubgraph: 1)))
        let hinted = try op("STABLEHLO_SCATTER/f32_rows_replace", .stablehloScatter)
        guard case .stablehloScatter(let o) = hinted.options2 else {
            Issue.record("STABLEHLO_SCATTER options are \(hinted.options2)")
            return
        }
        #expect(o.indicesAreSorted && o.uniqueIndices)
        #expect(hinted.subgraphCalls == [SubgraphCall(role: "update", subgraph: 1)])
    }

    @Test func conv3DAndRandomOptionsDecode() throws {
        let conv = try op("CONV_3D/f32_s2_same_relu6_nobias", .conv3D)
        #expect(
            conv.options
                == .conv3D(
                    Conv3DOptions(
                        padding: .same, strideDepth: 2, strideHeight: 1, strideWidth: 2, activation: .relu6)))
        let dilated = try op("CONV_3D/f32_dil2_same_batch2", .conv3D)
        guard case .conv3D(let o) = dilated.options else {
            Issue.record("CONV_3D options are \(dilated.options)")
            return
        }
        #expect((o.dilationDepth, o.dilationHeight, o.dilationWidth) == (2, 1, 2))
        #expect(try op("RANDOM_UNIFORM/f32_seeds_7_13", .randomUniform).options == .random(seed: 7, seed2: 13))
        #expect(try op("MULTINOMIAL/i32_seed_only", .multinomial).options == .random(seed: 5, seed2: 0))
    }
}
