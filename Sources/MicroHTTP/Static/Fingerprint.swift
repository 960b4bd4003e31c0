/// The version tag in a fingerprinted asset name, `app.1a2b3c4d.css`: 32 bits of FNV-1a over the
/// file's bytes, in hex. An edit changes it (but for a 1 in 4 billion chance), so a name with it
/// can be cached for a year: a changed file gets a new name in the pages.
enum Fingerprint {
    static let length = 8

    static func of(_ bytes: [UInt8]) -> String {
        var hash: UInt32 = 0x811C_9DC5
        for byte in bytes { hash = (hash ^ UInt32(byte)) &* 0x0100_0193 }
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: length - digits.count) + digits
    }

    /// `images/app.css` + `1a2b3c4d` → `images/app.1a2b3c4d.css`; a name without an extension
    /// gets the tag at its end.
    static func name(_ relative: String, _ fingerprint: String) -> String {
        let slash = relative.lastIndex(of: "/").map { relative.index(after: $0) } ?? relative.startIndex
        guard let dot = relative[slash...].lastIndex(of: "."), dot > slash else { return relative + "." + fingerprint }
        return relative[..<dot] + "." + fingerprint + relative[dot...]
    }

    /// `app.1a2b3c4d.css` → (`app.css`, `1a2b3c4d`); nil when the name carries no tag.
    static func split(_ name: String) -> (plain: String, fingerprint: String)? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 2 else { return nil }
        let tagIndex = parts.count >= 3 ? parts.count - 2 : parts.count - 1
        let tag = parts[tagIndex]
        guard tag.utf8.count == length, tag.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }),
              tagIndex > 0, !parts[0].isEmpty else { return nil }
        var plain = parts
        plain.remove(at: tagIndex)
        return (plain.joined(separator: "."), String(tag))
    }
}
