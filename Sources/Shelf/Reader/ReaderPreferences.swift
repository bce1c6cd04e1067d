/// Reader settings that are not part of a place: the same for every issue, kept in the
/// library once the user changes them. A value in the app's state; the reader starts from
/// it and says when it changes (`ReaderEffect.keepTextWidth`).
struct ReaderPreferences: Equatable {
    /// The text column's width after + or -; nil until then.
    var textWidth: Int?
}
