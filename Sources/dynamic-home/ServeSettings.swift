import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import MicroHTTP
import Reporting

/// The serve flags checked: each value in the range that makes sense, or a `ValidationError` that
/// names the flag, what it allows and what it got. Built before anything is loaded or logged.
struct ServeSettings {
    /// The most seconds a connection may idle or take over a request head: beyond a day a slow
    /// client holds a slot as good as forever.
    static let longestConnectionTimeout = 86_400
    /// Retention beyond a century overflows the millisecond arithmetic of the report log.
    static let longestRetentionDays = 36_500

    var port: UInt16
    var reportSegmentBytes: Int64
    var reportRetention: TimeInterval?
    var reportMaxBytes: Int64?
    var reportMinFree: ReportLog.FreeSpaceFloor
    var reportWorkers: Int
    var playStatisticsInterval: Double
    var reportQueue: Int
    var reportVisitorRate: Double
    var reportVisitorBurst: Int
    var reportAddressRate: Double
    var reportAddressBurst: Int
    var reportDatabaseRetention: Int?
    var threads: Int?
    var connectionTimeout: UInt32
    var connectionLimit: UInt32
    var perAddressLimit: UInt32
    var trustedProxies: TrustedProxies

    init(_ command: ServeCommand) throws {
        for (flag, path) in [("--public", command.public), ("--content", command.content), ("--toggles", command.toggles),
                             ("--report-log", command.reportLog)] as [(String, String?)] where path?.isEmpty == true {
            throw ValidationError("\(flag) must name a path, not nothing")
        }
        port = UInt16(try command.port.whole("--port", 0...65535, unit: " (0 picks a free port)"))
        // A compressed segment's index holds 32-bit offsets.
        reportSegmentBytes = try command.reportSegmentBytes.size("--report-segment-bytes", 4096...(1 << 30))
        reportRetention = try command.reportRetention?.age("--report-retention", 1...(Double(Self.longestRetentionDays) * 86400))
        // Below one segment the cap would delete every closed segment as soon as it closes.
        reportMaxBytes = try command.reportMaxBytes?.size("--report-max-bytes", reportSegmentBytes...Int64.max,
                                                          minimum: "--report-segment-bytes (\(ByteSize.format(reportSegmentBytes)))")
        reportMinFree = try command.reportMinFree.floor("--report-min-free")
        reportWorkers = try command.reportWorkers.whole("--report-workers", 1...64)
        reportQueue = try command.reportQueue.whole("--report-queue", 0...10_000)
        playStatisticsInterval = try command.playStatisticsInterval.number("--play-statistics-interval", 0.1...3600, meaning: " seconds")
        let rate = " events a second (0 turns the limit off)"
        reportVisitorRate = try command.reportVisitorRate.number("--report-visitor-rate", 0...1_000_000, meaning: rate)
        reportVisitorBurst = try command.reportVisitorBurst.whole("--report-visitor-burst", 1...1_000_000, unit: " events")
        reportAddressRate = try command.reportAddressRate.number("--report-address-rate", 0...1_000_000, meaning: rate)
        reportAddressBurst = try command.reportAddressBurst.whole("--report-address-burst", 1...1_000_000, unit: " events")
        if command.reportDatabase?.isEmpty == true {
            throw ValidationError("--database must be a PostgreSQL URL (postgresql://…), not nothing")
        }
        if let instance = command.instance,
           instance.isEmpty || instance.utf8.count > 128 || instance.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            throw ValidationError("--instance must be a name of 1 to 128 bytes without control characters, not \(FlagValue(argument: instance).shown)")
        }
        reportDatabaseRetention = try command.reportDatabaseRetention?.whole("--report-database-retention", 1...Self.longestRetentionDays,
                                                                              unit: " days")
        threads = try command.threads?.whole("--threads", 1...256)
        connectionTimeout = UInt32(try command.connectionTimeout.whole("--connection-timeout", 1...Self.longestConnectionTimeout,
                                                                       unit: " seconds"))
        connectionLimit = UInt32(try command.connectionLimit.whole("--connection-limit", 1...1_000_000))
        // At the connection limit or above, one address could hold every slot.
        let perAddress = try command.perAddressLimit.whole("--per-address-limit", 0...1_000_000, unit: " (0: no limit)")
        guard perAddress < connectionLimit else {
            throw ValidationError("--per-address-limit must be below --connection-limit (\(connectionLimit)), not \(perAddress)")
        }
        perAddressLimit = UInt32(perAddress)
        do {
            trustedProxies = try TrustedProxies(command.trustedProxy)
        } catch {
            throw ValidationError("--trusted-proxy: \(error)")
        }
    }
}
