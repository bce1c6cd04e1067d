// Shelf: see README.md's architecture section.
