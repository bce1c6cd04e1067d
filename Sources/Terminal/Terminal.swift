// Terminal: see README.md's architecture section.
