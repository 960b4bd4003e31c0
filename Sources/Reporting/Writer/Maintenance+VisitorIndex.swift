#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Maintenance {
    /// Makes the visitor index of a compressed segment that has none (an older directory's, or
    /// one set aside as damaged when the directory was opened) from the segment's members. On
    /// this thread, not at open: indexing every segment of a long log takes a while, and until
    /// then a visitor's query reads all of a segment's members, as before the index.
    func indexVisitors(_ stamp: String) {
        guard let entry = catalog.entry(stamp), entry.compressed, entry.indexed, !entry.visitorIndexed,
              let index = catalog.index(entry) else { return }
        let path = catalog.visitorIndexPath(stamp)
        let file = SegmentName.visitorIndexFile(stamp)
        let fence: VisitorFence
        switch VisitorIndex.check(path, members: index.members.count - 1, bytes: entry.rollup.bytes) {
        case .whole(let found):
            fence = found
        case .missing:
            guard let written = rebuildVisitorIndex(entry, index: index, to: path) else { return }
            fence = written
        case .damaged(let problem):
            SegmentDirectory.setAside(catalog.directory, companion: file, reason: problem, repair: true, logger: logger)
            guard let written = rebuildVisitorIndex(entry, index: index, to: path) else { return }
            fence = written
        }
        catalog.update(stamp) { $0.visitorFence = fence }
    }

    /// Reads every member of the segment for its visitors and writes the index: its fence, nil if it cannot.
    private func rebuildVisitorIndex(_ entry: SegmentEntry, index: GzipIndex, to path: String) -> VisitorFence? {
        var visitors = VisitorIndex()
        do {
            let reader = try MemberReader(index: index, path: catalog.path(entry))
            for member in 0..<(index.members.count - 1) {
                let bytes = try reader.read(member)
                bytes.withUnsafeBytes { visitors.add(member: member, lines: $0, count: $0.count) }
            }
        } catch {
            logger.error("cannot read a segment to index its visitors; its visitor queries read every member",
                         metadata: ["segment": "\(SegmentName.dataFile(entry.stamp, compressed: true))", "error": "\(error)"])
            return nil
        }
        let bytes = visitors.encode(members: index.members.count - 1, bytes: entry.rollup.bytes)
        guard catalog.entry(entry.stamp) != nil, RollupFile.writeAtomically(bytes, to: path, sync: sync) else { return nil }
        logger.notice("indexed a segment's visitors", metadata: ["segment": "\(SegmentName.dataFile(entry.stamp, compressed: true))"])
        return VisitorIndex.fence(path, written: bytes)
    }
}
