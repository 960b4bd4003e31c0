import Foundation

extension ServerProcess {
    /// A server with the shipped stylesheet and its report log `reports` in `folder`, and
    /// `arguments` besides. Without `eventLimits` the per-visitor and per-address limits are off:
    /// scripted visitors all come from one address.
    public static func reporting(to folder: TemporaryDirectory, eventLimits: Bool = true,
                                 _ arguments: [String] = []) throws -> ServerProcess {
        try ServerProcess(arguments: ["--port", "0", "--public", publicFolder, "--report-log", folder.path("reports")]
                          + (eventLimits ? [] : ["--report-visitor-rate", "0", "--report-address-rate", "0"]) + arguments)
    }
}
