/// The two `Content-Type`s a form arrives in, told from the header's bytes in place (its letters
/// in any case): the body reader and the form checks ask the same question the same way.
public enum FormType: Sendable {
    case urlEncoded, multipart

    public init?(_ type: UnsafeBufferPointer<UInt8>?) {
        guard let type else { return nil }
        if Self.starts(type, with: "application/x-www-form-urlencoded") { self = .urlEncoded }
        else if Self.starts(type, with: "multipart/form-data") { self = .multipart }
        else { return nil }
    }

    /// What a refusal names as the types taken.
    public static let names = "application/x-www-form-urlencoded or multipart/form-data"

    private static func starts(_ type: UnsafeBufferPointer<UInt8>, with prefix: StaticString) -> Bool {
        guard type.count >= prefix.utf8CodeUnitCount else { return false }
        let bytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        // The prefixes hold letters, `-` and `/`; a head's values hold no control byte to fold onto them.
        return zip(type, bytes).allSatisfy { ($0 | 0x20) == $1 || $0 == $1 }
    }
}
