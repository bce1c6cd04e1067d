import Foundation
import Synchronization
import IssueArchive
import Testing
@testable import NewsstandKit

@Suite struct LocalFilesTests {
    func runAgent(_ library: Library) throws -> Agent.Outcome {
        var options = Agent.Options()
        options.retryPolicy = RetryPolicy(maxAttempts: 2, baseDelay: 0.01, maxDelay: 0.02)
        let formats = IssueFormats()
        formats.register(StandInPDF())
        options.formats = formats
        return try Agent(library: library, options: options).run()
    }

    func folder(_ temp: TemporaryLibrary) throws -> URL {
        let folder = temp.root.appendingPathComponent("My Magazines", isDirectory: true)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test func aFolderIsAPublicationOfItsFilesReadWhereTheyAre() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let folder = try folder(temp)
        try ContentDetailsTests.makeEPUB(at: folder.appendingPathComponent("tides.epub"), title: "The Tide Tables", authors: ["Ada Reef"])
        try Data("%PDF-1.7\n%%EOF\n".utf8).write(to: folder.appendingPathComponent("spring.pdf"))
        try Data("notes".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try Data("%PDF-1.7\n".utf8).write(to: folder.appendingPathComponent(".hidden.pdf"))

        let formats = IssueFormats()
        formats.register(StandInPDF())
        let (publication, result) = try temp.library.subscriptions.subscribe(localPath: folder, formats: formats)
        #expect(publication.title == "My Magazines")
        #expect(Library.isLocal(publication))
        #expect(result.added.sorted() == ["spring.pdf", "tides.epub"].map { folder.appendingPathComponent($0).absoluteString })
        // Ready at once: installed as they were added, no download to ask for.
        let installed = try temp.library.store.issues(publicationID: #require(publication.id))
        #expect(Set(installed.map(\.title)) == ["spring", "tides"])
        #expect(installed.first { $0.title == "spring" }?.contentType == "application/pdf")
        #expect(try installed.allSatisfy { try temp.library.downloads.enqueue($0) == nil })
        #expect(installed.allSatisfy { $0.status == .available })
        #expect(installed.first { $0.title == "tides" }?.shownTitle == "The Tide Tables")
        // Nothing was copied into a .part; the PDF is the same file, linked, not a copy.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.library.paths.partialDirectory.path).isEmpty)
        let pdfIssue = try #require(installed.first { $0.title == "spring" })
        let linked = temp.library.downloads.contentDirectory(for: pdfIssue).appendingPathComponent("issue.pdf")
        let inode = { (url: URL) in try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int }
        #expect(try inode(linked) == inode(folder.appendingPathComponent("spring.pdf")))
        // The user's files are where they were.
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("tides.epub").path))

        // Evicted to save space, a file is installed again by the agent from where it is.
        let book = try #require(installed.first { $0.title == "tides" })
        try temp.library.cache.evictContent(of: book)
        let bookID = try #require(book.id)
        let evicted = try #require(try temp.library.store.issue(id: bookID))
        let asset = try #require(try temp.library.downloads.enqueue(evicted))
        #expect(DownloadQueue.userInfo(of: asset)["inPlace"] as? Bool == true)
        #expect(try runAgent(temp.library) == .finished)
        #expect(try temp.library.store.issue(id: bookID)?.status == .available)
        #expect(try FileManager.default.contentsOfDirectory(atPath: temp.library.paths.partialDirectory.path).isEmpty)
    }

    @Test func refreshSeesFilesAddedAndSaysWhichWereRemoved() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let folder = try folder(temp)
        try Data("%PDF-1.7\n".utf8).write(to: folder.appendingPathComponent("one.pdf"))
        try Data("%PDF-1.7\n".utf8).write(to: folder.appendingPathComponent("two.pdf"))
        let (publication, _) = try temp.library.subscriptions.subscribe(localPath: folder)

