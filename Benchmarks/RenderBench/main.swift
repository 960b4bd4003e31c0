// Render benchmark (not a test): a 100-row page of escaped titles and descriptions, rendered
// many times in release; prints the median µs per render and the page size.
// Build: swift build -c release --product render-bench --scratch-path .build-release
import ScreenKit

struct Row {
    let id: String
    let title: String
    let description: String
}

final class BenchListView: RootView {
    init() {}
    static var tag: StaticString { "section" }

    func renderAttributes(_ model: [Row], into writer: inout HTMLWriter, context: RenderContext) {
        writer.write(" class=\"list\"")
    }

    func renderContent(_ model: [Row], into writer: inout HTMLWriter, scope: RenderScope) {
        writer.write("<ul class=\"list__items\">")
        for row in model {
            writer.write("<li class=\"list__item\"><a class=\"list__link\"")
            writer.urlAttribute("href", "/long/" + row.id)
            writer.attribute("data-item", row.id)
            writer.write("><h2 class=\"list__title\">")
            writer.text(row.title)
            writer.write("</h2><p class=\"list__text\">")
            writer.text(row.description)
            writer.write("</p></a></li>")
        }
        writer.write("</ul>")
    }
}

final class BenchList: GenericViewController<[Row], BenchListView> {
    override var pageTitle: String? { "Home" }
}

let rows = (1...100).map { index in
    Row(id: "m-\(index)",
        title: "Episode \(index): Tom & Jerry's <Pizza>",
        description: "Crust, cheese & tomato — \"fresh\" and 'hot' daily.")
}

let container = ViewController()
container.embed(BenchList(viewModel: rows))
let page = Page(root: container)
let context = RenderContext(csrfToken: "b3JkZXItcGl6emEtcGxlYXNlLXRoYW5rcw")

var checksum = 0
var bytes = 0
let clock = ContinuousClock()
for _ in 0..<300 { checksum &+= page.render(context: context).count }

var samples: [Duration] = []
samples.reserveCapacity(3_000)
for _ in 0..<3_000 {
    let start = clock.now
    let body = page.render(context: context)
    samples.append(clock.now - start)
    bytes = body.count
    checksum &+= Int(body[body.count / 2])
}
samples.sort()

/// Microseconds with one decimal, without Foundation.
func microseconds(_ duration: Duration) -> String {
    let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    let tenths = (nanoseconds + 50) / 100
    return "\(tenths / 10).\(tenths % 10)"
}

let median = microseconds(samples[samples.count / 2])
let p90 = microseconds(samples[samples.count * 9 / 10])
print("render-bench: median \(median) µs per render, p90 \(p90) µs, \(bytes) bytes (100 rows) [check \(checksum % 10)]")
