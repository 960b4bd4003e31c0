import Foundation
@testable import HomeApp
import Reporting
import Testing

/// Viewing activity and its index.
@Suite struct ViewingActivityTests {
    static func event(_ name: ReportEvent.Name, _ item: String, visitor: String = "v", _ properties: [String: String] = [:])
        -> ReportEvent {
        ReportEvent(name, item: item, visitor: visitor, properties: properties)
    }

    @Test func progressPutsATitleFirst95PercentOrMoreFinishesItAndItLeavesTheTitlesInProgress() {
        var activity = ViewingActivity()
        activity.apply(Self.event(.playStarted, "a", ["duration": "1000"]))
        activity.apply(Self.event(.playStarted, "b", ["duration": "1000"]))
        activity.apply(Self.event(.playProgress, "a", ["position": "300", "duration": "1000"]))
        #expect(activity.inProgress.map(\.item) == ["a", "b"])
        #expect(activity.progress(of: "a")?.position == 300 && activity.progress(of: "a")?.fraction == 0.3)
        activity.apply(Self.event(.playProgress, "b", ["position": "949", "duration": "1000"]))
        #expect(activity.inProgress.map(\.item) == ["b", "a"])
        activity.apply(Self.event(.playProgress, "b", ["position": "950", "duration": "1000"]))
        #expect(activity.inProgress.map(\.item) == ["a"] && activity.finished == ["b"])
        // Played again, it is in progress again, from where it was left.
        activity.apply(Self.event(.playStarted, "a", ["duration": "1000"]))
        #expect(activity.progress(of: "a")?.position == 300)
        // A position that is no number changes nothing.
        activity.apply(Self.event(.playProgress, "a", ["position": "x", "duration": "1000"]))
        #expect(activity.progress(of: "a")?.position == 300)
    }

    @Test func myListKeepsTheOrderAddedOnceEachEachKindHoldsAtMostLimitTitles() {
        var activity = ViewingActivity()
        for index in 0..<(ViewingActivity.limit + 5) {
            activity.apply(Self.event(.myListAdded, "i\(index)"))
            activity.apply(Self.event(.playStarted, "i\(index)"))
        }
        activity.apply(Self.event(.myListAdded, "i10"))
        #expect(activity.myList.count == ViewingActivity.limit && activity.myList.first == "i5")
        #expect(activity.inProgress.count == ViewingActivity.limit && activity.inProgress.first?.item == "i54")
        activity.apply(Self.event(.myListRemoved, "i10"))
        #expect(!activity.isOnList("i10") && activity.myList.count == ViewingActivity.limit - 1)
    }

    @Test func theIndexHoldsAtMostCapacityVisitorsTheLeastRecentlySeenDroppedFirst() {
        let history = ViewingHistory(capacity: 100, loading: false)
        for index in 0..<1000 {
            history.apply(Self.event(.myListAdded, "x", visitor: "v\(index)"))
            // v0 comes back all along: it is never the least recent.
            _ = history.activity(for: "v0")
            #expect(history.count <= 100)
        }
        #expect(history.activity(for: "v0")?.isOnList("x") == true)
        #expect(history.activity(for: "v999")?.isOnList("x") == true)
        #expect(history.activity(for: "v1") == nil)
    }

    @Test func eventsRecordedWhileTheLogIsReadAreAppliedOverWhatTheLogHeld() {
        let history = ViewingHistory(capacity: 100)
        history.apply(Self.event(.myListRemoved, "old"))
        history.apply(Self.event(.myListAdded, "new"))
        #expect(!history.isLoaded)
        let fromLog = ViewingHistory(capacity: 100, loading: false)
        fromLog.apply(Self.event(.myListAdded, "old"))
        fromLog.apply(Self.event(.myListAdded, "kept"))
        history.finishLoading(fromLog)
        #expect(history.isLoaded)
        #expect(history.activity(for: "v")?.myList == ["kept", "new"])
    }

    @Test func anotherInstancesEventGoesToAVisitorHeldNotOneUnknownHereAndToAllWhileLoading() {
        let history = ViewingHistory(capacity: 100, loading: false)
        history.apply(Self.event(.myListAdded, "mine", visitor: "held"))
        history.applyDatabase(Self.event(.myListAdded, "theirs", visitor: "held"))
        history.applyDatabase(Self.event(.myListAdded, "theirs", visitor: "unknown"))
        #expect(history.activity(for: "held")?.myList == ["mine", "theirs"])
        #expect(!history.holds("unknown"), "one event alone would hide the rest of their history from the look-up")

        let loading = ViewingHistory(capacity: 100)
        loading.applyDatabase(Self.event(.myListAdded, "theirs", visitor: "unknown"))
        let fromLog = ViewingHistory(capacity: 100, loading: false)
        fromLog.apply(Self.event(.myListAdded, "before", visitor: "unknown"))
        loading.finishLoading(fromLog)
        #expect(loading.activity(for: "unknown")?.myList == ["before", "theirs"])
    }

    @Test func theLoaderDecodesOnlyLinesWhoseEventIsAViewingOne() {
        func line(_ text: String) -> ArraySlice<UInt8> { ArraySlice(Array(text.utf8)) }
        #expect(ViewingHistoryLoader.mayBeViewing(line(#"{"timestamp":"2026-11-21T12:00:00.123Z","event":"play_started","item":"m"}"#)))
        #expect(ViewingHistoryLoader.mayBeViewing(line(#"{"timestamp":"t","event":"my_list_added"}"#)))
        #expect(!ViewingHistoryLoader.mayBeViewing(line(#"{"timestamp":"t","event":"launch","properties":{"x":"play_"}}"#)))
        #expect(!ViewingHistoryLoader.mayBeViewing(line(#"{"timestamp":"t","event":"#)))
    }
}

extension ViewingActivityTests {
    @Test func moreEventsWhileTheLogIsReadThanAreHeldThoseVisitorsKeepWhatTheyDidSinceTheLogFillsInTheRest() {
        let history = ViewingHistory(capacity: 100, pendingLimit: 2)
        for visitor in ["a", "b", "c"] { history.apply(Self.event(.myListAdded, "since", visitor: visitor)) }
        let fromLog = ViewingHistory(capacity: 100, loading: false)
        fromLog.apply(Self.event(.myListAdded, "before", visitor: "a"))
        fromLog.apply(Self.event(.myListAdded, "before", visitor: "d"))
        history.finishLoading(fromLog)
        #expect(history.isLoaded)
        #expect(history.activity(for: "a")?.myList == ["since"])
        #expect(history.activity(for: "c")?.myList == ["since"])
        #expect(history.activity(for: "d")?.myList == ["before"])
    }
}
