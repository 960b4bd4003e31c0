import Basics
import Foundation
@testable import HomeApp
import Testing

/// A form's own changes made to the version in force: each side's change kept, the form's first.
@Suite struct JSONMergeTests {
    static func value(_ text: String) throws -> JSONValue { try JSONValue(reading: Data(text.utf8)) }

    static func merged(_ base: String, _ mine: String, _ theirs: String) throws -> JSONValue {
        JSONMerge.merge(base: try value(base), mine: try value(mine), theirs: try value(theirs))
    }

    @Test func eachSidesChangeIsKeptAndTheFormsWinsOnTheSameValue() throws {
        #expect(try Self.merged(#"{"a": 1, "b": 1}"#, #"{"a": 2, "b": 1}"#, #"{"a": 1, "b": 3}"#) == Self.value(#"{"a": 2, "b": 3}"#))
        #expect(try Self.merged(#"{"a": 1}"#, #"{"a": 2}"#, #"{"a": 3}"#) == Self.value(#"{"a": 2}"#))
        // A key added by the one, removed by the other.
        #expect(try Self.merged(#"{"a": 1, "r": {"grid": 0.1}}"#, #"{"a": 1, "r": {"grid": 0.1}, "n": true}"#, #"{"a": 1, "r": {}}"#)
                == Self.value(#"{"a": 1, "r": {}, "n": true}"#))
    }

    @Test func listsOfOneLengthMergeItemByItemAndOthersAreTheForms() throws {
        let base = #"{"e": [{"name": "x", "groups": [{"w": 1}, {"w": 1}]}]}"#
        let mine = #"{"e": [{"name": "x", "groups": [{"w": 2}, {"w": 1}]}]}"#
        let theirs = #"{"e": [{"name": "x", "groups": [{"w": 1}, {"w": 5}]}]}"#
        #expect(try Self.merged(base, mine, theirs) == Self.value(#"{"e": [{"name": "x", "groups": [{"w": 2}, {"w": 5}]}]}"#))
        let longer = #"{"e": [{"name": "x", "groups": [{"w": 2}, {"w": 1}, {"w": 1}]}]}"#
        #expect(try Self.merged(base, longer, theirs) == Self.value(longer))
    }
}
