#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The coarse monotonic clock (`CLOCK_MONOTONIC_COARSE`): it moves in ticks of a few milliseconds
/// and is read without a system call. Rates of events a second and deadlines of seconds need no
/// finer clock, and some are read on every request.
public enum CoarseClock {
    /// Nanoseconds since an arbitrary start, in the clock's ticks.
    @inlinable
    public static var nanoseconds: Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// The same in seconds.
    @inlinable
    public static var seconds: Double {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC_COARSE, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }
}
