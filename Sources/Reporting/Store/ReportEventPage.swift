/// One page of events, newest first.
public struct ReportEventPage: Sendable, Equatable {
    /// The events, newest first.
    public var events: [ReportEvent]
    /// Pass as `before:` to go on with older events; nil when there are none.
    public var next: ReportPosition?
}
