import Foundation

/// KOReader's sync protocol (kosync) as it travels: the headers, the request and response
/// bodies, the error codes, and how a document and a password are named. Both sides use
/// these: `KOSyncClient` here, and a server that speaks kosync to KOReader.
///
/// Written from the published API (KOReader's kosync plugin and koreader-sync-server):
/// `POST /users/create`, `GET /users/auth`, `PUT /syncs/progress`,
/// `GET /syncs/progress/{document}`, each with `Accept: application/vnd.koreader.v1+json`
/// and, but for the first, `x-auth-user` and `x-auth-key`.
public enum KOSyncWire {
    /// The media type every request accepts; the server routes by it (version 1).
    public static let accept = "application/vnd.koreader.v1+json"
    public static let userHeader = "x-auth-user"
    public static let keyHeader = "x-auth-key"

    public enum Path {
        public static let createUser = "/users/create"
        public static let auth = "/users/auth"
        public static let progress = "/syncs/progress"
        /// `GET`: the place kept for `document`.
        public static func progress(of document: String) -> String { "/syncs/progress/\(document)" }
    }

    /// What `x-auth-key` carries, and what `/users/create` stores: the MD5 of the password,
    /// 32 lower-case hex digits (KOReader never sends the password itself).
    public static func userKey(password: String) -> String { LibcryptoDigest.hex(of: password, .md5) }

    /// `POST /users/create`'s body (`password` is the user key, not the password).
    public struct CreateUser: Codable, Sendable, Equatable {
        public var username: String
        public var password: String
        public init(username: String, password: String) { self.username = username; self.password = password }
    }

    /// `201` to `/users/create`.
    public struct Created: Codable, Sendable, Equatable {
        public var username: String
        public init(username: String) { self.username = username }
    }

    /// `200` to `/users/auth`: `{"authorized": "OK"}`.
    public struct Authorized: Codable, Sendable, Equatable {
        public var authorized: String
        public init(authorized: String = "OK") { self.authorized = authorized }
    }

    /// A place: `PUT /syncs/progress`'s body, and `GET /syncs/progress/{document}`'s answer
    /// (which adds `timestamp`, seconds since 1970 stamped by the server; an unknown
    /// document answers `{}`, every field absent).
    ///
    /// `progress` is a page number (from 1) for paged documents and an XPointer for
    /// reflowed ones; `percentage` is 0…1 through the whole document.
    public struct Progress: Codable, Sendable, Equatable {
        public var document: String?
        public var progress: String?
        public var percentage: Double?
        public var device: String?
        public var deviceID: String?
        public var timestamp: Int64?

        enum CodingKeys: String, CodingKey {
            case document, progress, percentage, device, timestamp
            case deviceID = "device_id"
        }

        public init(document: String?, progress: String?, percentage: Double?, device: String?, deviceID: String?,
                    timestamp: Int64? = nil) {
            (self.document, self.progress, self.percentage, self.device, self.deviceID, self.timestamp)
                = (document, progress, percentage, device, deviceID, timestamp)
        }

        /// The server keeps nothing for the document.
        public var isEmpty: Bool { progress == nil && percentage == nil }
    }

    /// `200` to `PUT /syncs/progress`.
    public struct Updated: Codable, Sendable, Equatable {
        public var document: String
        public var timestamp: Int64
        public init(document: String, timestamp: Int64) { self.document = document; self.timestamp = timestamp }
    }

    /// Every refusal: `{"code": N, "message": "…"}` with the status the code goes with.
    public struct Failure: Codable, Sendable, Equatable {
        public var code: Int
        public var message: String
        public init(code: Int, message: String) { self.code = code; self.message = message }

        public static let unauthorized = Failure(code: 2001, message: "Unauthorized")
        public static let userExists = Failure(code: 2002, message: "Username is already registered.")
        public static let invalidRequest = Failure(code: 2003, message: "Invalid request")
        public static let documentMissing = Failure(code: 2004, message: "Field 'document' not provided.")
        public static let unknown = Failure(code: 2000, message: "Unknown server error.")

        /// The HTTP status the reference server answers this code with.
        public var status: Int {
            switch code {
            case 2001: 401
            case 2002: 402
            case 2003, 2004: 403
            default: 502
            }
        }
    }

    /// A document's name on the server: KOReader's partial MD5 of its bytes (the default) or
    /// the MD5 of its file name, a setting of each KOReader.
    public enum DocumentIdentity: String, Codable, Sendable, CaseIterable {
        case binary
        case filename
    }

    /// The document id of the file at `url` as KOReader names it.
    public static func document(at url: URL, by identity: DocumentIdentity) throws -> String {
        switch identity {
        case .binary: try partialMD5(of: url)
        case .filename: fileNameMD5(url.lastPathComponent)
        }
    }

    /// KOReader's partial MD5: up to twelve samples of 1,024 bytes, at offsets
    /// `1024 << 2i` for i = −1…10 (0, 1 KiB, 4 KiB, … 1 GiB: LuaJIT's 32-bit shift turns
    /// i = −1 into 0), hashed as one stream; the first offset past the end stops it, and a
    /// sample cut by the end counts as far as it goes. Cheap on any size: at most 12 KiB read.
    public static func partialMD5(of url: URL) throws -> String {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw KOSyncIdentityError(path: url.path, reason: String(cString: strerror(errno))) }
        defer { close(fd) }
        let digest: LibcryptoDigest
        do { digest = try LibcryptoDigest(.md5) } catch { throw KOSyncIdentityError(path: url.path, reason: error.description) }
        let size = 1024
        var sample = [UInt8](repeating: 0, count: size)
        for shift in 0...11 {
            let offset: off_t = shift == 0 ? 0 : off_t(1024) << (2 * (shift - 1))
            var got = 0
            while got < size {
                let n = sample.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + got, size - got, offset + off_t(got)) }
                if n < 0, errno == EINTR { continue }
                if n < 0 { throw KOSyncIdentityError(path: url.path, reason: String(cString: strerror(errno))) }
                if n == 0 { break }
                got += n
            }
            if got == 0 { break }
            sample.withUnsafeBytes { digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
        }
        return digest.finalHex()
    }

    /// KOReader's other document id: the MD5 of the file's name (with its extension, no folder).
    public static func fileNameMD5(_ name: String) -> String { LibcryptoDigest.hex(of: name, .md5) }
}

/// The document id could not be made: the file is not there or not readable.
public struct KOSyncIdentityError: Error, CustomStringConvertible, Sendable {
    public var path: String
    public var reason: String
    public var description: String { "cannot read \(path) to name it for KOReader sync: \(reason)" }
}
