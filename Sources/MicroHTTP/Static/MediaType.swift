/// Content types by file extension, for the files under `Public/`.
enum MediaType {
    static func forExtension(_ fileExtension: Substring) -> String {
        switch fileExtension.lowercased() {
        case "css": "text/css; charset=utf-8"
        case "js", "mjs": "text/javascript; charset=utf-8"
        case "json": "application/json"
        case "html", "htm": "text/html; charset=utf-8"
        case "txt", "md": "text/plain; charset=utf-8"
        case "svg": "image/svg+xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "webp": "image/webp"
        case "gif": "image/gif"
        case "ico": "image/x-icon"
        case "woff2": "font/woff2"
        case "woff": "font/woff"
        case "webmanifest": "application/manifest+json"
        default: "application/octet-stream"
        }
    }
}
