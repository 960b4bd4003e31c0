import Basics
import CMicroHTTPD
import Testing
@testable import MicroHTTP

/// The request id of a response kept with a page copy: rewritten in place when the new id is as
/// long as the old one, replaced otherwise; either way the response carries exactly one.
@Suite struct PreparedResponseTests {
    private func prepared(id: RequestID) throws -> PreparedResponse {
        let handle = try #require(MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT))
        id.withCString { _ = MHD_add_response_header(handle, ServerCore.requestIDHeader.cString, $0) }
        MHD_add_response_header(handle, "Referrer-Policy", "same-origin")
        return PreparedResponse(handle: handle, headers: Headers(), requestID: id)
    }

    private func requestIDs(_ response: PreparedResponse) -> [String] {
        var ids: [String] = []
        // The first with the name, then none after it: deleting it reveals a second one.
        while let value = MHD_get_response_header(response.handle, ServerCore.requestIDHeader.cString) {
            ids.append(String(cString: value))
            _ = MHD_del_response_header(response.handle, ServerCore.requestIDHeader.cString, value)
        }
        return ids
    }

    /// Header names in the order libmicrohttpd sends them: a replaced header goes last.
    private func names(_ response: PreparedResponse) -> [String] {
        var names: [String] = []
        withUnsafeMutablePointer(to: &names) { names in
            _ = MHD_get_response_headers(response.handle, { cls, _, key, _ in
                cls!.assumingMemoryBound(to: [String].self).pointee.append(String(cString: key!))
                return .YES
            }, names)
        }
        return names
    }

    @Test func anIdOfTheSameLengthIsWrittenOverTheOld() throws {
        let response = try prepared(id: RequestID(prefix: 0x1a2b, number: 0xff))
        #expect(response.setRequestID(RequestID(prefix: 0x1a2b, number: 0xfe)))
        #expect(response.setRequestID(RequestID(prefix: 0x1a2b, number: 0xfd)))
        #expect(names(response) == ["X-Request-Id", "Referrer-Policy"])
        #expect(requestIDs(response) == ["1a2b-fd"])
    }

    @Test func anIdOfAnotherLengthReplacesTheHeader() throws {
        let response = try prepared(id: RequestID(prefix: 0x1a2b, number: 0xff))
        #expect(response.setRequestID(RequestID(prefix: 0x1a2b, number: 0x100)))
        #expect(response.setRequestID(RequestID(prefix: 0x1a2b, number: 0x101)))
        #expect(names(response) == ["Referrer-Policy", "X-Request-Id"])
        #expect(requestIDs(response) == ["1a2b-101"])
    }
}

/// The `Date` a response kept with a page copy carries: its own, one, written again only when the
/// second changes.
@Suite struct PreparedResponseDateTests {
    private func dates(_ response: PreparedResponse) -> [String] {
        var dates: [String] = []
        while let value = MHD_get_response_header(response.handle, "Date") {
            dates.append(String(cString: value))
            _ = MHD_del_response_header(response.handle, "Date", value)
        }
        return dates
    }

    @Test func theDateIsWrittenAsRFC9110Says() {
        // RFC 9110 §5.6.7's example, and a date of another weekday, month and century.
        #expect(HTTPDate.text(784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.text(1_798_761_599) == "Thu, 31 Dec 2026 23:59:59 GMT")
        #expect(HTTPDate.text(0) == "Thu, 01 Jan 1970 00:00:00 GMT")
    }

    @Test func aReusedResponseShowsTheSecondItIsQueuedIn() throws {
        let handle = try #require(MHD_create_response_from_buffer(0, nil, .RESPMEM_PERSISTENT))
        let response = PreparedResponse(handle: handle, headers: Headers(), requestID: RequestID(prefix: 0x1a2b, number: 0xff))
        response.addDate(now: 784_111_777)
        response.refreshDate(now: 784_111_777)
        response.refreshDate(now: 1_798_761_599)
        #expect(dates(response) == ["Thu, 31 Dec 2026 23:59:59 GMT"])
    }
}
