// IssueArchive: see README.md's architecture section.
