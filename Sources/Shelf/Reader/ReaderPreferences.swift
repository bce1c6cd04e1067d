/// Reader settings kept for the rest of the session once the user changes them: not part
/// of a place, so not saved with it.
final class ReaderPreferences {
    /// The text column's width after + or -; nil until then.
    var textWidth: Int?
    init() {}
}
