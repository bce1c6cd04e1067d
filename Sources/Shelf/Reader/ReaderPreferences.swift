/// Reader settings that are not part of a place: the same for every issue, kept in the
/// library once the user changes them (the app saves them; the reader only changes them).
final class ReaderPreferences {
    /// The text column's width after + or -; nil until then.
    var textWidth: Int?
    /// The width as last kept in the library, so a change is saved once.
    var savedTextWidth: Int?
    init(textWidth: Int? = nil) {
        self.textWidth = textWidth
        savedTextWidth = textWidth
    }
}
