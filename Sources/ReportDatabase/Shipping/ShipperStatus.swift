#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The shipper's counters, for the report pages, `/metrics` and tests.
public struct ShipperStatus: Sendable, Equatable {
    /// Connected, with the schema in place.
    public var connected = false
    /// Events shipped since start, and the transactions that carried them.
    public var shippedEvents = 0
    public var batches = 0
    /// Lines skipped because they were not events.
    public var malformedLines = 0
    /// Failed attempts (connection, statement or commit) since start.
    public var errors = 0
    /// The latest failure, nil once shipping works again.
    public var lastError: String?
    /// The database refused the login or the schema: retried slowly, logged once.
    public var refused = false
    /// The segment the shipper is stopped at because it cannot read it, and why; nil while it
    /// reads. Shipping stays there (the lag grows) until an operator acts (docs/deployment.md).
    public var blocked: String?
    /// Reads that stopped at an unreadable segment (each retry counts).
    public var unreadableReads = 0
    /// Set-aside segments passed on purpose after an operator released them.
    public var skippedSegments = 0
    /// How far this instance's log is in the database (nil until connected once).
    public var position: ShipPosition?
    /// Every event written before this time is in the database.
    public var completeUntil: Date?
    /// Folds of the experiment visitors' changes this instance did, and the batches they took.
    public var visitorFolds = 0
    public var foldedBatches = 0
    /// Batches of visitor changes (any instance's) waiting to be folded at the latest look, and
    /// when the oldest of them was appended (nil: none waited).
    public var unfoldedBatches = 0
    public var unfoldedSince: Date?
    /// Seconds the experiment visitor figures are behind the shipped events (0 when folded up).
    public func foldLag(now: Date = Date()) -> Double {
        unfoldedSince.map { max(0, now.timeIntervalSince($0)) } ?? 0
    }
    /// Seconds of recent events not yet in the database (0 when caught up).
    public func lag(now: Date = Date()) -> Double? {
        completeUntil.map { max(0, now.timeIntervalSince($0)) }
    }
}
