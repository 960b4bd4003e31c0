import MicroHTTP
import ScreenKit

/// `GET /admin/instances?kind=toggles|content&drawn=N`: the instances part of `/admin` or
/// `/admin/content` alone, as the HTML the page holds, for the page's script to put in place once a
/// second while it is shown; with a note when the version in force is newer than the page's, N.
/// Behind the admin pages' access check, run on the admin pool as they are. While the list cannot
/// be read from the database the part says so, answered 200 all the same: a 503 once a second
/// would have a balancer (nginx's `proxy_next_upstream http_503`) take every instance out in turn,
/// and the visitors' pages with them.
struct InstancesFragment {
    static let path = "/admin/instances"
    let routes: AdminRoutes

    func response(_ request: Request) throws(HTTPError) -> Response {
        var instances: AdminInstances
        switch request.query["kind"] {
        case TogglesDocument.names.kind: instances = AdminInstances(routes.versions)
        case CatalogueDocument.names.kind: instances = AdminInstances(routes.content)
        default: throw HTTPError(.badRequest, "kind must be \(TogglesDocument.names.kind) or \(CatalogueDocument.names.kind).")
        }
        guard instances.database != nil else {
            throw HTTPError(.notFound, "Without a report database (--report-database) there is only this instance: no list of instances.")
        }
        instances.drawnFrom = request.query["drawn"].flatMap { Int($0) }
        var writer = HTMLWriter(capacity: 4096)
        instances.renderInside(into: &writer)
        var response = Response.html(writer.finish())
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
