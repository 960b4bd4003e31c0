import Basics
import Testing

/// Path components as `NSString`'s path methods split them.
@Suite struct PathTextTests {
    @Test(arguments: [("/a/b", "b", "/a"), ("/a/b/", "b", "/a"), ("/", "/", "/"), ("a", "a", ""), ("a/b", "b", "a"),
                      ("/a", "a", "/"), ("reports/events-1.jsonl.gz", "events-1.jsonl.gz", "reports")])
    func theLastComponentAndTheDirectory(path: String, last: String, directory: String) {
        #expect(PathText.lastComponent(path) == last)
        #expect(PathText.directory(path) == directory)
    }

    @Test func joiningPutsOneSlashBetween() {
        #expect(PathText.join("/var/lib", "sign-outs") == "/var/lib/sign-outs")
        #expect(PathText.join("/var/lib/", "sign-outs") == "/var/lib/sign-outs")
        #expect(PathText.join("", "sign-outs") == "sign-outs")
    }
}
