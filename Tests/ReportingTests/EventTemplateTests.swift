import Basics
import Foundation
import Testing
import TestSupport

@testable import Reporting

@Suite struct EventTemplateTests {
    /// Templates with every kind of part: none, escapes, unsorted properties, experiment groups.
    static let templates = [
        EventTemplate(.launch, layout: "grid"),
        EventTemplate(.launch),
        EventTemplate(.longSelected, layout: "list", item: "m-\"8\"\\\u{1}é"),
        EventTemplate(.horizontalSwipe, layout: "grid", properties: ["row": "1", "at": "4", "zeta": "q\"uote"]),
        EventTemplate(.shortSelected, layout: "grid", item: "m-1", properties: ["experiment.hero": "b", "device": "mobile", "cohort": "new"]),
    ]

    @Test func aTemplatesLineIsTheLineTheWholeEventEncodesToByteForByte() {
        let time = ReportTimestamp.date(milliseconds: dayStart + 12_345)
        for template in Self.templates {
            let ids = ["0123456789abcdef0123456789abcdef", "00000000000000000000000000000000", "ffffffffffffffffffffffffffffffff"]
                .map { VisitorID($0)! }
            for (visitor, request) in [(ids[0], "r-17"), (nil, nil), (ids[1], nil), (nil, "r\n2"), (ids[2], "r\"3")] {
                let whole = template.event(at: time, visitor: visitor, request: request)
                // Written into the room the writer sets aside for it: the pending event's bound.
                let bound = PendingEvent(event: ReportEvent(template.fixed.name, request: request), whenWritten: nil,
                                         template: template, visitor: visitor).lineBound
                let line = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
                    var timestamps = TimestampCache()
                    let count = template.writeJSONLine(ms: dayStart + 12_345, visitor: visitor, request: request,
                                                       to: buffer.baseAddress!, timestamps: &timestamps)
                    #expect(count <= bound)
                    return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
                }
                #expect(line == whole.jsonLine + "\n")
            }
        }
    }

    @Test func aRequestIDGivenAsAValueIsWrittenAsItsTextWouldBe() {
        let time = ReportTimestamp.date(milliseconds: dayStart + 12_345)
        let ids = [RequestID(prefix: 0, number: 0), RequestID(prefix: 0x5f3a_9c1e, number: 0x1a),
                   RequestID(prefix: 0xa, number: 1), RequestID(prefix: .max, number: .max)]
        for template in Self.templates {
            for (visitor, id) in [(VisitorID("0123456789abcdef0123456789abcdef"), ids[0]), (nil, ids[1]),
                                  (nil, ids[2]), (VisitorID("ffffffffffffffffffffffffffffffff"), ids[3])] {
                let whole = template.event(at: time, visitor: visitor, request: id.text)
                let bound = PendingEvent(event: ReportEvent(template.fixed.name), whenWritten: nil,
                                         template: template, visitor: visitor, requestID: id).lineBound
                let line = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bound) { buffer in
                    var timestamps = TimestampCache()
                    let count = template.writeJSONLine(ms: dayStart + 12_345, visitor: visitor, request: nil, requestID: id,
                                                       to: buffer.baseAddress!, timestamps: &timestamps)
                    #expect(count <= bound)
                    return String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
                }
                #expect(line == whole.jsonLine + "\n")
            }
        }
    }

    @Test func aTemplateRecordedWithARequestIDValueWritesTheLineItsTextWould() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let log = try ReportLog(directory: directory.path("ids"))
        let ids = (0..<20).map { RequestID(prefix: 0x5f3a_9c1e, number: UInt64($0) << ($0 * 3 % 60)) }
        let visitor = VisitorID(high: 1, low: 2)
        for id in ids { log.record(Self.templates[0], visitor: visitor, requestID: id) }
        try await eventually(timeout: 20) { storeLines(log.store).count == ids.count }
        log.shutdown()
        let lines = storeLines(log.store)
        for (line, id) in zip(lines, ids) {
            let time = try ReportEvent(jsonLine: line).timestamp
            #expect(line == Self.templates[0].event(at: time, visitor: visitor, request: id.text).jsonLine)
        }
    }

    @Test func eventsRecordedFromTemplatesAreWrittenAndCountedAsTheWholeEventsAre() async throws {
        let directory = try TemporaryDirectory("reporting-tests")
        defer { directory.remove() }
        let fromTemplates = try ReportLog(directory: directory.path("templates"))
        let visitors = (0..<40).map { VisitorID(high: 0, low: UInt64($0 * 7919)) }
        for (index, visitor) in visitors.enumerated() {
            for template in Self.templates { fromTemplates.record(template, visitor: visitor, request: "r-\(index)") }
        }
        let count = visitors.count * Self.templates.count
        try await eventually(timeout: 20) { storeLines(fromTemplates.store).count == count }
        try await eventually(timeout: 20) { fromTemplates.store.experimentVisitors()?["hero"] != nil }
        let tallied = fromTemplates.store.experimentVisitors()
        fromTemplates.shutdown()
        let lines = storeLines(fromTemplates.store)
        // The same events, whole, at the times the template lines were given, through the general path.
        let whole = try ReportLog(directory: directory.path("whole"))
        for (index, line) in lines.enumerated() {
            let time = try ReportEvent(jsonLine: line).timestamp
            let template = Self.templates[index % Self.templates.count]
            let event = template.event(at: time, visitor: visitors[index / Self.templates.count],
                                       request: "r-\(index / Self.templates.count)")
            #expect(event.jsonLine == line)
            whole.record(event)
        }
        try await eventually(timeout: 20) { storeLines(whole.store).count == count }
        try await eventually(timeout: 20) { whole.store.experimentVisitors()?["hero"] != nil }
        #expect(whole.store.experimentVisitors() == tallied)
        whole.shutdown()
        #expect(storeLines(whole.store) == lines)
        #expect(fromTemplates.store.summary() == whole.store.summary())
        #expect(fromTemplates.store.experiments().map(\.name) == ["hero"])
        #expect(fromTemplates.store.experiments() == whole.store.experiments())
        #expect(fromTemplates.store.summary().visitors == visitors.count)
    }
}
