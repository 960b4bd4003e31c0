import Testing

@testable import Reporting

@Suite struct InternCacheTests {
    @Test func aTemplatesIDsAreTheIDsOfItsPartsThroughEverySlotAndAfterTemplatesAreFreed() {
        var cache = InternCache(interner: Interner())
        // Rounds of templates made and freed: a freed template's address is often the next one's,
        // and 200 templates share 64 slots.
        for round in 0..<5 {
            let templates = (0..<200).map { index in
                EventTemplate(index % 2 == 0 ? .launch : .shortSelected, layout: index % 3 == 0 ? nil : "layout-\(round)-\(index % 7)",
                              item: index % 5 == 0 ? nil : "m-\(round)-\(index)")
            }
            for _ in 0..<2 {
                for template in templates {
                    let ids = cache.ids(of: template)
                    #expect(ids.name == cache.id(template.fixed.name.rawValue))
                    #expect(ids.layout == cache.id(template.fixed.layout))
                    #expect(ids.item == cache.id(template.fixed.item))
                }
            }
        }
    }
}
