#include "CImageCodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

static void set_error(char *err, size_t err_len, const char *message) {
    if (err == NULL || err_len == 0) return;
    snprintf(err, err_len, "%s", message);
}

// MARK: - PNG (simplified API: errors are reported, never fatal)

static int png_begin(png_image *image, const uint8_t *data, size_t size,
                     char *err, size_t err_len) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    if (!png_image_begin_read_from_memory(image, data, size)) {
        set_error(err, err_len, image->message[0] ? image->message : "unreadable PNG");
        png_image_free(image);
        return 1;
    }
    return 0;
}

int ns_png_info(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height,
                char *err, size_t err_len) {
    png_image image;
    if (png_begin(&image, data, size, err, err_len)) return 1;
    *width = image.width;
    *height = image.height;
    png_image_free(&image);
    return 0;
}

int ns_png_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width,
                  uint32_t height, char *err, size_t err_len) {
    png_image image;
    if (png_begin(&image, data, size, err, err_len)) return 1;
    if (image.width != width || image.height != height) {
        set_error(err, err_len, "PNG size changed between reads");
        png_image_free(&image);
        return 1;
    }
    image.format = PNG_FORMAT_RGBA;
    // Without gAMA or sRGB chunks, 16-bit samples are sRGB-encoded as in every viewer
    // (libpng's simplified API would otherwise take them as linear).
    image.flags |= PNG_IMAGE_FLAG_16BIT_sRGB;
    if (!png_image_finish_read(&image, NULL, rgba, (png_int_32)(width * 4), NULL)) {
        set_error(err, err_len, image.message[0] ? image.message : "corrupt PNG");
        png_image_free(&image);
        return 1;
    }
    png_image_free(&image);
    return 0;
}

struct png_sink { uint8_t *bytes; size_t size; };

int ns_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height,
                  uint8_t **out, size_t *out_size, char *err, size_t err_len) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = width;
    image.height = height;
    image.format = PNG_FORMAT_RGBA;
    png_alloc_size_t size = 0;
    if (!png_image_write_to_memory(&image, NULL, &size, 0, rgba, (png_int_32)(width * 4), NULL)) {
        set_error(err, err_len, image.message[0] ? image.message : "cannot size PNG");
        return 1;
    }
    uint8_t *bytes = malloc(size);
    if (bytes == NULL) {
        set_error(err, err_len, "out of memory");
        return 1;
    }
    if (!png_image_write_to_memory(&image, bytes, &size, 0, rgba, (png_int_32)(width * 4), NULL)) {
        set_error(err, err_len, image.message[0] ? image.message : "cannot write PNG");
        free(bytes);
        return 1;
    }
    *out = bytes;
    *out_size = size;
    return 0;
}

void ns_free(void *pointer) { free(pointer); }

// MARK: - JPEG (libjpeg with an error manager that longjmps back here)

// Progressive files can hold thousands of tiny scans that each cost a full pass
// over the coefficients; real images use fewer than a dozen.
#define NS_JPEG_MAX_SCANS 256
// Bounds libjpeg's own working memory (coefficient buffers of progressive files).
#define NS_JPEG_MAX_MEMORY (512L * 1024 * 1024)

struct ns_jpeg_error {
    struct jpeg_error_mgr base;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

static void ns_jpeg_error_exit(j_common_ptr cinfo) {
    struct ns_jpeg_error *e = (struct ns_jpeg_error *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, e->message);
    longjmp(e->jump, 1);
}

static void ns_jpeg_emit_message(j_common_ptr cinfo, int level) {
    struct ns_jpeg_error *e = (struct ns_jpeg_error *)cinfo->err;
    // A file that ends early is padded with grey by libjpeg; we call it an error.
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) {
        snprintf(e->message, sizeof e->message, "file is truncated");
        longjmp(e->jump, 1);
    }
    if (level < 0) cinfo->err->num_warnings++;
}

static void ns_jpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void ns_jpeg_progress(j_common_ptr cinfo) {
    if (!cinfo->is_decompressor) return;
    j_decompress_ptr d = (j_decompress_ptr)cinfo;
    if (d->input_scan_number > NS_JPEG_MAX_SCANS) {
        struct ns_jpeg_error *e = (struct ns_jpeg_error *)cinfo->err;
        snprintf(e->message, sizeof e->message, "too many progressive scans");
        longjmp(e->jump, 1);
    }
}

struct ns_jpeg {
    struct jpeg_decompress_struct cinfo;
    struct ns_jpeg_error error;
    struct jpeg_progress_mgr progress;
};

// Everything that may longjmp happens in the function that called setjmp, so that
// no local variable of an intermediate frame is lost.
#define NS_JPEG_SETUP(j)                                                   \
    memset(&(j), 0, sizeof(j));                                            \
    (j).cinfo.err = jpeg_std_error(&(j).error.base);                       \
    (j).error.base.error_exit = ns_jpeg_error_exit;                        \
    (j).error.base.emit_message = ns_jpeg_emit_message;                    \
    (j).error.base.output_message = ns_jpeg_output_message;                \
    (j).progress.progress_monitor = ns_jpeg_progress;

static int clamp_scale(int scale_num) {
    if (scale_num < 1) return 1;
    if (scale_num > 16) return 16;
    return scale_num;
}

