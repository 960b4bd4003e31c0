import MicroHTTP

extension ReportsAccess {
    /// Around every report route: 401 unless the request may read the reports (`authorize`).
    var middleware: Middleware {
        { [self] request, next in
            try authorize(request)
            return try next(request)
        }
    }
}
