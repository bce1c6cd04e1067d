// Imaging: see README.md's architecture section.