        try FileManager.default.removeItem(at: folder.appendingPathComponent("one.pdf"))
        try Data("%PDF-1.7\n".utf8).write(to: folder.appendingPathComponent("three.PDF"))
        let result = try temp.library.subscriptions.refresh(publication)
        #expect(result.added == [folder.appendingPathComponent("three.PDF").absoluteString])
        #expect(result.removed == [folder.appendingPathComponent("one.pdf").absoluteString])
        let gone = try #require(try temp.library.store.issue(named: folder.appendingPathComponent("one.pdf").absoluteString))
        #expect(gone.lastError?.contains("its file was removed") == true)
    }

    /// The shelf's `R` refreshes through `refresh(_:done:)`, not a command: the files it installs
    /// are held to the budget there, as `subscribe` and `refresh` hold theirs.
    @Test func filesInstalledByARefreshSideBySideAreHeldToTheBudgetThen() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let folder = try folder(temp)
        try ContentDetailsTests.makeEPUB(at: folder.appendingPathComponent("tide-1.epub"), title: "Tide 1", authors: ["Ada Reef"])
        let (publication, subscribed) = try temp.library.subscriptions.subscribe(localPath: folder)
        #expect(subscribed.budget?.evicted == [], "within the default budget nothing goes")
        #expect(subscribed.budget?.line == nil)

        try FileManager.default.createDirectory(at: temp.library.paths.config, withIntermediateDirectories: true)
        try "cache_limit = \"1KiB\"\n".write(to: temp.library.paths.configFile, atomically: true, encoding: .utf8)
        for number in 2...3 {
            try ContentDetailsTests.makeEPUB(at: folder.appendingPathComponent("tide-\(number).epub"), title: "Tide \(number)", authors: ["Ada Reef"])
        }
        let results = Mutex<[Result<Library.SyncResult, Error>]>([])
        temp.library.subscriptions.refresh([publication]) { _, result in results.withLock { $0.append(result) } }
        let result = try #require(results.withLock { $0.first }).get()
        #expect(result.added.count == 2)
        let budget = try #require(result.budget)
        #expect(budget.limit == 1024 && budget.problem == nil)
        #expect(budget.evicted.count == 2, "the newest of a publication stays: \(budget.evicted.map(\.title))")
        #expect(budget.line?.hasPrefix("Removed 2 issue(s) to keep the cache within 1 KiB") == true, "\(budget.line ?? "")")
        let statuses = try temp.library.store.issues(publicationID: #require(publication.id)).map(\.status)
        #expect(statuses.filter { $0 == .available }.count == 1, "\(statuses)")
    }

    @Test func aFileToReadIsTheIssueOfItsFolderOrJoinsMyFilesReadyAtOnce() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let folder = try folder(temp)
        try ContentDetailsTests.makeEPUB(at: folder.appendingPathComponent("tides.epub"), title: "The Tide Tables", authors: ["Ada Reef"])
        let (magazines, _) = try temp.library.subscriptions.subscribe(localPath: folder)
        let ofTheFolder = try temp.library.subscriptions.issue(readingFile: folder.appendingPathComponent("tides.epub"))
        #expect(ofTheFolder.publicationId == magazines.id)
        #expect(ofTheFolder.status == .available)

        let loose = temp.root.appendingPathComponent("loose.epub")
        try ContentDetailsTests.makeEPUB(at: loose, title: "Loose Leaves", authors: [], date: "2001-02-03")
        let read = try temp.library.subscriptions.issue(readingFile: loose)
        #expect(read.status == .available && read.shownTitle == "Loose Leaves")
        #expect(try temp.library.store.publication(id: #require(read.publicationId))?.title == "My files")
        #expect(try temp.library.subscriptions.issue(readingFile: loose).id == read.id)
        // Added again, it keeps the day it gives, not its modification time.
        let readID = try #require(read.id)
        #expect(read.date == Date(timeIntervalSince1970: 981_158_400))
        try temp.library.subscriptions.subscribe(localPath: loose)
        #expect(try temp.library.store.issue(id: readID)?.date == Date(timeIntervalSince1970: 981_158_400))
        #expect(try temp.library.store.issues().count == 2)

        try Data("PK\u{05}\u{06}".utf8).write(to: temp.root.appendingPathComponent("broken.cbz"))
        #expect(throws: DownloadError.self) { try temp.library.subscriptions.issue(readingFile: temp.root.appendingPathComponent("broken.cbz")) }
    }

    @Test func aFoldersFilesAreDatedAndNamedByWhatTheySayAndOrderedBySeriesAndNumber() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let folder = try folder(temp)
        try ContentDetailsTests.makeEPUB(at: folder.appendingPathComponent("essay.epub"), title: "On Tides", authors: ["Ada Reef"],
                                         date: "2019-05-04T08:00:00+00:00")
        try ContentDetailsTests.makeEPUB(at: folder.appendingPathComponent("minutes of the meeting.epub"),
                                         title: "Microsoft Word - Document1", authors: ["Unknown"], date: "0101-01-01T00:00:00+00:00")
        for (file, number, day) in [("pool-ten.cbz", "10", 9), ("pool-two.cbz", "2", 30), ("pool-one.cbz", "1", 2)] {
            try ContentDetailsTests.makeCBZ(at: folder.appendingPathComponent(file),
                                            info: "<Series>Tide Pool</Series><Number>\(number)</Number><Year>2021</Year><Month>3</Month><Day>\(day)</Day>")
        }
        try Data("x".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        try Data("Rar!".utf8).write(to: folder.appendingPathComponent("annual.rar"))

        let (publication, result) = try temp.library.subscriptions.subscribe(localPath: folder)
        #expect(result.skipped == ["annual.rar", "notes.txt"])
        #expect(result.unreadable.isEmpty)
        let id = try #require(publication.id)
        let tiles = try ShelfReader(library: temp.library).storeTiles(publicationID: id).map(\.issue)
        #expect(tiles.map(\.shownTitle) == ["minutes of the meeting", "On Tides", "Tide Pool #1", "Tide Pool #2", "Tide Pool #10"])
        let utc = { (y: Int, m: Int, d: Int) -> Date in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            return calendar.date(from: DateComponents(year: y, month: m, day: d))!
        }
        #expect(tiles.first { $0.shownTitle == "On Tides" }?.date == utc(2019, 5, 4))
        #expect(tiles.first { $0.shownTitle == "Tide Pool #10" }?.date == utc(2021, 3, 9))
        // An impossible day (30 February is not; 30 March is) and calibre's "no date" are not dates.
        #expect(tiles.first { $0.shownTitle == "Tide Pool #2" }?.date == utc(2021, 3, 30))
        let minutes = try #require(tiles.first)
        #expect(minutes.authors.isEmpty)
        #expect(minutes.date != utc(101, 1, 1))
        // A refresh keeps the days the files gave.
        _ = try temp.library.subscriptions.refresh(publication)
        #expect(try temp.library.store.issue(id: #require(tiles[1].id))?.date == utc(2019, 5, 4))
    }

    @Test func aSingleFileJoinsMyFiles() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let first = temp.root.appendingPathComponent("a.pdf")
        let second = temp.root.appendingPathComponent("b.cbz")
        try Data("%PDF-1.7\n".utf8).write(to: first)
        try Data("PK\u{05}\u{06}".utf8).write(to: second)
        let (publication, added) = try temp.library.subscriptions.subscribe(localPath: first)
        let (again, _) = try temp.library.subscriptions.subscribe(localPath: second)
        #expect(publication.title == "My files")
        #expect(again.id == publication.id)
        #expect(added.added == [first.absoluteString])
        #expect(try temp.library.store.issues(publicationID: #require(publication.id)).count == 2)
        #expect(throws: DownloadError.self) { try temp.library.subscriptions.subscribe(localPath: temp.root.appendingPathComponent("nowhere.pdf")) }
        try Data("x".utf8).write(to: temp.root.appendingPathComponent("notes.txt"))
        #expect(throws: DownloadError.self) { try temp.library.subscriptions.subscribe(localPath: temp.root.appendingPathComponent("notes.txt")) }
    }

    @Test func copiedFilesAreDownloadedLikeAFeedsIssues() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let folder = try folder(temp)
        let pdf = folder.appendingPathComponent("copied.pdf")
        try Data("%PDF-1.7\n%%EOF\n".utf8).write(to: pdf)
        let (publication, _) = try temp.library.subscriptions.subscribe(localPath: folder, copy: true)
        #expect(publication.copiesFiles == true)
        let publicationID = try #require(publication.id)
        let issue = try #require(try temp.library.store.issues(publicationID: publicationID).first)
        let asset = try #require(try temp.library.downloads.enqueue(issue))
        #expect(DownloadQueue.userInfo(of: asset)["inPlace"] == nil)
        #expect(try runAgent(temp.library) == .finished)
        let issueID = try #require(issue.id)
        let stored = try #require(try temp.library.store.issue(id: issueID))
        #expect(stored.status == .available)
        let installed = temp.library.downloads.contentDirectory(for: stored).appendingPathComponent("issue.pdf")
        let inode = { (url: URL) in try FileManager.default.attributesOfItem(atPath: url.path)[.systemFileNumber] as? Int }
        #expect(try inode(installed) != inode(pdf))
    }

    /// What a file says is recorded by whoever installs it: a copied folder's files are
    /// installed by the agent, and take their day and series as files read in place do.
    @Test func copiedFilesInstalledByTheAgentAreDatedAndOrderedByWhatTheySay() throws {
        let temp = try TemporaryLibrary(inMemory: true)
        let folder = try folder(temp)
        for (file, number, day) in [("pool-ten.cbz", "10", 9), ("pool-two.cbz", "2", 30)] {
            try ContentDetailsTests.makeCBZ(at: folder.appendingPathComponent(file),
                                            info: "<Series>Tide Pool</Series><Number>\(number)</Number><Year>2021</Year><Month>3</Month><Day>\(day)</Day>")
        }
        let (publication, _) = try temp.library.subscriptions.subscribe(localPath: folder, copy: true)
        let publicationID = try #require(publication.id)
        for issue in try temp.library.store.issues(publicationID: publicationID) { try temp.library.downloads.enqueue(issue) }
        #expect(try runAgent(temp.library) == .finished)
        let tiles = try ShelfReader(library: temp.library).storeTiles(publicationID: publicationID).map(\.issue)
        #expect(tiles.map(\.shownTitle) == ["Tide Pool #2", "Tide Pool #10"])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        #expect(tiles.map(\.date) == [calendar.date(from: DateComponents(year: 2021, month: 3, day: 30)),
                                       calendar.date(from: DateComponents(year: 2021, month: 3, day: 9))])
    }
}
