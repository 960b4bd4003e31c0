import Basics
/// A text array as a query parameter: Postgres's array literal, every element quoted, so commas,
/// braces and quotes in a value stay in it.
enum PostgresArray {
    static func text(_ values: [String]) -> String {
        "{" + values.map { value in
            "\"" + value.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }.joined(separator: ",") + "}"
    }
}
