/* poppler-glib + cairo, as Sources/PDFEngine/PDFDocument.swift draws (VARIANT "app"), or
 * with font options set on the context (VARIANT "nohint": no hinting, no hinted metrics,
 * grey antialiasing; "best": the same with CAIRO_ANTIALIAS_BEST). */
#include <poppler.h>
#include <cairo.h>
#include "common.h"

static unsigned char *draw(PopplerPage *page, Job job) {
    double pw, ph;
    poppler_page_get_size(page, &pw, &ph);
    cairo_surface_t *surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, job.width, job.height);
    cairo_t *cr = cairo_create(surface);
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    if (strcmp(job.variant, "nohint") == 0 || strcmp(job.variant, "best") == 0) {
        cairo_font_options_t *options = cairo_font_options_create();
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE);
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF);
        cairo_font_options_set_antialias(options, strcmp(job.variant, "best") == 0 ? CAIRO_ANTIALIAS_BEST : CAIRO_ANTIALIAS_GRAY);
        cairo_set_font_options(cr, options);
        cairo_font_options_destroy(options);
        if (strcmp(job.variant, "best") == 0) cairo_set_antialias(cr, CAIRO_ANTIALIAS_BEST);
    }
    cairo_scale(cr, job.width / pw, job.height / ph);
    poppler_page_render(page, cr);
    cairo_destroy(cr);
    cairo_surface_flush(surface);
    unsigned char *data = cairo_image_surface_get_data(surface), *rgb = malloc((size_t)job.width * job.height * 3);
    int stride = cairo_image_surface_get_stride(surface);
    for (int y = 0; y < job.height; y++)
        for (int x = 0; x < job.width; x++) {
            unsigned char *p = data + y * stride + x * 4, *q = rgb + ((size_t)y * job.width + x) * 3;
            q[0] = p[2]; q[1] = p[1]; q[2] = p[0]; /* opaque: painted white first */
        }
    cairo_surface_destroy(surface);
    return rgb;
}

int main(int argc, char **argv) {
    Job job = job_from(argc, argv);
    char *uri = g_filename_to_uri(realpath(job.pdf, NULL), NULL, NULL);
    PopplerDocument *document = poppler_document_new_from_file(uri, NULL, NULL);
    if (!document) { fprintf(stderr, "cannot open %s\n", job.pdf); return 1; }
    double times[256]; int n = 0;
    double start = cpu_ms();
    PopplerPage *page = poppler_document_get_page(document, job.page - 1);
    unsigned char *rgb = draw(page, job);
    g_object_unref(page);
    double first = cpu_ms() - start;
    write_ppm(job.out, rgb, job.width, job.height);
    free(rgb);
    for (; n < job.repeat && n < 256; n++) {
        start = cpu_ms();
        page = poppler_document_get_page(document, job.page - 1);
        free(draw(page, job));
        g_object_unref(page);
        times[n] = cpu_ms() - start;
    }
    printf("%.2f %.2f\n", first, median(times, n));
    return 0;
}
