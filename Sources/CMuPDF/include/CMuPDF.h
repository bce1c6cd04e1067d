#ifndef NEWSSTAND_CMUPDF_H
#define NEWSSTAND_CMUPDF_H

#include <stddef.h>

/// A PDF opened by MuPDF for drawing its pages. MuPDF reports errors by longjmp (its
/// fz_try/fz_catch macros), which Swift cannot call across: every call here catches them
/// and answers a status and a message instead. One thread at a time per document.
typedef struct mupdf_document mupdf_document;

enum {
    MUPDF_OK = 0,
    MUPDF_UNREADABLE = 1,
    MUPDF_NEEDS_PASSWORD = 2,
    MUPDF_WRONG_PASSWORD = 3,
    MUPDF_NO_MEMORY = 4,
};

/// Opens the PDF at `path` (`password` may be NULL); NULL with `*status` and `message` set
/// when it cannot be opened. MuPDF's warnings and errors are never printed.
mupdf_document *mupdf_open(const char *path, const char *password, int *status, char *message, size_t message_size);
void mupdf_close(mupdf_document *document);
int mupdf_page_count(mupdf_document *document);

/// Page `index`'s size in points as shown (its rotation applied).
int mupdf_page_size(mupdf_document *document, int index, double *width, double *height, char *message, size_t message_size);

/// Draws the part (x0, y0)-(x1, y1) of page `index` (fractions of its width and height from
/// its top left) stretched to exactly `width` x `height` pixels on white, into `rgba`
/// (width * height * 4 bytes, straight alpha, always opaque).
int mupdf_draw(mupdf_document *document, int index, double x0, double y0, double x1, double y1,
               int width, int height, unsigned char *rgba, char *message, size_t message_size);

/// How many bytes page `index`'s contents inflate to (`*inflated`, counted no further than
/// just past `limit`) from how many stored (`*stored`, their streams' /Length); both 0 for
/// a document that is not a PDF. Reads the streams and runs nothing.
int mupdf_page_contents(mupdf_document *document, int index, long long limit, long long *inflated, long long *stored);

#endif
