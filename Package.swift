// swift-tools-version:6.0
import PackageDescription

// Every module and test target compiles in Swift 6 language mode. ncurses' C globals compile in
// Swift 6 through `@preconcurrency import CNcursesw` (Terminal).
/// The parsers' small accessors (an XML node's name, attribute, children, the HTML lexer's
/// next token) are called across modules for every element of a feed or an article; full
/// cross-module optimization lets them inline. Swift 6 language mode.
let parsing: [SwiftSetting] = [.unsafeFlags(["-cross-module-optimization"], .when(configuration: .release))]

/// Release builds carry the Swift runtime and Foundation inside the executable: the dynamic
/// loader then resolves ~10 fewer libraries' symbols at every start (a third of `newsstand
/// render`'s instructions). Debug builds and `swift test` stay dynamic (XCTest and Testing
/// need the shared runtime). No module imports FoundationNetworking: https goes through libcurl
/// loaded on first use (CCurl), so no start loads libcurl and the ~25 libraries behind it.
/// Not position-independent (`-no-pie`): the loader then has no ~93,000 relative relocations to
/// apply to the executable's data at every start, and `render FILE.pdf`'s two processes take a
/// quarter fewer page faults (2,138 to 1,576; benchmarks/HISTORY.md, "#31, startfast").
let staticRuntime: [LinkerSetting] = [.unsafeFlags(["-static-stdlib", "-Xclang-linker", "-no-pie"] + staticFoundation(),
                                                   .when(configuration: .release))]

/// `newsstand-serve` alone links FlyingFox, which imports FoundationNetworking (and so libcurl):
/// the server starts once and runs for hours, so its start does not count.
let staticRuntimeNetworking: [LinkerSetting] = [.unsafeFlags(["-static-stdlib", "-Xclang-linker", "-no-pie"] + staticFoundation(networking: true),
                                                             .when(configuration: .release))]

/// The linker words that link Foundation's static archives (FoundationNetworking and libcurl
/// only when asked).
func staticFoundation(networking: Bool = false) -> [String] {
    let archives = ["Foundation", "FoundationEssentials", "FoundationInternationalization"]
        + (networking ? ["FoundationNetworking", "_CFURLSessionInterface"] : [])
        + ["_FoundationICU", "_FoundationCShims", "_FoundationCollections", "CoreFoundation",
           "swiftSynchronization", "swiftDispatch", "dispatch", "BlocksRuntime"]
    let libraries = archives.map { "-l\($0)" } + (networking ? ["-l:libcurl.so.4"] : [])
    return ["-Xlinker", "--start-group"] + libraries.flatMap { ["-Xlinker", $0] } + ["-Xlinker", "--end-group"]
}

