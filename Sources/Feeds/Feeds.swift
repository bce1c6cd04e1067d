// Feeds: see README.md's architecture section.