static void ns_jpeg_prepare(struct ns_jpeg *j, int scale_num) {
    j->cinfo.scale_num = (unsigned int)clamp_scale(scale_num);
    j->cinfo.scale_denom = 8;
    j->cinfo.dct_method = JDCT_ISLOW;
    j->cinfo.do_fancy_upsampling = TRUE;
    if (j->cinfo.jpeg_color_space == JCS_CMYK || j->cinfo.jpeg_color_space == JCS_YCCK) {
        j->cinfo.out_color_space = JCS_CMYK;
    } else {
        j->cinfo.out_color_space = JCS_EXT_RGBA;
    }
    jpeg_calc_output_dimensions(&j->cinfo);
}

int ns_jpeg_info(const uint8_t *data, size_t size, int scale_num, uint32_t *width,
                 uint32_t *height, uint32_t *out_width, uint32_t *out_height,
                 char *err, size_t err_len) {
    struct ns_jpeg j;
    NS_JPEG_SETUP(j);
    if (setjmp(j.error.jump)) {
        set_error(err, err_len, j.error.message);
        jpeg_destroy_decompress(&j.cinfo);
        return 1;
    }
    jpeg_create_decompress(&j.cinfo);
    j.cinfo.mem->max_memory_to_use = NS_JPEG_MAX_MEMORY;
    j.cinfo.progress = &j.progress;
    jpeg_mem_src(&j.cinfo, data, (unsigned long)size);
    jpeg_read_header(&j.cinfo, TRUE);
    ns_jpeg_prepare(&j, scale_num);
    *width = j.cinfo.image_width;
    *height = j.cinfo.image_height;
    *out_width = j.cinfo.output_width;
    *out_height = j.cinfo.output_height;
    jpeg_destroy_decompress(&j.cinfo);
    return 0;
}

int ns_jpeg_decode(const uint8_t *data, size_t size, int scale_num, uint8_t *rgba,
                   uint32_t width, uint32_t height, char *err, size_t err_len) {
    struct ns_jpeg j;
    NS_JPEG_SETUP(j);
    // volatile: modified between setjmp and a possible longjmp.
    uint8_t *volatile cmyk_row = NULL;
    if (setjmp(j.error.jump)) {
        set_error(err, err_len, j.error.message);
        free(cmyk_row);
        jpeg_destroy_decompress(&j.cinfo);
        return 1;
    }
    jpeg_create_decompress(&j.cinfo);
    j.cinfo.mem->max_memory_to_use = NS_JPEG_MAX_MEMORY;
    j.cinfo.progress = &j.progress;
    jpeg_mem_src(&j.cinfo, data, (unsigned long)size);
    jpeg_read_header(&j.cinfo, TRUE);
    ns_jpeg_prepare(&j, scale_num);
    if (j.cinfo.output_width != width || j.cinfo.output_height != height) {
        snprintf(j.error.message, sizeof j.error.message, "JPEG size changed between reads");
        longjmp(j.error.jump, 1);
    }
    int is_cmyk = j.cinfo.out_color_space == JCS_CMYK;
    // Adobe writes CMYK inverted (0 = full ink); nearly every CMYK JPEG is Adobe's.
    int inverted = j.cinfo.saw_Adobe_marker;
    jpeg_start_decompress(&j.cinfo);
    if (is_cmyk) {
        cmyk_row = malloc((size_t)width * 4);
        if (cmyk_row == NULL) {
            snprintf(j.error.message, sizeof j.error.message, "out of memory");
            longjmp(j.error.jump, 1);
        }
    }
    while (j.cinfo.output_scanline < j.cinfo.output_height) {
        uint8_t *row = rgba + (size_t)j.cinfo.output_scanline * width * 4;
        JSAMPROW rows[1] = { is_cmyk ? cmyk_row : row };
        jpeg_read_scanlines(&j.cinfo, rows, 1);
        if (is_cmyk) {
            for (uint32_t x = 0; x < width; x++) {
                unsigned c = cmyk_row[4 * x], m = cmyk_row[4 * x + 1];
                unsigned y = cmyk_row[4 * x + 2], k = cmyk_row[4 * x + 3];
                if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
                row[4 * x] = (uint8_t)((c * k + 127) / 255);
                row[4 * x + 1] = (uint8_t)((m * k + 127) / 255);
                row[4 * x + 2] = (uint8_t)((y * k + 127) / 255);
                row[4 * x + 3] = 255;
            }
        }
    }
    jpeg_finish_decompress(&j.cinfo);
    free(cmyk_row);
    jpeg_destroy_decompress(&j.cinfo);
    return 0;
}

int ns_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                   int progressive, uint8_t **out, size_t *out_size, char *err, size_t err_len) {
    struct jpeg_compress_struct cinfo;
    struct ns_jpeg_error error;
    memset(&cinfo, 0, sizeof cinfo);
    memset(&error, 0, sizeof error);
    cinfo.err = jpeg_std_error(&error.base);
    error.base.error_exit = ns_jpeg_error_exit;
    error.base.output_message = ns_jpeg_output_message;
    unsigned char *volatile buffer = NULL;
    unsigned long volatile size = 0;
    if (setjmp(error.jump)) {
        set_error(err, err_len, error.message);
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return 1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&buffer, (unsigned long *)&size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = 4;
    cinfo.in_color_space = JCS_EXT_RGBA;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row[1] = { (JSAMPROW)(rgba + (size_t)cinfo.next_scanline * width * 4) };
        jpeg_write_scanlines(&cinfo, row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *out = buffer;
    *out_size = size;
    return 0;
}
