#ifndef NEWSSTAND_CPOPPLERTEXT_H
#define NEWSSTAND_CPOPPLERTEXT_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One character of a page's text layer, its box in points from the top left of the page as
/// it is shown (its rotation applied).
typedef struct text_glyph {
    uint32_t scalar;
    double x0, y0, x1, y1;
    double font_size;
    /// An index into the page's font names.
    int32_t font;
} text_glyph;

/// One word: its glyphs, which of the four ways it runs (0 left to right, 1 down, 2 right to
/// left upside down, 3 up, in the page as shown), and whether a space follows it.
typedef struct text_word {
    size_t first, count;
    int32_t rotation;
    int32_t space_after;
    double x0, y0, x1, y1;
} text_word;

/// A page's words in poppler's reading order (every word, unlike a selection), and how far
/// the page is turned clockwise when shown: 0, 90, 180 or 270.
typedef struct text_page {
    text_word *words;
    size_t word_count;
    text_glyph *glyphs;
    size_t glyph_count;
    char **fonts;
    size_t font_count;
    int32_t rotation;
} text_page;

/// Opens the PDF at `path` (NULL when it cannot be); `password` may be NULL.
void *text_document_open(const char *path, const char *password);
void text_document_close(void *document);
/// Reads page `index` (0 is the first) into `page`; 0 when done, -1 when the document
/// cannot give that page (a broken page tree). Free it with `text_page_free`.
int text_page_read(void *document, int index, text_page *page);
void text_page_free(text_page *page);

#ifdef __cplusplus
}
#endif

#endif
