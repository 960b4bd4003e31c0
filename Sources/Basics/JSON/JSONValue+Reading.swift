#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension JSONValue {
    /// The one reader of JSON documents: configuration files, uploads, versions on disk, database
    /// rows. A broken text's error names the line and column (`JSONSyntaxError`). The report log's
    /// lines have their own parser, on the hot path (`ReportEvent`'s).
    public init(reading data: Data) throws(JSONReadError) {
        do {
            self = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            if let syntax = JSONSyntaxError.find(in: data) { throw JSONReadError(syntax: syntax, detail: "") }
            throw JSONReadError(syntax: nil, detail: Self.detail(error))
        }
    }

    /// The string, if the value is one.
    public var string: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// An object's members, if the value is one.
    public var members: [String: JSONValue]? {
        if case .object(let members) = self { members } else { nil }
    }

    private static func detail(_ error: any Error) -> String {
        var detail = "\(error)"
        if case DecodingError.dataCorrupted(let context) = error {
            detail = context.debugDescription
            #if !canImport(FoundationEssentials)
                if let underlying = context.underlyingError as NSError?,
                   let debug = underlying.userInfo[NSDebugDescriptionErrorKey] as? String {
                    detail = debug
                }
            #endif
        }
        return detail.hasSuffix(".") ? String(detail.dropLast()) : detail
    }
}
