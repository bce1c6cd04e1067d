// TextLayout: see README.md's architecture section.
