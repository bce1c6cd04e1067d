// `DisplayWidth` lives in TextWidth, which Terminal uses without linking HTML; readers of
// TextLayout measure text with it too.
@_exported import TextWidth
