/// The one place the program's version is written: `newsstand --version` prints it, and
/// `scripts/install.sh` puts it in the man page it generates.
enum NewsstandVersion {
    static let current = "0.9.0"
}
