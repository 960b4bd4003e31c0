/// Bytes sent as they are except for some ranges, each replaced by the same short value: a
/// cached page with this visitor's token in its slots. libmicrohttpd gathers the pieces straight
/// from both arrays (an I/O vector), so the page is neither copied nor rebuilt per request.
public struct SplicedBody: Sendable {
    let base: [UInt8]
    let holes: [Range<Int>]
    let filling: [UInt8]

    /// `holes` must be sorted, disjoint and inside `base`.
    public init(base: [UInt8], holes: [Range<Int>], filling: [UInt8]) {
        precondition(zip(holes, holes.dropFirst()).allSatisfy { $0.upperBound <= $1.lowerBound }
                     && (holes.last?.upperBound ?? 0) <= base.count, "holes must be sorted, disjoint, inside")
        self.base = base
        self.holes = holes
        self.filling = filling
    }

    /// The pieces in order, as ranges of `base` (`.base`) or the filling (`.filling`).
    enum Piece: Equatable { case base(Range<Int>), filling }

    var pieces: [Piece] {
        var pieces: [Piece] = []
        var start = 0
        for hole in holes {
            if start < hole.lowerBound { pieces.append(.base(start..<hole.lowerBound)) }
            if !filling.isEmpty { pieces.append(.filling) }
            start = hole.upperBound
        }
        if start < base.count { pieces.append(.base(start..<base.count)) }
        return pieces
    }

    /// The body as one array (for tests and for anything that wants the bytes).
    public var bytes: [UInt8] {
        pieces.reduce(into: []) { out, piece in
            switch piece {
            case .base(let range): out += base[range]
            case .filling: out += filling
            }
        }
    }
}
