import Testing
@testable import MicroHTTP

/// A page's compressed forms are stored once, from whichever thread makes them first.
struct LazyReferenceTests {
    final class Form: Sendable {
        let name: String
        init(_ name: String) { self.name = name }
    }

    final class Holder: Sendable {
        let form = LazyReference<Form>()
    }

    @Test func theFirstStoreIsTheOneEveryLoadSees() {
        let holder = Holder()
        #expect(holder.form.load() == nil)
        let first = Form("first")
        #expect(holder.form.storeIfNil(first) === first)
        #expect(holder.form.storeIfNil(Form("second")) === first)
        #expect(holder.form.load() === first)
    }

    @Test func ofManyThreadsStoringAtOnceOneWinsAndTheLosersFormsAreFreed() async {
        let holder = Holder()
        weak var loser: Form?
        let stored = await withTaskGroup(of: ObjectIdentifier.self) { group in
            for index in 0..<16 {
                group.addTask { ObjectIdentifier(holder.form.storeIfNil(Form("\(index)"))) }
            }
            return await Set(group.reduce(into: []) { $0.append($1) })
        }
        #expect(stored.count == 1)
        do {
            let late = Form("late")
            loser = late
            holder.form.storeIfNil(late)
        }
        #expect(loser == nil)
    }

    @Test func theStoredFormLivesAsLongAsItsHolder() {
        weak var kept: Form?
        var holder: Holder? = Holder()
        do {
            let form = Form("held")
            kept = form
            holder?.form.storeIfNil(form)
        }
        #expect(kept != nil)
        holder = nil
        #expect(kept == nil)
    }
}
