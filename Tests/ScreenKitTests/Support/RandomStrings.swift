import TestSupport

enum RandomStrings {
    static let specials: [Unicode.Scalar] = ["&", "<", ">", "\"", "'", "&", ";", "#", "=", "/"]
    static let entityLike = ["&amp;", "&lt;", "&#39;", "&#x3C;", "&quot", "<script>", "\"><img src=x>"]

    /// A random string mixing specials, entity look-alikes, controls, ASCII and any Unicode.
    static func make(using rng: inout SplitMix64) -> String {
        var result = ""
        for _ in 0..<Int.random(in: 0...40, using: &rng) {
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: result.unicodeScalars.append(specials.randomElement(using: &rng)!)
            case 1: result += entityLike.randomElement(using: &rng)!
            case 2: result.unicodeScalars.append(Unicode.Scalar(UInt8.random(in: 0...0x7F, using: &rng)))
            case 3: result.unicodeScalars.append(Unicode.Scalar(UInt32.random(in: 0x80...0x9F, using: &rng))!)
            default: result.unicodeScalars.append(anyScalar(using: &rng))
            }
        }
        return result
    }

    static func anyScalar(using rng: inout SplitMix64) -> Unicode.Scalar {
        while true {
            let limit: UInt32 = Bool.random(using: &rng) ? 0xFFFF : 0x10FFFF
            if let scalar = Unicode.Scalar(UInt32.random(in: 0...limit, using: &rng)) { return scalar }
        }
    }

    /// What escaping must preserve: the input with code points HTML forbids replaced by U+FFFD.
    static func expectedText(_ input: String) -> String {
        var output = String.UnicodeScalarView()
        for scalar in input.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0C, 0x0D: output.append(scalar)
            case 0x00...0x1F, 0x7F...0x9F: output.append("\u{FFFD}")
            default: output.append(scalar)
            }
        }
        return String(output)
    }
}
