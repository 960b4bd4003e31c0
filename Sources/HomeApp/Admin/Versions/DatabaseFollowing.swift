/// What the follower keeps up to date with the report database: the toggles' versions and the
/// catalogue's, each installing what is new and saying which version it serves.
protocol DatabaseFollowing: Sendable {
    var status: ConfigSyncStatus { get }
    /// Installs the versions newer than the one here (seeding an empty database first); throws
    /// while the database cannot answer.
    func catchUp() throws
}

