import Basics
import Glibc
import Synchronization

/// The small files of a `StaticFiles` folder, held in memory: a hit costs one `stat` instead of
/// resolving the path, opening, sending and closing the file, and the response leaves in one packet
/// with its head. An entry is used only while the file's identity (device, inode, size, mtime,
/// ctime) is what it was when read, so an edited, replaced or re-linked file is read again.
final class FileCache: Sendable {
    /// One file's bytes, read whole, what identified the file when it was read, its ETag,
    /// formatted once rather than on every hit, its fingerprint and its compressed forms.
    struct Entry: Sendable {
        let identity: FileStamp
        let bytes: [UInt8]
        let etag: String
        let fingerprint: String
        let compressed: PrecompressedFile?

        init(identity: FileStamp, bytes: [UInt8], compressed: PrecompressedFile?) {
            self.identity = identity
            self.bytes = bytes
            etag = identity.etag
            fingerprint = Fingerprint.of(bytes)
            self.compressed = compressed
        }
    }

    /// Files above this size are sent from disk with sendfile, never held.
    let maximumFileSize: Int
    /// The bytes held at most, over all files; past it, further files are sent from disk.
    let budget: Int
    private let entries = Mutex<(files: [String: Entry], bytes: Int)>(([:], 0))

    /// Where a file that changed while serving is compressed; without one it is served plain
    /// until it is read again at start.
    let compression: WorkPool?

    init(maximumFileSize: Int = 256 * 1024, budget: Int = 8 * 1024 * 1024, compression: WorkPool? = nil) {
        self.maximumFileSize = maximumFileSize
        self.budget = budget
        self.compression = compression
    }

    /// Bytes held now, over all files.
    var heldBytes: Int { entries.withLock { $0.bytes } }

    /// Whether a file of `size` bytes would be held now.
    func canHold(_ size: Int) -> Bool { size <= maximumFileSize && heldBytes + size <= budget }

    /// The entry for `key` if it was read from a file with this identity.
    func entry(_ key: String, matching identity: FileStamp) -> Entry? {
        entries.withLock { state in
            guard let entry = state.files[key] else { return nil }
            if entry.identity == identity { return entry }
            state.files[key] = nil
            state.bytes -= entry.bytes.count
            return nil
        }
    }

    /// Forgets `key`: its file is gone.
    func remove(_ key: String) {
        entries.withLock { state in
            if let entry = state.files.removeValue(forKey: key) { state.bytes -= entry.bytes.count }
        }
    }

    /// Reads the regular file open as `fd` whole (from its start; the caller closes it) and holds
    /// it under `key`, when it is small enough, fits the budget and did not change while it was
    /// read; nil otherwise. A text file's compressed forms are made now (`compressNow`, at start)
    /// or on another thread (a file that changed while serving: its requests get the plain bytes
    /// until they are ready); `sharedAs` names the file among every server's in this process.
    func load(_ key: String, descriptor fd: Int32, sharedAs name: String = "", compressible: Bool = false,
              compressNow: Bool = false) -> Entry? {
        guard let before = FileStamp(descriptor: fd), before.isRegularFile, canHold(before.size) else { return nil }
        var bytes = [UInt8](repeating: 0, count: before.size)
        let read = bytes.withUnsafeMutableBytes { Self.readFully(fd, into: $0) }
        guard read == before.size, FileStamp(descriptor: fd) == before else { return nil }
        var compressed: PrecompressedFile? = nil
        var isNew = false
        // Made once, so even a small icon is worth it (the forms are kept only when smaller).
        if compressible && !bytes.isEmpty {
            (compressed, isNew) = PrecompressedFile.forFile(name, before)
        }
        let entry = Entry(identity: before, bytes: bytes, compressed: compressed)
        if let compressed, isNew {
            if compressNow {
                compressed.make(from: bytes)
            } else {
                let held = bytes
                _ = compression?.submit { compressed.make(from: held) }
            }
        }
        return entries.withLock { state in
            let replaced = state.files[key]?.bytes.count ?? 0
            guard state.bytes - replaced + bytes.count <= budget else { return nil }
            state.files[key] = entry
            state.bytes += bytes.count - replaced
            return entry
        }
    }

    private static func readFully(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        let done = FileIO.readFully(fd, into: buffer).count
        // A file that grew since its size was taken is not whole: one more byte says so.
        var extra: UInt8 = 0
        return withUnsafeMutableBytes(of: &extra) { FileIO.readSome(fd, into: $0) } > 0 ? done + 1 : done
    }
}
