import Basics
import Logging
import MicroHTTP

/// The errors of the report URLs a script reads (`/reports.json`, `/reports.jsonl`), as JSON:
/// `{"error":"…","status":400,"request":"…"}` with the status and headers the HTML page would
/// have had. A script parsing the response got an HTML page it could not read; browsers at
/// `/reports` keep the page. Outermost in the report group, so the access check's 401, 403 and
/// 429 are answered so too.
enum JSONErrors {
    /// Whether `path` answers JSON or JSON Lines, and so its errors as JSON.
    static func answersJSON(_ path: Substring) -> Bool {
        path.hasSuffix(".json") || path.hasSuffix(".jsonl")
    }

    static func middleware(logger: Logger) -> Middleware {
        { request, next in
            guard answersJSON(request.path) else { return try next(request) }
            return catching(request, logger: logger) { try next(request) }
        }
    }

    /// What `body` answers, or its error as JSON: for the work a route does later on a pool, past
    /// the middleware.
    static func catching(_ request: Request, logger: Logger, _ body: () throws -> Response) -> Response {
        do {
            return try body()
        } catch let error as HTTPError {
            if error.logged {
                logger.notice("request refused", metadata: [
                    "request": "\(request.id)", "status": "\(error.status.rawValue)", "error": "\(error.message)"])
            }
            var response = answer(error.status, error.message, requestID: request.id)
            for (name, value) in error.headers { response.headers.set(name, value) }
            return response
        } catch {
            logger.error("handler failed", metadata: ["request": "\(request.id)", "path": "\(request.path)", "error": "\(error)"])
            return answer(.internalServerError, "Something went wrong on our side. The request id says where.",
                          requestID: request.id)
        }
    }

    static func answer(_ status: Status, _ message: String, requestID: String) -> Response {
        let body = "{\"error\":\(JSONText.string(message)),\"status\":\(status.rawValue),\"request\":\(JSONText.string(requestID))}\n"
        return Response(status: status, headers: Headers([("Content-Type", "application/json"), ("Cache-Control", "no-store")]),
                        body: .bytes(Array(body.utf8)))
    }
}
