import ScreenKit

/// Renders a freshly built page many times and prints the median and p90 render time.
func measure(_ name: String, _ makePage: () -> Page) {
    let context = RenderContext(csrfToken: "b3JkZXItcGl6emEtcGxlYXNlLXRoYW5rcw")
    let page = makePage()
    var checksum = 0
    for _ in 0..<300 { checksum &+= page.render(context: context).count }
    var samples: [Duration] = []
    var bytes = 0
    let clock = ContinuousClock()
    for _ in 0..<3_000 {
        let start = clock.now
        let body = page.render(context: context)
        samples.append(clock.now - start)
        bytes = body.count
        checksum &+= Int(body[body.count / 2])
    }
    samples.sort()
    let median = microseconds(samples[samples.count / 2])
    let p90 = microseconds(samples[samples.count * 9 / 10])
    print("render-bench: \(name): median \(median) µs per render, p90 \(p90) µs, \(bytes) bytes [check \(checksum % 10)]")
}

/// Microseconds with one decimal, without Foundation.
func microseconds(_ duration: Duration) -> String {
    let nanoseconds = duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000
    let tenths = (nanoseconds + 50) / 100
    return "\(tenths / 10).\(tenths % 10)"
}
