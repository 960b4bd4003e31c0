import Basics
import Foundation
import Testing

/// A file error in the operating system's words, whichever Foundation threw it.
@Suite struct ErrorTextTests {
    @Test func aMissingFolderIsNamedAsTheSystemNamesIt() {
        #expect(throws: (any Error).self) {
            do {
                _ = try FileManager.default.contentsOfDirectory(atPath: "/nonexistent-\(UInt64.random(in: 0...UInt64.max))")
            } catch {
                #expect(ErrorText.describe(error) == "No such file or directory")
                throw error
            }
        }
    }

    @Test func aPOSIXErrorIsItsMessage() {
        #expect(ErrorText.describe(POSIXError(.EACCES)) == "Permission denied")
    }
}
