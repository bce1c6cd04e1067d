import IssueArchive
import Testing
@testable import Shelf

/// A page that cannot be read as text says so once: the PDF's own error already names the
/// page and the file, and is not wrapped in a second sentence that names them again.
@Suite struct PageTextErrorTests {
    @Test func aReasonThatNamesThePageIsTheWholeMessage() throws {
        let page = try #require(PagePath("bomb.pdf#page=1"))
        let reason = "page 1 of bomb.pdf cannot be read: its contents inflate to more than 16 MB"
        #expect(PageTextError.unreadable(page, reason).description == reason)
    }

    @Test func anyOtherReasonIsToldWithThePage() throws {
        let page = try #require(PagePath("bomb.pdf#page=2"))
        #expect(PageTextError.unreadable(page, "the PDF worker sent a malformed answer").description
            == "page 2 of bomb.pdf cannot be read as text: the PDF worker sent a malformed answer")
        // The reason names another page: both are told.
        #expect(PageTextError.unreadable(page, "page 1 of bomb.pdf cannot be read").description
            == "page 2 of bomb.pdf cannot be read as text: page 1 of bomb.pdf cannot be read")
    }
}
