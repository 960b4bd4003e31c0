import FeatureToggles
import Foundation
import HomeAppTestSupport
import MicroHTTP
import Reporting
import ScreenKit
import Testing
import TestSupport

@testable import HomeApp
@testable import Reporting

/// `/reports/experiments`: the visits and selections of each group, compared with the first.
@Suite struct ExperimentReportTests {
    static let toggles = #"""
        {"experiments": [{"name": "home-layout", "groups": [
          {"name": "a", "weight": 1, "layout": "list"}, {"name": "b", "weight": 1, "layout": "grid"}]}]}
        """#

    @Test func newVisitorsViewsAndSelectionsLandInTheirGroupsOnReportsExperimentsLinkedFromReports() async throws {
        let fixture = try AppFixture(toggles: Self.toggles)
        var expected: [String: (visitors: Int, views: Int, selections: Int)] = ["a": (0, 0, 0), "b": (0, 0, 0)]
        for index in 0..<20 {
            let browser = fixture.browser()
            let html = try browser.page("/").html
            let visitor = try #require(browser.cookies["visitor"])
            let group = try ExperimentTests.group(of: visitor)
            expected[group]!.visitors += 1
            expected[group]!.views += 1
            // Group b selects on every visit, group a on every other one.
            if group == "b" || index % 2 == 0 {
                let open = try #require(html.buttons(named: "open").first)
                #expect(try browser.press(open).status == 303)
                expected[group]!.selections += 1
            }
        }
        #expect(expected["a"]!.visitors > 0 && expected["b"]!.visitors > 0, "20 new visitors should land in both groups")
        let selections = expected.values.reduce(0) { $0 + $1.selections }
        try await eventually {
            try fixture.events().filter { [.longSelected, .shortSelected, .streamSelected].contains($0.name) }.count == selections
                && fixture.events().filter { $0.name == .launch }.count == 20
        }

        let browser = fixture.browser()
        let reports = try browser.page("/reports").html
        #expect(reports.all("a").contains { $0["href"] == "/reports/experiments" })
        let (response, page) = try browser.page("/reports/experiments")
        #expect(response.status == 200)
        let section = try #require(page.first { $0["data-experiment"] == "home-layout" })
        for (group, counts) in expected {
            let row = try #require(section.first { $0["data-group"] == group })
            // Visitors are a HyperLogLog estimate (about 2%): two of a few may share a register.
            let cell = try #require(row.first { $0["data-visitors"] != nil })
            let shownVisitors = try #require(Int(cell["data-visitors"] ?? ""))
            #expect(abs(shownVisitors - counts.visitors) <= max(1, counts.visitors / 50))
            // The figure says it is an estimate, and by how much.
            #expect(cell.text == "\u{2248} \(shownVisitors) \u{00B1} \(VisitorFigure.margin(shownVisitors))")
            #expect(row.first { $0["data-views"] != nil }?.text == "\(counts.views)")
            #expect(row.first { $0["data-selections"] != nil }?.text == "\(counts.selections)")
            let rate = Proportion(successes: counts.selections, trials: counts.views)
            #expect(row.first { $0["data-rate"] != nil }?.text.hasPrefix(ExperimentResult.percent(rate.rate)) == true)
        }
        let sentence = try #require(section.first { $0.hasClass("experiment__findings") }?.text)
        let a = Proportion(successes: expected["a"]!.selections, trials: expected["a"]!.views)
        let b = Proportion(successes: expected["b"]!.selections, trials: expected["b"]!.views)
        #expect(sentence.hasPrefix("Grid: \(ExperimentResult.percent(b.rate)) (\(ExperimentResult.range(b.wilson()))) vs List: "
                                   + "\(ExperimentResult.percent(a.rate)) (\(ExperimentResult.range(a.wilson()))), p"), "\(sentence)")
        #expect(section.first { $0.hasClass("experiment__power") } != nil)
        #expect(!section.all("circle").isEmpty, "a point per group and day")

        // The same numbers in /reports.json, for scripts and dashboards.
        let json = try browser.get("/reports.json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.text.utf8)) as? [String: Any])
        let experiments = try #require(document["experiments"] as? [[String: Any]])
        let experiment = try #require(experiments.first { $0["name"] as? String == "home-layout" })
        let groups = try #require(experiment["groups"] as? [[String: Any]])
        for (group, counts) in expected {
            let entry = try #require(groups.first { $0["group"] as? String == group })
            #expect(entry["views"] as? Int == counts.views && entry["selections"] as? Int == counts.selections)
            #expect(abs((entry["visitors"] as? Int ?? -99) - counts.visitors) <= max(1, counts.visitors / 50))
            #expect(entry["layout"] as? String == (group == "a" ? "list" : "grid"))
            let rate = try #require(entry["rate"] as? Double), low = try #require(entry["low"] as? Double)
            let high = try #require(entry["high"] as? Double)
            #expect(low <= rate && rate <= high)
        }
        #expect(experiment["pValue"] is Double)

        // The range: nothing from tomorrow on; a bad day is a 400 that says what was wrong.
        let tomorrow = String(ReportTimestamp.string(from: Date().addingTimeInterval(86_400)).prefix(10))
        let later = try browser.page("/reports/experiments?from=\(tomorrow)").html
        #expect(later.first { $0["data-group"] == "a" }?.first { $0["data-views"] != nil }?.text == "0")
        let bad = try browser.get("/reports/experiments?from=yesterday")
        #expect(bad.status == 400)
        #expect(try bad.html().errorMessage?.contains("\"from\" must be a UTC day like 2026-11-24") == true)
    }

    /// Twenty visitors, every one of group b selecting and none of group a: the views alone would
    /// "detect" so large a difference, but the page does not call that enough while a group has
    /// fewer visitors than the visitor figures need.
    @Test func aLargeDifferenceAmongFewVisitorsIsNotCalledEnoughHomeViews() async throws {
        let fixture = try AppFixture(toggles: Self.toggles)
        var selections = 0
        for _ in 0..<20 {
            let browser = fixture.browser()
            let html = try browser.page("/").html
            guard try ExperimentTests.group(of: try #require(browser.cookies["visitor"])) == "b" else { continue }
            #expect(try browser.press(try #require(html.buttons(named: "open").first)).status == 303)
            selections += 1
        }
        try await eventually {
            try fixture.events().filter { $0.name == .launch }.count == 20
                && fixture.events().filter { [.longSelected, .shortSelected, .streamSelected].contains($0.name) }.count == selections
        }
        let page = try fixture.browser().page("/reports/experiments").html
        let section = try #require(page.first { $0["data-experiment"] == "home-layout" })
        #expect(section.first { $0["data-p"] != nil }?.text == "< 0.001", "the views' own test")
        #expect(!section.text.contains("Enough home views"), "\(section.text)")
        let notice = try #require(section.first { $0["data-too-few-visitors"] != nil })
        #expect(notice.text.hasPrefix("Too few visitors to act on these home views: each group needs 100 (now about "), "\(notice.text)")
    }

    /// The Visitors choice picks the visitor figures; the home views below stay everyone's, and
    /// their heading says so rather than pass them off as the segment's.
    @Test func theHomeViewsUnderASegmentSayTheyAreOfAllVisitors() async throws {
        let fixture = try AppFixture(toggles: Self.toggles)
        _ = try fixture.browser().page("/")
        let browser = fixture.browser()
        func headings(_ query: String) throws -> [String] {
            try browser.page("/reports/experiments" + query).html.all("h3").map(\.text)
        }
        try await eventually("the visitor figures are counted") {
            try headings("").contains { $0.hasPrefix("Visitors, from their first exposure") }
        }
        #expect(try headings("").contains("Home views in the range"))
        #expect(try headings("?segment=phone").contains("Home views in the range, of all visitors (not only phone)"))
        #expect(try headings("?segment=new").contains("Home views in the range, of all visitors (not only new visitors)"))
    }

    /// The views' test takes every home view as independent and can read p = 0.02 beside a visitor
    /// p of 0.67: where visitor figures stand above them, the home views say they are too sure of
    /// themselves and that the visitor figures decide; without visitor figures there is nothing to
    /// point to.
    @Test func theHomeViewsBesideVisitorFiguresSayTheyAreTooSureAndTheVisitorsDecide() throws {
        let toggles = try Toggles(json: Data(#"""
            {"experiments": [{"name": "home-layout", "groups": [{"name": "a", "layout": "list"}, {"name": "b", "layout": "grid"}]},
              {"name": "rows", "groups": [{"name": "a"}, {"name": "b"}]}]}
            """#.utf8), file: "t.json")
        let counts = ["home-layout", "rows"].map { name in
            ReportExperimentCounts(name: name, groups: [
                ReportGroupCounts(group: "a", layouts: ["list": 3000], views: 3000, selections: 300, visitors: 200, days: []),
                ReportGroupCounts(group: "b", layouts: ["grid": 3000], views: 3000, selections: 360, visitors: 200, days: []),
            ])
        }
        var results = ExperimentReportRoutes.results(counts, toggles: toggles, displayNames: [:])
        var sums = VisitorSums()
        sums.visitors = 200
        results[0].visitors = VisitorResult(ExperimentVisitors(name: "home-layout", groups: [("a", sums), ("b", sums)]),
                                            toggles: toggles.experiments[0])
        var writer = HTMLWriter()
        let screen = ExperimentsScreen(viewModel: ExperimentsScreenModel(range: try ReportRangeQuery(QueryParameters([])), results: results))
        screen.render(into: &writer, context: RenderContext(csrfToken: "token"))
        let page = try HTMLDocument.parse(String(decoding: writer.finish(), as: UTF8.self))
        let counted = try #require(page.first { $0["data-experiment"] == "home-layout" })
        let sentence = try #require(counted.first { $0.hasClass("experiment__findings") }?.text)
        #expect(sentence.hasSuffix("p = 0.013"), "\(sentence)")
        let note = try #require(counted.first { $0["data-views-not-independent"] != nil })
        #expect(note.text == "These count each home view as if independent, but one visitor's views are not, so their intervals "
                + "and p-values are more confident than they should be: decide by the visitor figures above.")
        // Where the view figures are: under their heading, before their sentences.
        let text = counted.text
        let heading = try #require(text.range(of: "Home views in the range")), said = try #require(text.range(of: note.text))
        let findings = try #require(text.range(of: sentence))
        #expect(heading.upperBound <= said.lowerBound && said.upperBound <= findings.lowerBound)
        let uncounted = try #require(page.first { $0["data-experiment"] == "rows" })
        #expect(uncounted.first { $0["data-views-not-independent"] != nil } == nil)
    }

    @Test func olderLinesTaggedExperimentAndGroupCountAsExperimentNameInAnExperimentTheTogglesNoLongerName() async throws {
        let fixture = try AppFixture(toggles: Self.toggles)
        let log = fixture.app.services.reportLog
        for (name, visitor) in [(ReportEvent.Name.launch, "v1"), (.launch, "v2"), (.shortSelected, "v2")] {
            log.record(ReportEvent(name, layout: "list", visitor: visitor, properties: ["experiment": "home-hero", "group": "b"]))
        }
        try await eventually { log.store.experiments(ReportRange()).contains { $0.name == "home-hero" && $0.groups.first?.selections == 1 } }
        let section = try #require(try fixture.browser().page("/reports/experiments").html.first { $0["data-experiment"] == "home-hero" })
        #expect(section.first { $0.hasClass("experiment__status") }?.text == "not in the toggles")
        let row = try #require(section.first { $0["data-group"] == "b" })
        #expect(row.first { $0["data-views"] != nil }?.text == "2" && row.first { $0["data-selections"] != nil }?.text == "1")
        #expect(row.first { $0["data-rate"] != nil }?.text.hasPrefix("50.0% (") == true)
    }

    @Test(arguments: [
        ("from=2026-11-24&to=2026-11-23", "\"to\" must be after \"from\"."),
        ("to=2026-11-24T12", "\"to\" must be a UTC day like 2026-11-24 or a time like 2026-11-24T12:00:00.000Z."),
    ])
    func aRangeThatEndsBeforeItStartsOrATimeThatIsNotOneIsA400ThatSaysSo(_ query: String, _ message: String) throws {
        let response = try AppFixture(toggles: Self.toggles).browser().get("/reports/experiments?\(query)")
        #expect(response.status == 400)
        #expect(try response.html().errorMessage == message)
    }

    @Test func theReportsJsonMemberHasTheAgreedShape() throws {
        let counts = [ReportExperimentCounts(name: "home-layout", groups: [
            ReportGroupCounts(group: "a", layouts: ["list": 1000], views: 1000, selections: 101, visitors: 900, days: []),
            ReportGroupCounts(group: "b", layouts: ["grid": 1000], views: 1000, selections: 124, visitors: 910, days: []),
        ])]
        let toggles = try Toggles(json: Data(Self.toggles.utf8), file: "t.json")
        let results = ExperimentReportRoutes.results(counts, toggles: toggles, displayNames: ["list": "List", "grid": "Grid"])
        let text = "{" + ExperimentsJSON.member(results) + "}"
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let experiment = try #require((object["experiments"] as? [[String: Any]])?.first)
        #expect(experiment["name"] as? String == "home-layout")
        let groups = try #require(experiment["groups"] as? [[String: Any]])
        #expect(groups.map { Set($0.keys) } == Array(repeating: ["group", "layout", "visitors", "views", "selections", "rate", "low", "high"], count: 2))
        #expect(groups[1]["group"] as? String == "b" && groups[1]["layout"] as? String == "grid" && groups[1]["views"] as? Int == 1000)
        #expect(groups[1]["rate"] as? Double == 0.124)
        let p = try #require(experiment["pValue"] as? Double)
        let expectedP = ProportionDifference(Proportion(successes: 124, trials: 1000), baseline: Proportion(successes: 101, trials: 1000)).pValue
        #expect(abs(p - expectedP) < 1e-6 && p > 0.05)
        #expect(results[0].sentence(for: results[0].groups[1])?.hasPrefix("Grid: 12.4% (") == true)
    }

    @Test func withEveryViewASelectionInBothGroupsTheViewsStillNeededPlanAPointDownwards() throws {
        let counts = [ReportExperimentCounts(name: "home-layout", groups: [
            ReportGroupCounts(group: "a", layouts: ["list": 6], views: 6, selections: 6, visitors: 6, days: []),
            ReportGroupCounts(group: "b", layouts: ["grid": 9], views: 9, selections: 9, visitors: 9, days: []),
        ])]
        let toggles = try Toggles(json: Data(Self.toggles.utf8), file: "t.json")
        let results = ExperimentReportRoutes.results(counts, toggles: toggles, displayNames: [:])
        let expected = try #require(SampleSize.perGroup(baseline: 1, difference: -0.01))
        #expect(results[0].stillNeeded == expected - 6)
    }

    @Test func onlyAGroupWhoseLayoutTheTogglesSetOffersARollOut() throws {
        let toggles = try Toggles(json: Data(#"""
            {"experiments": [{"name": "three-way", "groups": [{"name": "a", "weight": 2, "layout": "list"},
              {"name": "b", "layout": "grid"}, {"name": "c", "onboarding": false}]}]}
            """#.utf8), file: "t.json")
        let counts = [ReportExperimentCounts(name: "three-way", groups: [
            ReportGroupCounts(group: "a", layouts: ["list": 10], views: 10, selections: 2, visitors: 10, days: []),
            ReportGroupCounts(group: "b", layouts: ["grid": 10], views: 10, selections: 5, visitors: 10, days: []),
            ReportGroupCounts(group: "c", layouts: ["list": 10], views: 10, selections: 1, visitors: 10, days: []),
        ])]
        let results = ExperimentReportRoutes.results(counts, toggles: toggles, displayNames: [:])
        var writer = HTMLWriter()
        ExperimentActions.render(results[0], into: &writer)
        let links = String(decoding: writer.finish(), as: UTF8.self)
        #expect(links.contains("group=a") && links.contains("group=b") && links.contains("action=stop"))
        // c shows the list its visitors got, but sets no layout: its roll-out would be refused.
        #expect(!links.contains("group=c"), "\(links)")
        #expect(throws: HTTPError.self) {
            try ExperimentActions.proposed(.init(experiment: "three-way", rollout: (group: "c", percent: 100)), from: toggles)
        }
    }

    /// The visitor figures count whole days of first exposure: a bound with a time says so once for
    /// the page, however many experiments it shows, and links to the whole days, where the figures
    /// and the home views agree; days say nothing.
    @Test func aBoundWithATimeSaysTheVisitorFiguresCountWholeDaysAndLinksToThem() async throws {
        let fixture = try AppFixture(toggles: #"""
            {"experiments": [{"name": "home-layout", "groups": [
              {"name": "a", "weight": 1, "layout": "list"}, {"name": "b", "weight": 1, "layout": "grid"}]},
              {"name": "rows", "groups": [{"name": "a", "weight": 1}, {"name": "b", "weight": 1}]}]}
            """#)
        _ = try fixture.browser().page("/")
        let today = String(ReportTimestamp.string(from: Date()).prefix(10))
        let browser = fixture.browser()
        func notices(_ query: String) throws -> [HTMLElement] {
            try browser.page("/reports/experiments?" + query).html.all { $0["data-whole-days"] != nil }
        }
        try await eventually("the visitor figures of both experiments are counted") {
            try browser.page("/reports/experiments?from=\(today)").html.all("h3")
                .filter { $0.text.hasPrefix("Visitors, from their first exposure") }.count == 2
        }
        #expect(try notices("from=\(today)").isEmpty, "a day is a whole day")
        let timed = try notices("from=\(today)T00:00:01.5&segment=phone&test=fixed")
        #expect(timed.count == 1, "said once for the page, not once per experiment")
        let notice = try #require(timed.first)
        #expect(notice.text.hasPrefix("The visitor figures below count whole UTC days of first exposure, from the start of \(today), "
                                      + "not 00:00:01.500 UTC: they take in visitors first exposed outside the times asked"), "\(notice.text)")
        let link = try #require(notice.first { $0.tag == "a" })
        #expect(HTMLDocument.decode(link["href"] ?? "") == "/reports/experiments?from=\(today)&segment=phone&test=fixed")
        let both = try #require(try notices("from=\(today)T06:00:00Z&to=\(today)T12:00").first)
        #expect(both.text.contains("from the start of \(today), not 06:00:00 UTC, and to the end of \(today), not 12:00:00 UTC"), "\(both.text)")
        #expect(HTMLDocument.decode(both.first { $0.tag == "a" }?["href"] ?? "") == "/reports/experiments?from=\(today)&to=\(today)")
    }

    /// The scope line of a range: a span of days, or from a day still to come (no "… to today").
    @Test func aRangeFromADayToComeSaysNoVisitorsYet() throws {
        func scope(_ query: [(String, String)]) throws -> String {
            VisitorSection.scope(ExperimentsScreenModel(range: try ReportRangeQuery(QueryParameters(query)), results: []))
        }
        #expect(try scope([]) == "all visitors, whole report log")
        #expect(try scope([("from", "2026-11-20"), ("to", "2026-11-24")]) == "all visitors, first exposed 2026-11-20 to 2026-11-24 UTC, with all their events since")
        #expect(try scope([("from", "2026-11-20")]) == "all visitors, first exposed 2026-11-20 to today UTC, with all their events since")
        #expect(try scope([("from", "2999-01-01")]) == "all visitors, first exposed from 2999-01-01 UTC on: a day still to come, so none yet")
    }
}
