import ScreenKit
import Testing
@testable import HomeLayouts

/// A visitor's rows as a cached page takes them are padded to one of a few lengths, with spaces
/// after the last row, so the brotli form made for that length takes them; rows longer than the
/// last length are left as they are (their brotli is compressed per response), and no rows stay
/// no bytes at all.
@Suite struct RowsPaddingTests {
    static func drawn(_ count: Int) -> [UInt8] {
        let entries = (0..<count).map { HomeRow.Entry(item: StubItem("m\($0)", .long), url: "/long/m\($0)",
                                                      imageURL: "/assets/images/posters/m\($0).svg") }
        var writer = HTMLWriter()
        HomeMarkup.rows([HomeRow(name: "my-list", title: "My List", entries: entries)], layout: "grid", into: &writer)
        return writer.finish()
    }

    @Test(arguments: [1, 3, 10, 40, 400])
    func rowsArePaddedToTheLeastCapacityThatHoldsThem(titles: Int) throws {
        let bytes = Self.drawn(titles)
        let markup = String(decoding: bytes, as: UTF8.self).trimmingSuffix(" ")
        if let capacity = HomeMarkup.rowsCapacity(for: markup.utf8.count) {
            #expect(bytes.count == capacity)
            #expect(!HomeMarkup.rowsCapacities.contains { $0 >= markup.utf8.count && $0 < capacity })
        } else {
            #expect(markup.utf8.count > HomeMarkup.rowsCapacities.last!, "beyond the last length: as drawn")
            #expect(bytes.count == markup.utf8.count)
        }
        #expect(markup.hasSuffix("</section>"))
    }

    @Test func noRowsAreNoBytes() {
        var writer = HTMLWriter()
        HomeMarkup.rows([], layout: "grid", into: &writer)
        #expect(writer.finish().isEmpty)
    }

    @Test func theCapacitiesStepByAHalfAndAThird() {
        #expect(HomeMarkup.rowsCapacities.first == 1024 && HomeMarkup.rowsCapacities.last == 65_536)
        for (small, large) in zip(HomeMarkup.rowsCapacities, HomeMarkup.rowsCapacities.dropFirst()) {
            #expect(large * 2 <= small * 3)
        }
    }
}

private extension StringProtocol {
    func trimmingSuffix(_ character: Character) -> String {
        var text = String(self)
        while text.last == character { text.removeLast() }
        return text
    }
}
