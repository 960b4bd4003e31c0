import Synchronization

/// A reference stored at most once and then read without a lock: `AtomicLazyReference`'s job.
/// The standard library's is not specialised here: each load looked up `Unmanaged`'s generic
/// metadata, some 500 instructions, on every compressed response.
struct LazyReference<Instance: AnyObject & Sendable>: ~Copyable, Sendable {
    /// The retained instance's address, 0 until one is stored.
    private let address = Atomic<Int>(0)

    init() {}

    func load() -> Instance? {
        UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring)).map(Self.instance)
    }

    /// Stores `instance` unless one is stored already; the one stored.
    @discardableResult
    func storeIfNil(_ instance: Instance) -> Instance {
        let retained = Unmanaged.passRetained(instance)
        let (stored, current) = address.compareExchange(
            expected: 0, desired: Int(bitPattern: retained.toOpaque()), ordering: .acquiringAndReleasing)
        guard !stored, let other = UnsafeRawPointer(bitPattern: current) else { return instance }
        retained.release()
        return Self.instance(at: other)
    }

    deinit {
        if let stored = UnsafeRawPointer(bitPattern: address.load(ordering: .acquiring)) {
            Unmanaged<Instance>.fromOpaque(stored).release()
        }
    }

    private static func instance(at address: UnsafeRawPointer) -> Instance {
        Unmanaged<Instance>.fromOpaque(address).takeUnretainedValue()
    }
}
