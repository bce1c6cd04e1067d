#!/usr/bin/env python3
"""Prints the East Asian Width W/F ranges used by Sources/TextWidth/WideRanges.swift."""
import unicodedata

def wide(cp):
    # CJK blocks and planes 2-3 default to W even where unassigned.
    if 0x20000 <= cp <= 0x2FFFD or 0x30000 <= cp <= 0x3FFFD or 0x3400 <= cp <= 0x4DBF \
            or 0x4E00 <= cp <= 0x9FFF or 0xF900 <= cp <= 0xFAFF:
        return True
    c = chr(cp)
    if unicodedata.category(c) in ('Cn', 'Mn', 'Me', 'Cf'):
        return False
    return unicodedata.east_asian_width(c) in ('W', 'F')

ranges, start = [], None
for cp in range(0x110001):
    w = cp < 0x110000 and wide(cp)
    if w and start is None:
        start = cp
    if not w and start is not None:
        ranges.append((start, cp - 1))
        start = None
print("// Unicode", unicodedata.unidata_version)
print(", ".join("(0x%X, 0x%X)" % r for r in ranges))
