#include "CMuPDF.h"
#include <mupdf/fitz.h>
#include <mupdf/pdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mupdf_document {
    fz_context *context;
    fz_document *document;
    /// Each page's picture density as `picture_density` found it (pixels a point of its
    /// largest picture, 0 for none that fills most of it), -1 until asked; `pages` long.
    double *densities;
    int pages;
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
    mupdf_document *opened = calloc(1, sizeof *opened);
    opened->context = context;
    opened->document = document;
    return opened;
}

void mupdf_close(mupdf_document *document) {
    if (!document) return;
    fz_drop_document(document->context, document->document);
    fz_drop_context(document->context);
    free(document->densities);
    free(document);
}

/// Inflates `stream` and counts its bytes into `*inflated`, stopping past `limit`.
static void count_stream(fz_context *context, pdf_obj *stream, long long limit, long long *inflated, long long *stored) {
    if (!pdf_is_stream(context, stream)) return;
    *stored += pdf_to_int64(context, pdf_dict_get(context, stream, PDF_NAME(Length)));
    fz_stream *opened = pdf_open_stream(context, stream);
    fz_try(context) {
        unsigned char buffer[64 << 10];
        size_t read;
        while (*inflated <= limit && (read = fz_read(context, opened, buffer, sizeof buffer)) > 0) *inflated += (long long)read;
    }
    fz_always(context) fz_drop_stream(context, opened);
    fz_catch(context) fz_rethrow(context);
}

int mupdf_page_contents(mupdf_document *document, int index, long long limit, long long *inflated, long long *stored) {
    fz_context *context = document->context;
    *inflated = 0;
    *stored = 0;
    pdf_document *pdf = pdf_document_from_fz_document(context, document->document);
    if (!pdf) return MUPDF_OK;
    int status = MUPDF_OK;
    fz_try(context) {
        pdf_obj *contents = pdf_dict_get(context, pdf_lookup_page_obj(context, pdf, index), PDF_NAME(Contents));
        if (pdf_is_array(context, contents)) {
            int count = pdf_array_len(context, contents);
            for (int at = 0; at < count && *inflated <= limit; at++) {
                count_stream(context, pdf_array_get(context, contents, at), limit, inflated, stored);
            }
        } else {
            count_stream(context, contents, limit, inflated, stored);
        }
    }
    fz_catch(context) status = MUPDF_UNREADABLE;  // the library reading the page says what is wrong
    return status;
}

/// A device that draws nothing and notes the largest picture a page draws: its area on the
/// page and its pixels.
typedef struct {
    fz_device super;
    fz_rect page;
    double area, pixels;
} census_device;

static void census_image(fz_context *context, fz_device *device, fz_image *image, fz_matrix ctm, float alpha,
                         fz_color_params params) {
    (void)context; (void)alpha; (void)params;
    census_device *census = (census_device *)device;
    fz_rect drawn = fz_intersect_rect(fz_transform_rect(fz_unit_rect, ctm), census->page);
    double area = fz_is_empty_rect(drawn) ? 0 : (double)(drawn.x1 - drawn.x0) * (drawn.y1 - drawn.y0);
    if (area > census->area) { census->area = area; census->pixels = (double)image->w * image->h; }
}

/// Pixels a point of the picture that fills most of page `index` (a scanned page's), or 0
/// when none does; found once a page (a run of its contents that draws nothing).
static double picture_density(mupdf_document *document, fz_page *page, int index, fz_rect bounds) {
    fz_context *context = document->context;
    if (!document->densities) {
        int pages = fz_count_pages(context, document->document);
        document->densities = malloc(sizeof(double) * (size_t)(pages > 0 ? pages : 1));
        for (int at = 0; at < pages; at++) document->densities[at] = -1;
        document->pages = pages;
    }
    if (index < 0 || index >= document->pages) return 0;
    if (document->densities[index] >= 0) return document->densities[index];
    census_device *census = (census_device *)fz_new_device_of_size(context, sizeof(census_device));
    census->super.fill_image = census_image;
    census->page = bounds;
    double density = 0;
    fz_try(context) {
        fz_run_page(context, page, &census->super, fz_identity, NULL);
        fz_close_device(context, &census->super);
        double pageArea = (double)(bounds.x1 - bounds.x0) * (bounds.y1 - bounds.y0);
        if (pageArea > 0 && census->area >= pageArea / 2) density = sqrt(census->pixels / census->area);
    }
    fz_always(context) fz_drop_device(context, &census->super);
    fz_catch(context) density = 0;  // the drawing proper says what is wrong
    document->densities[index] = density;
    return density;
}

