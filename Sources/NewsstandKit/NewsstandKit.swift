// NewsstandKit: see README.md's architecture section.
