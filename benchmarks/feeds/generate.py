#!/usr/bin/env python3
"""Writes a Newsstand Atom feed of N entries (default 20,000) to the given path.

    generate.py PATH [N] [REVISION]

REVISION (default 0) rewrites every entry's title and updated time, the same ids: a feed in
which every issue changed (benchmarks/scaling refreshes with it). Revision 0 is the feed the
feed benchmark has always used."""
import sys


def write(path, count=20000, revision=0):
    changed = f" (revision {revision})" if revision else ""
    with open(path, "w", encoding="utf-8") as out:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                  '<feed xmlns="http://www.w3.org/2005/Atom" xmlns:news="http://itunes.apple.com/2011/Newsstand"'
                  ' xmlns:nst="urn:x-newsstand:1">\n'
                  '  <id>urn:bench:daily</id>\n  <title>Benchmark Daily</title>\n'
                  '  <subtitle>A generated feed with many issues</subtitle>\n'
                  '  <updated>2026-11-20T06:00:00Z</updated>\n  <logo>covers/default.png</logo>\n'
                  '  <link rel="self" type="application/atom+xml" href="feed.xml"/>\n'
                  '  <nst:binding type="newspaper" edge="bottom"/>\n')
        for n in range(count, 0, -1):
            day = n % 28 + 1
            month = n // 28 % 12 + 1
            year = 1970 + n // 336
            minute = 30 + revision % 30
            out.write(f'''  <entry>
    <id>bench-{n:05d}</id>
    <title>Edition {n}{changed} &#8212; harbour, weather &amp; tides</title>
    <published>{year:04d}-{month:02d}-{day:02d}T06:00:00Z</published>
    <updated>{year:04d}-{month:02d}-{day:02d}T06:{minute:02d}:00+01:00</updated>
    <summary type="html">&lt;p&gt;Edition {n}: the ferry timetable, letters to the editor, the tide tables for the week and a long article about the lighthouse keepers of the north coast.&lt;/p&gt;</summary>
    <link rel="alternate" type="text/html" href="issues/{n:05d}.html"/>
    <news:cover_art_icons>
      <news:cover_art_icon size="SOURCE" src="covers/{n:05d}.png"/>
    </news:cover_art_icons>
    <link rel="http://opds-spec.org/acquisition" type="application/epub+zip" href="issues/{n:05d}.epub" length="{40000 + n}"/>
    <link rel="http://opds-spec.org/image" type="image/png" href="covers/{n:05d}.png"/>
  </entry>
''')
        out.write('</feed>\n')


if __name__ == "__main__":
    write(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20000, int(sys.argv[3]) if len(sys.argv) > 3 else 0)
