import Foundation
import Glibc
import HomeAppTestSupport
import Testing
import TestSupport
@testable import HomeApp

private typealias F = ContentFixtures

/// The configuration is read, never served, and a content file is bounded in size and items.
@Suite struct ConfigFilesTests {
    @Test(arguments: [
        "/assets/content.json", "/assets/toggles.json", "/assets/README.md",
    ])
    func contentTogglesAndTheFoldersNotesAreNotServedUnderAssets(path: String) throws {
        let fixture = try AppFixture()
        #expect(try fixture.browser().get(path).status == 404)
        #expect(try fixture.browser().get("/assets/app.css").status == 200)
    }

    /// The 404 page names the path asked for, `/assets` included.
    @Test func aMissingAssetsPageNamesItsWholePath() throws {
        let response = try AppFixture().browser().get("/assets/nope.css")
        #expect(response.status == 404)
        #expect(response.text.contains("There is no file at /assets/nope.css."))
    }

    /// A quoted address's control characters, which HTML may not hold, show as U+FFFD.
    @Test func anErrorPageQuotesNoControlCharacter() throws {
        let response = try AppFixture().browser().get("/long/%1B%5B31mX%E2%80%A8")
        #expect(response.status == 404)
        #expect(response.text.contains("nothing called \u{201C}\u{FFFD}[31mX\u{FFFD}\u{201D}") && !response.text.contains("\u{1B}"),
                "\(response.text)")
    }

    /// A quoted direction override would turn the rest of the message backwards: it shows as U+FFFD.
    @Test func anErrorPageQuotesNoDirectionControl() throws {
        let response = try AppFixture().browser().get("/long/%E2%80%AEX%E2%81%A6")
        #expect(response.status == 404)
        #expect(response.text.contains("nothing called \u{201C}\u{FFFD}X\u{FFFD}\u{201D}") && !response.text.contains("\u{202E}"),
                "\(response.text)")
    }

    @Test func withoutContentAndTogglesTheAppReadsConfigBesideThePublicFolder() {
        let configuration = AppConfiguration(publicFolder: AppFixture.publicFolder.path)
        #expect(configuration.contentFile == AppFixture.configFolder.appendingPathComponent("content.json").path)
        #expect(configuration.togglesFile == AppFixture.configFolder.appendingPathComponent("toggles.json").path)
        #expect(FileManager.default.fileExists(atPath: configuration.contentFile))
        #expect(FileManager.default.fileExists(atPath: configuration.togglesFile))
    }

    @Test func aContentFileOverTheSizeCapIsRefusedNamingTheCap() throws {
        let directory = try F.temporaryDirectory()
        defer { directory.remove() }
        let url = directory.url.appendingPathComponent("big.json")
        let padding = String(repeating: " ", count: ContentCatalog.maximumFileBytes)
        try F.write(F.file(F.longItem) + padding, to: url)
        let error = #expect(throws: ContentCatalogError.self) { try ContentCatalog.load(contentsOf: url) }
        #expect(error?.description == "\(url.relativePath): is larger than the 4 MiB a content file may have")
    }

    @Test func aCatalogueOverTheItemCapIsRefusedNamingTheCap() throws {
        let items = (0...ContentCatalog.maximumItems).map { index in
            F.longItem.replacingOccurrences(of: "m-001", with: "m-\(index)")
                .replacingOccurrences(of: "images/posters/m-\(index).svg", with: "images/posters/m-001.svg")
        }
        let text = "{\"version\":1,\"items\":[" + items.joined(separator: ",") + "]}"
        let error = #expect(throws: ContentCatalogError.self) {
            try ContentCatalog.decode(Data(text.utf8), file: "content.json")
        }
        #expect(error?.description == "content.json: field \"items\" has 1001 items; the most a catalogue may have is 1000")
    }

    @Test func aNamedPipeAsTheContentFileIsRefusedAtOnce() throws {
        let directory = try F.temporaryDirectory()
        defer { directory.remove() }
        let path = directory.url.appendingPathComponent("pipe.json").path
        #expect(mkfifo(path, 0o600) == 0)
        let error = #expect(throws: ContentCatalogError.self) { try ContentCatalog.load(contentsOf: URL(fileURLWithPath: path)) }
        #expect(error?.description.hasSuffix("is not a regular file") == true)
    }
}
