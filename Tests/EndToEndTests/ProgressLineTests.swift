import Foundation
import Testing
@testable import newsstand
@testable import NewsstandKit

/// `download --wait` prints sizes the one way the program prints them.
@Suite struct ProgressLineTests {
    @Test func nothingWrittenYetIsZeroBytesNotWords() {
        #expect(ProgressDisplay.line(name: "courier-2026-11-18", download: nil) == "courier-2026-11-18 starting  0 B")
    }
}

/// An edition's build is counted in articles and pictures, never as bytes.
@Suite struct BuildProgressLineTests {
    static func build(_ state: AssetDownload.State, _ progress: EditionBuildProgress?) -> AssetDownload {
        AssetDownload(identifier: "x", issueId: 1, url: "newsstand-edition:edition:1:2026-11-24", headers: "{}", userInfo: "{}",
                      kind: .archive, state: state, bytesWritten: 0, bytesExpected: nil, bytesPerSecond: nil, etag: nil,
                      lastModified: nil, attempts: 0, lastError: nil, createdAt: Date(), finishedAt: nil,
                      builtArticles: progress?.articles, articlesToBuild: progress?.articlesTotal,
                      builtPictures: progress?.pictures, picturesToBuild: progress?.picturesTotal)
    }

    @Test func aQueuedEditionWaitsToBeBuiltAndABuildShowsItsCounts() {
        #expect(ProgressDisplay.line(name: "e", download: Self.build(.queued, nil)) == "e waiting to be built")
        #expect(ProgressDisplay.line(name: "e", download: Self.build(.active, EditionBuildProgress(articles: 3, articlesTotal: 12)))
                == "e [###---------------------]   12%  articles 3 of 12")
        #expect(ProgressDisplay.line(name: "e", download: Self.build(.active, EditionBuildProgress(articles: 12, articlesTotal: 12,
                                                                                                    pictures: 18, picturesTotal: 48)))
                == "e [############------------]   50%  articles 12 of 12, pictures 18 of 48")
    }
}
