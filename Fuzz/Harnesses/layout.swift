// libFuzzer target: bytes → HTML, Markdown or plain-text reader → Layout at a width
// taken from the first byte. Checks the invariant the terminal relies on: every span
// that comes out is clean (no control characters, no bidi overrides).
import Foundation
import TextLayout

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzLayout(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let selector = Int(bytes[0])
    let text = String(decoding: UnsafeBufferPointer(start: bytes + 1, count: count - 1), as: UTF8.self)
    let document: TextDocument
    switch selector % 3 {
    case 0: document = HTMLReader.document(html: text)
    case 1: document = MarkdownReader.document(markdown: text)
    default: document = PlainTextReader.document(text: text)
    }
    let width = 1 + (selector >> 2) % 100
    for line in Layout.lines(for: document, width: width) {
        for span in line.spans where !Sanitizer.isClean(span.text) {
            fatalError("unclean span in layout: \(Array(span.text.unicodeScalars.map(\.value)))")
        }
    }
    return 0
}
