import Foundation
import Testing
@testable import HomeApp

/// The display state a cached page is keyed by: the day and how many live streams started by then.
@Suite struct HomeItemsCacheTests {
    /// Every instant's count is the number of starts at or before it, whichever instant was asked
    /// before: later, earlier, on a start, between two equal starts.
    @Test func theCountOfStartedStreamsIsTheOneOfEachInstantAskedInAnyOrder() {
        let base = Date(timeIntervalSince1970: 1_800_000_000)
        let starts = [0, 60, 60, 3600, 90_000].map { base.addingTimeInterval(TimeInterval($0)) }
        let entry = HomeItemsCache.Entry(version: 1, items: [], starts: starts)
        let offsets: [TimeInterval] = [-10, 0, 30, 59.5, 60, 61, 3599, 3600, 120, -1, 90_000, 1e9, 30, -1e9, 60]
        for offset in offsets {
            let now = base.addingTimeInterval(offset)
            #expect(entry.started(at: now) == starts.filter { $0 <= now }.count, "\(offset)")
            #expect(entry.displayState(at: now).day == Int((now.timeIntervalSince1970 / 86_400).rounded(.down)))
        }
    }

    @Test func aCatalogueWithoutLiveStreamsHasNoneStarted() {
        let entry = HomeItemsCache.Entry(version: 1, items: [], starts: [])
        #expect(entry.started(at: Date()) == 0)
        #expect(entry.started(at: .distantFuture) == 0)
    }
}
