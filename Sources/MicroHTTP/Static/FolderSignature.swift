import Glibc

/// One number for the names and `FileStamp`s of every file below a folder (hidden ones left out,
/// links followed), made without a Swift string: a file added, removed, renamed, replaced or
/// edited changes it. The assets watcher compares it once a second, and reads the files again
/// only when it moved (walking them with strings and dictionaries cost the idle server about
/// two million instructions a second).
enum FolderSignature {
    static func of(_ folder: String) -> UInt64 {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return 0 }
        return of(descriptor, seed: 0xcbf2_9ce4_8422_2325, depth: 0)
    }

    /// Entries are summed, so the order `readdir` gives them in does not matter. Closes `descriptor`.
    private static func of(_ descriptor: Int32, seed: UInt64, depth: Int) -> UInt64 {
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return 0
        }
        defer { closedir(directory) }
        var sum: UInt64 = 0
        while let entry = readdir(directory) {
            var name = seed
            let hidden = withUnsafeBytes(of: &entry.pointee.d_name) { bytes -> Bool in
                guard bytes.first != UInt8(ascii: ".") else { return true }
                for byte in bytes {
                    if byte == 0 { break }
                    name = (name ^ UInt64(byte)) &* 0x100_0000_01b3
                }
                return false
            }
            if hidden { continue }
            var info = stat()
            let found = withUnsafeBytes(of: &entry.pointee.d_name) { bytes in
                fstatat(dirfd(directory), bytes.baseAddress!.assumingMemoryBound(to: CChar.self), &info, 0) == 0
            }
            guard found else { continue }
            var value = mix(name ^ UInt64(info.st_dev)) ^ mix(UInt64(info.st_ino) &+ UInt64(bitPattern: Int64(info.st_size)))
            value ^= mix(UInt64(bitPattern: Int64(info.st_mtim.tv_sec)) &* 1_000_000_007 &+ UInt64(info.st_mtim.tv_nsec))
            value ^= mix(UInt64(bitPattern: Int64(info.st_ctim.tv_sec)) &* 998_244_353 &+ UInt64(info.st_ctim.tv_nsec) &+ UInt64(info.st_mode))
            sum &+= mix(value)
            if (info.st_mode & S_IFMT) == S_IFDIR, depth < 32 {
                let child = withUnsafeBytes(of: &entry.pointee.d_name) { bytes in
                    openat(dirfd(directory), bytes.baseAddress!.assumingMemoryBound(to: CChar.self),
                           O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                }
                if child >= 0 { sum &+= of(child, seed: mix(name), depth: depth + 1) }
            }
        }
        return sum
    }

    /// SplitMix64's finaliser: every input bit moves about half the output bits.
    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9e37_79b9_7f4a_7c15
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