let package = Package(
    name: "Newsstand",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "newsstand", targets: ["newsstand"]),
        // The PDF worker, installed beside `newsstand` (`PDFWorker.shared` starts it from there).
        .executable(name: "newsstand-pdf", targets: ["newsstand-pdf"]),
        // `render FILE.pdf`'s drawer, installed beside them: MuPDF without poppler.
        .executable(name: "newsstand-pdf-draw", targets: ["newsstand-pdf-draw"]),
        // `newsstand serve`'s server, installed beside them.
        .executable(name: "newsstand-serve", targets: ["newsstand-serve"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/weichsel/ZIPFoundation", from: "0.9.19"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        // `newsstand serve`'s HTTP server: no SwiftNIO beneath it, so a clean build stays short.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        // System libraries (headers shimmed so macros and wide-char APIs import).
        // zlib is CSystemZlib because ZIPFoundation already has a module named CZlib.
        .systemLibrary(name: "CNcursesw", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CSystemZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libcrypto for SHA-256 of transfers and MD5 names (CryptoKit does not exist on Linux),
        // dlopen'ed on the first digest (nothing linked: libcrypto's relocations cost every start).
        .target(name: "CSystemCrypto"),
        // libcurl for https, dlopen'ed on first use (libcurl4-openssl-dev's headers; nothing linked).
        .target(name: "CCurl"),
        // poppler-glib reads a PDF's text, outline, labels and passwords (GPL-2 or GPL-3).
        .systemLibrary(name: "CPoppler", pkgConfig: "poppler-glib", providers: [.apt(["libpoppler-glib-dev"])]),
        // MuPDF draws PDF pages (AGPL-3.0-or-later: so is the project). Debian ships it only as
        // static archives, whose dependencies are shared libraries without development links.
        .target(
            name: "CMuPDF",
            linkerSettings: ["mupdf", "mupdf-third", ":libmujs.so.2", ":libgumbo.so.1", ":libopenjp2.so.7", ":libjbig2dec.so.0",
                             "jpeg", "z", "m", "freetype", ":libharfbuzz.so.0"].map { .linkedLibrary($0) }
        ),
        // glibc's posix_spawn_file_actions_addclosefrom_np, which Swift's Glibc module does not declare.
        .systemLibrary(name: "CSpawn"),
        // libpng + libjpeg behind a small C layer whose JPEG error handler longjmps
        // instead of ending the process.
        .target(
            name: "CImageCodecs",
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg"), .linkedLibrary("z"), .linkedLibrary("deflate")]
        ),

        // One atomic file write (a staging file beside its place, renamed in) for every module that writes one.
        .target(name: "FileWrites"),
        .target(name: "Markup", swiftSettings: parsing),
        // The TOML subset themes and config.toml need (TOMLKit's dependencies are not available here).
        .target(name: "TOMLReader"),
        .target(name: "Feeds", dependencies: ["Markup"], swiftSettings: parsing),
        // Swift 6 language mode (no settings).
        .target(
            name: "IssueArchive",
            dependencies: ["Markup", "FileWrites", "CSystemZlib", .product(name: "ZIPFoundation", package: "ZIPFoundation")]
        ),
        .target(
            name: "NewsstandKit",
            dependencies: [
                "Feeds", "IssueArchive", "TOMLReader", "FileWrites", "CSystemCrypto", "CCurl", "CSpawn",
                .product(name: "GRDB", package: "GRDB.swift"),
                // The SQLite C API itself: storing a feed binds and steps one prepared statement by hand.
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(name: "Imaging", dependencies: ["CImageCodecs", "FileWrites"]),
        // PDF issues without poppler: the contained worker's client, a format reader, a page renderer
        // and the reflow of a page's text (TextLayout's blocks).
        .target(name: "PDF", dependencies: ["CSpawn", "Imaging", "IssueArchive", "TextLayout"]),
        // A page drawn by MuPDF, and the limits a PDF process sets on itself: linked only into the PDF executables.
        .target(name: "PDFDrawing", dependencies: ["CMuPDF", "PDF", "Imaging", "TextLayout"]),
        // poppler-cpp's word list behind a small C layer: every word of a page with its glyphs'
        // boxes, however the page is turned (poppler-glib reads text only as a selection).
        .target(name: "CPopplerText", linkerSettings: [.linkedLibrary("poppler-cpp")]),
        // Poppler itself and the worker's side of the socket: linked only into `newsstand-pdf`.
        .target(name: "PDFEngine", dependencies: ["CPoppler", "CPopplerText", "PDFDrawing", "PDF", "Imaging", "IssueArchive"]),
        // How many columns text takes (and the table of wide characters), with no dependencies:
        // Terminal measures with it without linking HTML. Called for every character drawn.
        .target(name: "TextWidth", swiftSettings: parsing),
        // Markup for the HTML lexer and HTML5's character references, which feeds read too.
        .target(name: "TextLayout", dependencies: ["Markup", "TextWidth"], swiftSettings: parsing),
        .target(name: "Terminal", dependencies: ["CNcursesw", "TextWidth", "TOMLReader"]),
        // The painter seam: how a picture from any source reaches a screen's canvas.
        .target(name: "Pictures", dependencies: ["Imaging", "Terminal"]),
        .target(
            name: "Shelf",
            dependencies: ["Terminal", "Imaging", "Pictures", "TextLayout", "NewsstandKit", "IssueArchive", "Feeds"]
        ),
        // `newsstand serve`: the shelf as OPDS catalogs over HTTP. Its own module, so only `newsstand` links FlyingFox.
        .target(
            name: "Serve",
            dependencies: ["NewsstandKit", "Feeds", "IssueArchive", "Imaging", "Markup", "TextLayout", .product(name: "FlyingFox", package: "FlyingFox"), .product(name: "FlyingSocks", package: "FlyingFox")]
        ),
        .executableTarget(
            name: "newsstand",
            dependencies: [
                "Shelf", "NewsstandKit", "Imaging", "Pictures", "Feeds", "IssueArchive", "Terminal", "TextLayout", "PDF",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                // `agent` logs to standard error.
                .product(name: "Logging", package: "swift-log"),
            ],
            linkerSettings: staticRuntime
        ),

        .executableTarget(name: "newsstand-pdf", dependencies: ["PDFEngine", "PDFDrawing"], linkerSettings: staticRuntime),
        // `newsstand serve`'s server: the only executable that links the HTTP server library.
        .executableTarget(name: "newsstand-serve", dependencies: ["Serve", "NewsstandKit", "PDF", "TextLayout"], linkerSettings: staticRuntimeNetworking),
        // One page drawn as cells for `render FILE.pdf`, without poppler's ~50 libraries to load.
        .executableTarget(name: "newsstand-pdf-draw", dependencies: ["PDFDrawing"], linkerSettings: staticRuntime),

        // Transfer benchmark driver (benchmarks/transfer/run.sh); never run by `swift test`.
        .executableTarget(name: "newsstand-bench-transfer", dependencies: ["NewsstandKit"]),
        // Reader benchmark driver (benchmarks/reader/run.sh); never run by `swift test`.
        .executableTarget(name: "newsstand-bench-reader", dependencies: ["Shelf", "NewsstandKit", "Terminal", "Imaging", "IssueArchive", "TextLayout", "PDF"],
                          path: "benchmarks/reader/driver"),
        // The shelf and a store opened on an in-memory terminal, timed by benchmarks/scaling/run.py.
        .executableTarget(name: "newsstand-bench-scaling", dependencies: ["Shelf", "NewsstandKit", "Terminal", "Imaging"],
                          path: "benchmarks/scaling/driver"),

        // The one way tests wait (`poll`, `waitUntil`, `settled`): only test targets depend on it.
        .target(name: "TestSupport", path: "Tests/TestSupport"),

        .testTarget(name: "FileWritesTests", dependencies: ["FileWrites"]),
        .testTarget(name: "TOMLReaderTests", dependencies: ["TOMLReader"]),
        // Feeds, TextLayout and IssueArchive too: one test reads the same references through each.
        .testTarget(name: "MarkupTests", dependencies: ["Markup", "Feeds", "TextLayout", "IssueArchive"]),
        .testTarget(name: "FeedsTests", dependencies: ["Feeds", "Markup"], resources: [.copy("Fixtures")]),
        .testTarget(name: "IssueArchiveTests", dependencies: ["IssueArchive", "CSystemZlib", .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "NewsstandKitTests", dependencies: ["NewsstandKit", "Feeds", "IssueArchive", "TestSupport", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "ZIPFoundation", package: "ZIPFoundation")]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging", "CImageCodecs"]),
        // `newsstand-pdf`, the worker the containment tests start; PDFEngine to compare with in-process
        // answers; the library and the shelf for a PDF issue installed and shown with its page-1 cover.
        .testTarget(name: "PDFTests", dependencies: ["PDF", "PDFEngine", "PDFDrawing", "CPoppler", "CSystemZlib", "Imaging", "IssueArchive", "TextLayout",
                                                    "NewsstandKit", "Shelf", "Pictures", .product(name: "ZIPFoundation", package: "ZIPFoundation"),
                                                    "newsstand-pdf", "newsstand-pdf-draw"]),
        .testTarget(name: "TextLayoutTests", dependencies: ["TextLayout", "TextWidth", "Markup"]),
        .testTarget(name: "PicturesTests", dependencies: ["Pictures", "Imaging", "Terminal", "CNcursesw"]),
        .testTarget(name: "TerminalTests", dependencies: ["Terminal", "TOMLReader", "CNcursesw"]),
        .testTarget(name: "ShelfTests", dependencies: ["Shelf", "Terminal", "NewsstandKit", "Imaging", "Pictures", "IssueArchive", "TextLayout", "Feeds", "TestSupport"], exclude: ["Goldens"]),
        .testTarget(name: "ServeTests", dependencies: ["NewsstandKit", "IssueArchive", "Feeds", "TestSupport", "newsstand"]),
        .testTarget(name: "EndToEndTests", dependencies: ["newsstand", "NewsstandKit", "Imaging", "Pictures", "TestSupport"]),
    ]
)
