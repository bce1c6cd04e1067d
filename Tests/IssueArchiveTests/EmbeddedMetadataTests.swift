import Foundation
import Testing
@testable import IssueArchive

/// A content's date is read as a day however it was written; the names tools make up are not titles.
@Suite struct EmbeddedMetadataTests {
    static func utc(_ year: Int, _ month: Int, _ day: Int) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar.date(from: DateComponents(year: year, month: month, day: day))!
    }

    @Test(arguments: [("2024", utc(2024, 1, 1)), ("2024-03", utc(2024, 3, 1)), ("2024-03-09", utc(2024, 3, 9)),
                      ("2024-03-09T23:30:00-05:00", utc(2024, 3, 9)), (" 2019-05-04T08:00:00Z ", utc(2019, 5, 4))])
    func aDateIsReadAsItsDay(_ text: String, _ day: Date) {
        #expect(IssueMetadata(date: text).day == day)
    }

    @Test(arguments: ["0101-01-01T00:00:00+00:00", "2024-02-30", "2024-13", "March 2024", "24", "", "2024/03/09"])
    func whatIsNotAPlausibleDayIsNone(_ text: String) {
        #expect(IssueMetadata(date: text).day == nil)
    }

    @Test func placeholdersGiveWayAndRealNamesStay() {
        let junk = IssueMetadata(title: "Microsoft Word - Document1", creators: ["Unknown", "Ada Reef", "Administrator"])
        #expect(junk.withoutPlaceholders.title == nil)
        #expect(junk.withoutPlaceholders.creators == ["Ada Reef"])
        for title in ["Untitled", "untitled 3", "Document1", "report_final.docx", "  "] {
            #expect(IssueMetadata.isPlaceholder(title: title), "\(title)")
        }
        for title in ["The Unknown Sea", "Untitled Goose Stories", "Document of Tides", "Tide Pool #3"] {
            #expect(!IssueMetadata.isPlaceholder(title: title), "\(title)")
        }
    }
}
