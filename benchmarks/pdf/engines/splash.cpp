// poppler's Splash through poppler-cpp (poppler::page_renderer), antialiasing of text and
// graphics on; VARIANT "hint" adds FreeType hinting.
#include <poppler-document.h>
#include <poppler-page.h>
#include <poppler-page-renderer.h>
#include <poppler-image.h>
#include <memory>
extern "C" {
#include "common.h"
}

static unsigned char *draw(poppler::document *document, const Job &job) {
    std::unique_ptr<poppler::page> page(document->create_page(job.page - 1));
    poppler::rectf box = page->page_rect();
    poppler::page_renderer renderer;
    renderer.set_render_hint(poppler::page_renderer::antialiasing, true);
    renderer.set_render_hint(poppler::page_renderer::text_antialiasing, true);
    renderer.set_render_hint(poppler::page_renderer::text_hinting, strcmp(job.variant, "hint") == 0);
    renderer.set_image_format(poppler::image::format_argb32);  // BGRA bytes, opaque on white paper
    poppler::image image = renderer.render_page(page.get(), 72.0 * job.width / box.width(), 72.0 * job.height / box.height(),
                                                0, 0, job.width, job.height);
    unsigned char *rgb = (unsigned char *)calloc((size_t)job.width * job.height, 3);
    const char *data = image.const_data();
    int stride = image.bytes_per_row();
    for (int y = 0; y < job.height && y < image.height(); y++)
        for (int x = 0; x < job.width && x < image.width(); x++) {
            const unsigned char *p = (const unsigned char *)data + y * stride + x * 4;
            unsigned char *q = rgb + ((size_t)y * job.width + x) * 3;
            q[0] = p[2]; q[1] = p[1]; q[2] = p[0];
        }
    return rgb;
}

int main(int argc, char **argv) {
    Job job = job_from(argc, argv);
    std::unique_ptr<poppler::document> document(poppler::document::load_from_file(job.pdf));
    if (!document) { fprintf(stderr, "cannot open %s\n", job.pdf); return 1; }
    double times[256]; int n = 0;
    double start = cpu_ms();
    unsigned char *rgb = draw(document.get(), job);
    double first = cpu_ms() - start;
    write_ppm(job.out, rgb, job.width, job.height);
    free(rgb);
    for (; n < job.repeat && n < 256; n++) {
        start = cpu_ms();
        free(draw(document.get(), job));
        times[n] = cpu_ms() - start;
    }
    printf("%.2f %.2f\n", first, median(times, n));
    return 0;
}
