/// A `ViewingActivity` as 32-bit words. The header word holds the counts: titles in progress
/// (bits 0–7), on the list (8–15), finished (16–23), and in bit 24 whether the title last played
/// is one apart from the first in progress (then it follows the header). Then three words per
/// title in progress (title, position, duration), one per title listed, one per title finished.
/// A visitor who played one title is four words: their slot holds it.
enum ViewingWords {
    static func length(header: UInt32) -> Int {
        let inProgress = Int(header & 0xFF), listed = Int(header >> 8 & 0xFF), finished = Int(header >> 16 & 0xFF)
        return 1 + Int(header >> 24 & 1) + 3 * inProgress + listed + finished
    }

    static func encode(_ activity: ViewingActivity, titles: inout TitleNumbers) -> [UInt32] {
        let separateLatest = activity.latestStarted.map { $0 != activity.inProgress.first?.item } ?? false
        var words: [UInt32] = [UInt32(activity.inProgress.count) | UInt32(activity.myList.count) << 8
                               | UInt32(activity.finished.count) << 16 | (separateLatest ? 1 << 24 : 0)]
        if separateLatest, let latest = activity.latestStarted { words.append(titles.number(latest)) }
        for progress in activity.inProgress {
            words += [titles.number(progress.item), UInt32(clamping: progress.position), UInt32(clamping: progress.duration)]
        }
        words += activity.myList.map { titles.number($0) }
        words += activity.finished.map { titles.number($0) }
        return words
    }

    /// The activity `words` hold; titles the numbers no longer name are left out.
    static func decode(_ words: [UInt32], titles: TitleNumbers) -> ViewingActivity {
        guard let header = words.first, words.count >= length(header: header) else { return ViewingActivity() }
        var at = 1
        func next() -> UInt32 { defer { at += 1 }; return words[at] }
        let latest = header >> 24 & 1 == 1 ? titles.id(next()) : nil
        var inProgress: [ViewingActivity.Progress] = []
        for _ in 0..<Int(header & 0xFF) {
            let (item, position, duration) = (next(), next(), next())
            if let id = titles.id(item) { inProgress.append(.init(item: id, position: Int(position), duration: Int(duration))) }
        }
        let listed = (0..<Int(header >> 8 & 0xFF)).compactMap { _ in titles.id(next()) }
        let finished = (0..<Int(header >> 16 & 0xFF)).compactMap { _ in titles.id(next()) }
        return ViewingActivity(inProgress: inProgress, myList: listed, finished: finished,
                               latestStarted: latest ?? (header >> 24 & 1 == 1 ? nil : inProgress.first?.item))
    }
}
