extension ReportStore {
    /// Segments set aside because they cannot be read, oldest first: in `damaged/` when the store
    /// was opened, or found damaged since while answering a query.
    public var setAsideSegments: [SetAsideSegment] { setAside.withLock { $0 } }

    /// A read of segment `stamp` failed. Damaged data sets the segment aside (once: out of the
    /// catalogue, into `damaged/`, logged) so later queries serve the rest; a system error, which
    /// a retry may not meet again, is only logged.
    func readFailed(stamp: String, _ error: any Error) {
        guard let scan = error as? ScanError, let damage = scan.damage else {
            logger.error("reading a report segment failed", metadata: ["segment": "\(stamp)", "error": "\(error)"])
            return
        }
        guard let entry = catalog.entry(stamp), !entry.active else { return }
        let file = SegmentName.dataFile(stamp, compressed: entry.compressed)
        let first = setAside.withLock { list -> Bool in
            guard !list.contains(where: { $0.file == file }) else { return false }
            list.append(SetAsideSegment(file: file, reason: damage, events: entry.rollup.lines, released: false))
            return true
        }
        guard first else { return }
        catalog.remove(stamp)
        _ = SegmentDirectory.setAside(catalog.directory, stamp: stamp, compressed: entry.compressed, reason: damage,
                                      events: entry.rollup.lines, repair: movesDamaged, logger: logger)
    }
}
