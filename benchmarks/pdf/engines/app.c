/* newsstand's own pages: Sources/CMuPDF/mupdf_pages.c compiled in, drawing with mupdf_draw
 * as `render --output` and the reader do (a page a large picture fills drawn twice as large
 * and area-reduced), the page stretched to exactly W x H like the other engines here:
 * `render --pixels` keeps the page's shape and rounds each side, so its 4x is not 4x the
 * size asked, and the reference would be another scale. */
#include "CMuPDF.h"
#include "common.h"

static unsigned char *draw(mupdf_document *document, Job job) {
    char message[256];
    unsigned char *rgba = malloc((size_t)job.width * job.height * 4);
    if (mupdf_draw(document, job.page - 1, 0, 0, 1, 1, job.width, job.height, rgba, message, sizeof message) != MUPDF_OK) {
        fprintf(stderr, "%s\n", message);
        exit(1);
    }
    unsigned char *rgb = malloc((size_t)job.width * job.height * 3);
    for (size_t at = 0; at < (size_t)job.width * job.height; at++) memcpy(rgb + at * 3, rgba + at * 4, 3);
    free(rgba);
    return rgb;
}

int main(int argc, char **argv) {
    Job job = job_from(argc, argv);
    int status;
    char message[256];
    mupdf_document *document = mupdf_open(job.pdf, NULL, &status, message, sizeof message);
    if (!document) { fprintf(stderr, "cannot open %s: %s\n", job.pdf, message); return 1; }
    double times[256];
    int n = 0;
    double start = cpu_ms();
    unsigned char *rgb = draw(document, job);
    double first = cpu_ms() - start;
    write_ppm(job.out, rgb, job.width, job.height);
    free(rgb);
    for (; n < job.repeat && n < 256; n++) {
        start = cpu_ms();
        free(draw(document, job));
        times[n] = cpu_ms() - start;
    }
    printf("%.2f %.2f\n", first, median(times, n));
    mupdf_close(document);
    return 0;
}
