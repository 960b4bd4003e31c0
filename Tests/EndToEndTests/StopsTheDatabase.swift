import Testing

extension Tag {
    /// A test that stops PostgreSQL: its suite gives it a cluster of its own (`ownCluster`), so it
    /// stops no other test's database.
    @Tag static var stopsTheDatabase: Self
}

extension Test {
    /// Whether the test running now is tagged `stopsTheDatabase`; read while its suite is made.
    static var stopsTheDatabase: Bool { current?.tags.contains(.stopsTheDatabase) == true }
}
