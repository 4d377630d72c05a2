import Testing
import SeededRandom
@testable import TFLiteRuntime

@Suite struct ArenaPlannerTests {
    @Test func disjointLifetimesShareMemory() throws {
        let plan = try #require(
            ArenaPlanner.plan([
                .init(size: 100, first: 0, last: 0),
                .init(size: 100, first: 1, last: 1),
            ]))
        #expect(plan.offsets == [0, 0])
        #expect(plan.size == 128)
    }

    @Test func overlappingLifetimesDoNot() throws {
        let plan = try #require(
            ArenaPlanner.plan([
                .init(size: 64, first: 0, last: 1),
                .init(size: 128, first: 1, last: 2),
            ]))
        #expect(plan.offsets == [128, 0])
        #expect(plan.size == 192)
    }

    @Test func bestFitPicksTheSmallestGap() throws {
        // A [0,3] big, B [0,0] fills a slot later freed; C [2,2] should take the gap left by B.
        let plan = try #require(
            ArenaPlanner.plan([
                .init(size: 256, first: 0, last: 3),
                .init(size: 128, first: 0, last: 0),
                .init(size: 64, first: 1, last: 3),
                .init(size: 100, first: 2, last: 2),
            ]))
        #expect(plan.offsets[0] == 0)
        #expect(plan.offsets[1] == 256)
        #expect(plan.offsets[2] == 384)
        #expect(plan.offsets[3] == 256)
        #expect(plan.size == 448)
    }

    @Test func everyPlanIsValidOnRandomRequests() throws {
        var rng = SplitMix64(seed: 7)
        for _ in 0 ..< 200 {
            let n = Int(rng.next() % 20) + 1
            var requests: [ArenaPlanner.Request] = []
            for _ in 0 ..< n {
                let first = Int(rng.next() % 10)
                let last = first + Int(rng.next() % 5)
                requests.append(.init(size: Int(rng.next() % 1000), first: first, last: last))
            }
            let plan = try #require(ArenaPlanner.plan(requests))
            for i in 0 ..< n {
                #expect(plan.offsets[i] % 64 == 0)
                #expect(plan.offsets[i] + requests[i].size <= plan.size)
                for j in 0 ..< i where requests[i].first <= requests[j].last && requests[j].first <= requests[i].last {
                    let a = plan.offsets[i] ..< plan.offsets[i] + requests[i].size
                    let b = plan.offsets[j] ..< plan.offsets[j] + requests[j].size
                    #expect(!a.overlaps(b), "requests \(i) and \(j) overlap in time and memory")
                }
            }
        }
    }
}

/// Visible to every file of this test target.
typealias SplitMix64 = SeededRandom.SplitMix64
