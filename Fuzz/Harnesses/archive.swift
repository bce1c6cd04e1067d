// libFuzzer target: bytes → a zip file → SafeExtractor into a fresh directory →
// IssueReader.open → ArchiveReport. After each run nothing may exist outside the
// destination, and nothing inside it may be a symbolic link.
import Foundation
import IssueArchive

private let scratch: URL = {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("newsstand-fuzz-archive-\(getpid())", isDirectory: true)
    try? FileManager.default.removeItem(at: url)
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let fm = FileManager.default
    let archive = scratch.appendingPathComponent("input.zip")
    let destination = scratch.appendingPathComponent("issue", isDirectory: true)
    defer {
        try? fm.removeItem(at: destination)
        try? fm.removeItem(at: archive)
    }
    guard fm.createFile(atPath: archive.path, contents: Data(bytes: bytes, count: count)) else { return 0 }
    do {
        try SafeExtractor.extract(archive: archive, to: destination)
        let content = try IssueReader.open(directory: destination)
        _ = ArchiveReport.summary(content)
        _ = try? ArchiveReport.json(content)
    } catch {
        _ = String(describing: error)
    }
    // Containment: the scratch directory holds only the input and the destination.
    let top = Set((try? fm.contentsOfDirectory(atPath: scratch.path)) ?? [])
    precondition(top.isSubset(of: ["input.zip", "issue"]), "extraction wrote beside its destination: \(top)")
    if let walker = fm.enumerator(at: destination, includingPropertiesForKeys: [.isSymbolicLinkKey]) {
        for case let url as URL in walker {
            let link = (try? url.resourceValues(forKeys: [.isSymbolicLinkKey]).isSymbolicLink) ?? false
            precondition(link != true, "extraction made a symbolic link: \(url.path)")
        }
    }
    return 0
}
