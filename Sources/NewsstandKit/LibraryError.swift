import Foundation

/// What can go wrong with the library, in words a user can act on.
public enum LibraryError: Error, CustomStringConvertible, Equatable {
    case duplicateIssueName(String)
    case noSuchIssue(String)
    case noSuchPublication(String)
    case userInfoNotStorable(key: String)
    case unavailable(path: String, reason: String)
    case notDownloaded(String)
    case diskFull(path: String, freeBytes: Int64)

    public var description: String {
        switch self {
        case .duplicateIssueName(let name): return "an issue named '\(name)' is already in the library"
        case .noSuchIssue(let name): return "no issue named '\(name)' in the library (see `newsstand issues`)"
        case .noSuchPublication(let name): return "no publication '\(name)' in the library"
        case .userInfoNotStorable(let key): return "userInfo value for '\(key)' cannot be stored (use strings, numbers, booleans, arrays or dictionaries)"
        case .unavailable(let path, let reason): return "cannot open the library at \(path): \(reason)"
        case .notDownloaded(let name): return "issue '\(name)' is not downloaded yet (try `newsstand download \(name) --wait`)"
        case .diskFull(let path, let free):
            return "the disk holding \(path) is full (\(ByteSize.format(free)) free): nothing was changed"
        }
    }
}
