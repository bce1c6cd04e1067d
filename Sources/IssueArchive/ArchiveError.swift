import Foundation

/// Why an archive was refused or an issue could not be opened, in one sentence a user can act on.
public struct ArchiveError: Error, CustomStringConvertible, Equatable, Sendable {
    /// What kind of problem this is, for code that reacts differently (tests, the agent's retry policy).
    public enum Kind: String, Sendable, Equatable {
        case unsafePath, unsafeEntryType, duplicateEntry, limitExceeded, overlappingEntries
        case checksumMismatch, encrypted, unsupportedMethod, inconsistent, truncated
        case notAZip, wrongFormat, invalidContent, io, destinationExists
    }

    public var kind: Kind
    public var message: String
    /// The `errno` behind an `.io` error (ENOSPC when the disk is full), for callers that pause
    /// and retry rather than fail.
    public var systemError: Int32?

    public init(_ kind: Kind, _ message: String, systemError: Int32? = nil) {
        self.kind = kind
        self.message = message
        self.systemError = systemError
    }

    /// The disk (or quota) is full: the archive itself may be fine; try again when there is room.
    public var isOutOfSpace: Bool { systemError.map(isOutOfSpaceError) ?? false }

    public var description: String { message }
}

extension ArchiveError {
    static func unsafePath(_ name: String, _ reason: String) -> ArchiveError {
        ArchiveError(.unsafePath, "archive entry '\(printable(name))' \(reason)")
    }

    static func io(_ what: String, _ path: String, errno code: Int32) -> ArchiveError {
        ArchiveError(.io, "cannot \(what) '\(path)': \(String(cString: strerror(code)))", systemError: code)
    }

    /// Entry names come from strangers: show control characters escaped, never raw.
    static func printable(_ name: String) -> String {
        var out = ""
        for scalar in name.unicodeScalars {
            switch scalar.value {
            case 0..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069:
                out += "\\u{\(String(scalar.value, radix: 16))}"
            default:
                out.unicodeScalars.append(scalar)
            }
        }
        return out.count > 200 ? String(out.prefix(200)) + "…" : out
    }
}
