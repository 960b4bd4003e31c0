/// What the server knows of a visitor on this request, for an experiment's targeting: worked
/// out once per request (`Visit`), from headers and cookies only, never from the report log.
public struct VisitorTraits: Sendable, Equatable {
    /// Phone, tablet or desktop, from the `Sec-CH-UA-Mobile` client hint and the User-Agent.
    public var device: DeviceClass
    /// Returning when the visitor cookie came with the request, new when it is made for it.
    public var cohort: Cohort
    /// The primary subtag of `Accept-Language`'s first language, lower-cased (`de` for `de-CH`); nil without one.
    public var language: String?
    /// The layout the visitor chose themselves (the `layout` cookie); nil without a choice.
    public var chosenLayout: String?

    /// Creates traits; the defaults are a new desktop visitor without language or choice.
    public init(device: DeviceClass = .desktop, cohort: Cohort = .new, language: String? = nil, chosenLayout: String? = nil) {
        self.device = device
        self.cohort = cohort
        self.language = language
        self.chosenLayout = chosenLayout
    }

    /// New or returning: the cheapest honest rule, whether the visitor cookie existed before this request.
    public enum Cohort: String, Sendable, CaseIterable {
        case new, returning
    }

    /// The primary language subtag of an `Accept-Language` value's first entry: `fr` for
    /// `fr-CH, fr;q=0.9, en;q=0.8`; nil for none or `*`. The first entry is the browser's first
    /// choice; weights that reorder the list are rare enough to ignore.
    public static func firstLanguage(_ header: String?) -> String? {
        guard let header else { return nil }
        var subtag = ""
        for scalar in header.unicodeScalars {
            if scalar == " " && subtag.isEmpty { continue }
            guard scalar.isASCII, scalar.properties.isAlphabetic else { break }
            subtag.unicodeScalars.append(scalar)
            if subtag.utf8.count > 8 { return nil }
        }
        return subtag.isEmpty ? nil : subtag.lowercased()
    }
}

/// A device class as the targeting and the report's segments name it.
public enum DeviceClass: String, Sendable, CaseIterable {
    case phone, tablet, desktop

    /// The class of a request: a tablet when the User-Agent says `iPad`, `Tablet` or `Android`
    /// without `Mobi`; a phone when the client hint `Sec-CH-UA-Mobile` is `?1` or the User-Agent
    /// says `Mobi` or `iPhone`; else a desktop. One pass over the User-Agent's bytes, no
    /// allocation: it runs on every request.
    public static func classify(userAgent: String?, mobileHint: String?) -> DeviceClass {
        var userAgent = userAgent, mobileHint = mobileHint
        return withUTF8(&userAgent) { agent in withUTF8(&mobileHint) { classify(userAgentBytes: agent, mobileHintBytes: $0) } }
    }

    /// The same over the headers' bytes, as a request holds them.
    public static func classify(userAgentBytes userAgent: UnsafeBufferPointer<UInt8>?,
                                mobileHintBytes mobileHint: UnsafeBufferPointer<UInt8>?) -> DeviceClass {
        let found = userAgent.map(scan) ?? Found()
        if found.iPad || found.tablet || (found.android && !found.mobi) { return .tablet }
        let hinted = mobileHint.map { $0.count == 2 && $0[0] == UInt8(ascii: "?") && $0[1] == UInt8(ascii: "1") } ?? false
        if hinted || found.mobi || found.iPhone { return .phone }
        return .desktop
    }

    private static func withUTF8<Result>(_ text: inout String?, _ body: (UnsafeBufferPointer<UInt8>?) -> Result) -> Result {
        guard text != nil else { return body(nil) }
        return text!.withUTF8 { body($0) }
    }

    private struct Found {
        var mobi = false, iPhone = false, iPad = false, tablet = false, android = false
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>) -> Found {
        var found = Found()
        guard bytes.count >= 4 else { return found }
        func has(_ word: StaticString, at index: Int) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            let start = word.utf8Start
            for offset in 1..<count where bytes[index + offset] != start[offset] { return false }
            return true
        }
        for index in 0..<(bytes.count - 3) {
            switch bytes[index] {
            case UInt8(ascii: "M"): if has("Mobi", at: index) { found.mobi = true }
            case UInt8(ascii: "i"):
                if has("iPhone", at: index) { found.iPhone = true } else if has("iPad", at: index) { found.iPad = true }
            case UInt8(ascii: "T"): if has("Tablet", at: index) { found.tablet = true }
            case UInt8(ascii: "A"): if has("Android", at: index) { found.android = true }
            default: continue
            }
        }
        return found
    }
}
