@testable import ReportDatabase
import Testing

/// A fold's merge of one visitor's lines from several batches, as `VisitorChanges.merge` merges
/// them one at a time: the earliest exposure decides the cell, the earlier batch on a tie; the
/// counts add up, held at their limits; the flags join. Lines in the staging table's COPY text.
struct VisitorFoldMergeTests {
    static func line(_ visitor: Int64, _ group: String, segment: Int, firstMs: Int64, views: Int64, selections: Int64,
                     flags: Int64, plays: Int64) -> String
    {
        let day = (firstMs >= 0 ? firstMs : firstMs - 86_399_999) / 86_400_000
        return "hero\t\(visitor)\t\(group)\t\(segment)\t\(day)\t\(firstMs)\t\(views)\t\(selections)\t\(flags)\t\(plays)\n"
    }

    @Test func theEarlierBatchKeepsTheCellOnATieAndTheCountsAddUpToTheirLimits() {
        let first = Self.line(7, "a", segment: 1, firstMs: 1_000, views: 4_294_967_000, selections: 65_000, flags: 1, plays: 2)
            + Self.line(8, "a", segment: 2, firstMs: 5_000, views: 1, selections: 0, flags: 0, plays: 0)
        let second = Self.line(7, "b", segment: 4, firstMs: 1_000, views: 1_000, selections: 1_000, flags: 4, plays: 3)
            + Self.line(8, "b\\tc", segment: 3, firstMs: 4_000, views: 2, selections: 1, flags: 2, plays: 1)
            + Self.line(9, "a", segment: 0, firstMs: -86_400_001, views: 1, selections: 0, flags: 0, plays: 0)
        let merged = Set(String(decoding: VisitorFold.combined([first, second]), as: UTF8.self).split(separator: "\n").map(String.init))
        #expect(merged == [
            // A tie on the first exposure: the first batch's cell; views and selections held at their limits.
            "hero\t7\ta\t1\t0\t1000\t4294967295\t65535\t5\t5",
            // An earlier exposure in the later batch moves the visitor (its group's COPY escape kept as written).
            "hero\t8\tb\\tc\t3\t0\t4000\t3\t1\t2\t1",
            "hero\t9\ta\t0\t-2\t-86400001\t1\t0\t0\t0",
        ])
    }

    @Test func aVisitorInTwoExperimentsKeepsALineForEachAndLinesMergeWhereverTheyLieInTheirBatches() {
        func line(_ experiment: String, _ visitor: Int64, views: Int64, firstMs: Int64) -> String {
            "\(experiment)\t\(visitor)\ta\t0\t0\t\(firstMs)\t\(views)\t0\t0\t0\n"
        }
        // Visitors 1 and -1 in both experiments, in a different order in each batch; one batch without its last newline.
        let first = line("hero", 1, views: 1, firstMs: 10) + line("rows", 1, views: 2, firstMs: 20) + line("hero", -1, views: 3, firstMs: 30)
        let second = line("hero", -1, views: 4, firstMs: 5) + line("rows", 1, views: 5, firstMs: 40) + line("hero", 1, views: 6, firstMs: 50)
        let third = String(line("rows", -1, views: 7, firstMs: 60).dropLast())
        let merged = String(decoding: VisitorFold.combined([first, second, third]), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(merged.count == 4)
        #expect(Set(merged) == [
            "hero\t1\ta\t0\t0\t10\t7\t0\t0\t0",
            "rows\t1\ta\t0\t0\t20\t7\t0\t0\t0",
            "hero\t-1\ta\t0\t0\t5\t7\t0\t0\t0",
            "rows\t-1\ta\t0\t0\t60\t7\t0\t0\t0",
        ])
    }
}
