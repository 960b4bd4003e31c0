import Glibc

/// How many connections the process can hold open: each is a descriptor, and the content and
/// toggles files, the report log, static files being sent and the listening socket need theirs
/// too. A connection limit above what the descriptor limit allows fails as `accept` errors
/// under load, for everyone; below it, only the connections past the limit are refused.
enum DescriptorBudget {
    /// Descriptors kept for everything but connections.
    static let reserve: rlim_t = 256

    /// Raises the soft descriptor limit as far as the hard one allows and returns `wanted`, or
    /// fewer if even that leaves no room for the reserve.
    static func connections(wanted: UInt32) -> UInt32 {
        var limits = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limits) == 0 else { return wanted }
        let needed = rlim_t(wanted) + reserve
        if limits.rlim_cur < needed {
            var raised = limits
            raised.rlim_cur = min(needed, limits.rlim_max)
            if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) == 0 { limits = raised }
        }
        guard limits.rlim_cur < needed else { return wanted }
        return UInt32(limits.rlim_cur > reserve ? limits.rlim_cur - reserve : 1)
    }
}
