/* MuPDF: the page run through a draw device into a white RGB pixmap of exactly W x H. */
#include <mupdf/fitz.h>
#include "common.h"

static unsigned char *draw(fz_context *ctx, fz_document *document, Job job) {
    fz_page *page = fz_load_page(ctx, document, job.page - 1);
    fz_rect bounds = fz_bound_page(ctx, page);
    fz_pixmap *pixmap = fz_new_pixmap(ctx, fz_device_rgb(ctx), job.width, job.height, NULL, 0);
    fz_clear_pixmap_with_value(ctx, pixmap, 255);
    fz_matrix ctm = fz_concat(fz_translate(-bounds.x0, -bounds.y0),
                              fz_scale(job.width / (bounds.x1 - bounds.x0), job.height / (bounds.y1 - bounds.y0)));
    fz_device *device = fz_new_draw_device(ctx, fz_identity, pixmap);
    fz_run_page(ctx, page, device, ctm, NULL);
    fz_close_device(ctx, device);
    fz_drop_device(ctx, device);
    unsigned char *rgb = malloc((size_t)job.width * job.height * 3);
    for (int y = 0; y < job.height; y++)
        memcpy(rgb + (size_t)y * job.width * 3, fz_pixmap_samples(ctx, pixmap) + (size_t)y * fz_pixmap_stride(ctx, pixmap), (size_t)job.width * 3);
    fz_drop_pixmap(ctx, pixmap);
    fz_drop_page(ctx, page);
    return rgb;
}

int main(int argc, char **argv) {
    Job job = job_from(argc, argv);
    fz_context *ctx = fz_new_context(NULL, NULL, FZ_STORE_DEFAULT);
    fz_register_document_handlers(ctx);
    fz_document *document = NULL;
    fz_try(ctx) document = fz_open_document(ctx, job.pdf);
    fz_catch(ctx) { fprintf(stderr, "cannot open %s\n", job.pdf); return 1; }
    double times[256]; int n = 0;
    double start = cpu_ms();
    unsigned char *rgb = draw(ctx, document, job);
    double first = cpu_ms() - start;
    write_ppm(job.out, rgb, job.width, job.height);
    free(rgb);
    for (; n < job.repeat && n < 256; n++) {
        start = cpu_ms();
        free(draw(ctx, document, job));
        times[n] = cpu_ms() - start;
    }
    printf("%.2f %.2f\n", first, median(times, n));
    fz_drop_document(ctx, document);
    fz_drop_context(ctx);
    return 0;
}
