// Markup: see README.md's architecture section.
