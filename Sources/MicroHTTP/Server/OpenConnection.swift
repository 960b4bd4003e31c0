/// What libmicrohttpd keeps for us per connection in its socket context, from its start notice to
/// its close notice: the connection's head deadline, and the request state its requests reuse.
/// A keep-alive connection's next request takes the last one's state, reset, instead of
/// allocating one (and freeing it at completion): only the connection's own thread touches it.
final class OpenConnection {
    /// nil while head deadlines are off.
    let deadline: ConnectionDeadline?
    /// The state the last request left, reset; nil while a request holds it, or when another
    /// reference kept it past its request.
    @exclusivity(unchecked) var spare: RequestState?

    init(deadline: ConnectionDeadline?) { self.deadline = deadline }

    /// The state for a new request: the spare one, or a new one when there is none.
    func take() -> RequestState {
        if let state = spare {
            spare = nil
            return state
        }
        return RequestState(owner: self)
    }

    /// A completed request's state: reset and kept for the next request, unless something else
    /// still holds it (it is then left to them, and the next request gets a new one).
    func giveBack(_ state: inout RequestState) {
        guard state.owner?.toOpaque() == Unmanaged.passUnretained(self).toOpaque(), isKnownUniquelyReferenced(&state)
        else { return }
        state.reset()
        spare = state
    }
}
