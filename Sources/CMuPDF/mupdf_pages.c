#include "CMuPDF.h"
#include <mupdf/fitz.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mupdf_document {
    fz_context *context;
    fz_document *document;
};

/// MuPDF prints warnings and errors on standard error unless told otherwise; a screen
/// being drawn must not receive them (the message of a failure is returned instead).
static void quiet(void *user, const char *message) { (void)user; (void)message; }

static void say(char *message, size_t size, const char *text) {
    if (message && size) snprintf(message, size, "%s", text ? text : "unknown error");
}

/// A page's decoded resources are kept while they fit this store: enough for a magazine
/// page's pictures, well inside the worker's memory limit.
static const size_t store_bytes = 64 << 20;

mupdf_document *mupdf_open(const char *path, const char *password, int *status, char *message, size_t message_size) {
    fz_context *context = fz_new_context(NULL, NULL, store_bytes);
    if (!context) { *status = MUPDF_NO_MEMORY; say(message, message_size, "no memory for MuPDF"); return NULL; }
    fz_set_warning_callback(context, quiet, NULL);
    fz_set_error_callback(context, quiet, NULL);
    fz_document *document = NULL;
    *status = MUPDF_OK;
    fz_try(context) {
        fz_register_document_handlers(context);
        document = fz_open_document(context, path);
        if (fz_needs_password(context, document)) {
            if (!password) *status = MUPDF_NEEDS_PASSWORD;
            else if (!fz_authenticate_password(context, document, password)) *status = MUPDF_WRONG_PASSWORD;
        }
    }
    fz_catch(context) {
        *status = MUPDF_UNREADABLE;
        say(message, message_size, fz_caught_message(context));
    }
    if (*status != MUPDF_OK) {
        if (*status != MUPDF_UNREADABLE) say(message, message_size, *status == MUPDF_NEEDS_PASSWORD ? "needs a password" : "wrong password");
        fz_drop_document(context, document);
        fz_drop_context(context);
        return NULL;
    }
    mupdf_document *opened = malloc(sizeof *opened);
    opened->context = context;
    opened->document = document;
    return opened;
}

void mupdf_close(mupdf_document *document) {
    if (!document) return;
    fz_drop_document(document->context, document->document);
    fz_drop_context(document->context);
    free(document);
}

int mupdf_page_count(mupdf_document *document) {
    int count = 0;
    fz_try(document->context) count = fz_count_pages(document->context, document->document);
    fz_catch(document->context) count = 0;
    return count;
}

int mupdf_page_size(mupdf_document *document, int index, double *width, double *height, char *message, size_t message_size) {
    fz_context *context = document->context;
    fz_page *page = NULL;
    int status = MUPDF_OK;
    fz_var(page);
    fz_try(context) {
        page = fz_load_page(context, document->document, index);
        fz_rect bounds = fz_bound_page(context, page);
        *width = bounds.x1 - bounds.x0;
        *height = bounds.y1 - bounds.y0;
    }
    fz_always(context) fz_drop_page(context, page);
    fz_catch(context) {
        status = MUPDF_UNREADABLE;
        say(message, message_size, fz_caught_message(context));
    }
    return status;
}

int mupdf_draw(mupdf_document *document, int index, double x0, double y0, double x1, double y1,
               int width, int height, unsigned char *rgba, char *message, size_t message_size) {
    fz_context *context = document->context;
    fz_page *page = NULL;
    fz_pixmap *pixmap = NULL;
    fz_device *device = NULL;
    int status = MUPDF_OK;
    fz_var(page);
    fz_var(pixmap);
    fz_var(device);
    fz_try(context) {
        page = fz_load_page(context, document->document, index);
        fz_rect bounds = fz_bound_page(context, page);
        double pageWidth = bounds.x1 - bounds.x0, pageHeight = bounds.y1 - bounds.y0;
        if (!(pageWidth > 0 && pageHeight > 0 && x1 > x0 && y1 > y0)) fz_throw(context, FZ_ERROR_GENERIC, "the page has no size");
        double scaleX = width / (pageWidth * (x1 - x0)), scaleY = height / (pageHeight * (y1 - y0));
        // The page's top left at the origin, the region's top left at the picture's.
        fz_matrix ctm = fz_concat(fz_translate(-bounds.x0 - x0 * pageWidth, -bounds.y0 - y0 * pageHeight),
                                  fz_scale(scaleX, scaleY));
        pixmap = fz_new_pixmap_with_data(context, fz_device_rgb(context), width, height, NULL, 1, width * 4, rgba);
        fz_clear_pixmap_with_value(context, pixmap, 255);
        device = fz_new_draw_device(context, fz_identity, pixmap);
        fz_run_page(context, page, device, ctm, NULL);
        fz_close_device(context, device);
    }
    fz_always(context) {
        fz_drop_device(context, device);
        fz_drop_pixmap(context, pixmap);
        fz_drop_page(context, page);
    }
    fz_catch(context) {
        status = MUPDF_UNREADABLE;
        say(message, message_size, fz_caught_message(context));
    }
    return status;
}