/// How many times larger a page is drawn before it is reduced by area averaging: twice when
/// a picture fills most of it and is drawn at less than two thirds of its pixels. MuPDF's
/// own reduction of a large picture (a scan's 1700 x 2200 drawn into 541 x 700) keeps less
/// of it: SSIM 0.991 against the page drawn at 4x and reduced, 0.9996 drawn twice as large
/// and reduced (pdftocairo 0.9997), at 18 ms of CPU rather than 3.7 (4x: 1.0, but 70 ms;
/// 3x: 0.9990). Not past 16 M pixels drawn.
static int supersampling(double density, double scale, int width, int height) {
    if (density <= 0 || density / scale < 1.5 || (double)width * height * 4 > 16e6) return 1;
    return 2;
}

/// `large` (`factor` times `width` x `height`, RGBA) reduced into `rgba` by averaging each
/// `factor` x `factor` square.
static void reduce(const unsigned char *large, int factor, int width, int height, unsigned char *rgba) {
    size_t stride = (size_t)width * factor * 4;
    unsigned count = (unsigned)(factor * factor);
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            unsigned sums[4] = {0, 0, 0, 0};
            for (int dy = 0; dy < factor; dy++) {
                const unsigned char *row = large + ((size_t)y * factor + dy) * stride + (size_t)x * factor * 4;
                for (int dx = 0; dx < factor * 4; dx += 4) {
                    sums[0] += row[dx]; sums[1] += row[dx + 1]; sums[2] += row[dx + 2]; sums[3] += row[dx + 3];
                }
            }
            unsigned char *out = rgba + ((size_t)y * width + x) * 4;
            for (int channel = 0; channel < 4; channel++) out[channel] = (unsigned char)((sums[channel] + count / 2) / count);
        }
    }
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
    unsigned char *large = NULL;
    int status = MUPDF_OK;
    fz_var(page);
    fz_var(pixmap);
    fz_var(device);
    fz_var(large);
    fz_try(context) {
        page = fz_load_page(context, document->document, index);
        fz_rect bounds = fz_bound_page(context, page);
        double pageWidth = bounds.x1 - bounds.x0, pageHeight = bounds.y1 - bounds.y0;
        if (!(pageWidth > 0 && pageHeight > 0 && x1 > x0 && y1 > y0)) fz_throw(context, FZ_ERROR_GENERIC, "the page has no size");
        double scaleX = width / (pageWidth * (x1 - x0)), scaleY = height / (pageHeight * (y1 - y0));
        int factor = supersampling(picture_density(document, page, index, bounds), scaleX < scaleY ? scaleX : scaleY, width, height);
        // The page's top left at the origin, the region's top left at the picture's.
        fz_matrix ctm = fz_concat(fz_translate(-bounds.x0 - x0 * pageWidth, -bounds.y0 - y0 * pageHeight),
                                  fz_scale(scaleX * factor, scaleY * factor));
        if (factor > 1) large = fz_malloc(context, (size_t)width * factor * height * factor * 4);
        pixmap = fz_new_pixmap_with_data(context, fz_device_rgb(context), width * factor, height * factor, NULL, 1,
                                         width * factor * 4, factor > 1 ? large : rgba);
        fz_clear_pixmap_with_value(context, pixmap, 255);
        device = fz_new_draw_device(context, fz_identity, pixmap);
        fz_run_page(context, page, device, ctm, NULL);
        fz_close_device(context, device);
        if (factor > 1) reduce(large, factor, width, height, rgba);
    }
    fz_always(context) {
        fz_drop_device(context, device);
        fz_drop_pixmap(context, pixmap);
        fz_drop_page(context, page);
        fz_free(context, large);
    }
    fz_catch(context) {
        status = MUPDF_UNREADABLE;
        say(message, message_size, fz_caught_message(context));
    }
    return status;
}
