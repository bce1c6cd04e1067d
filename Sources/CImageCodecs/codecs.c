#include "CImageCodecs.h"

#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <jpeglib.h>
#include <jerror.h>
#include <zlib.h>
#include <libdeflate.h>

static void set_error(char *err, size_t err_len, const char *message) {
    if (err == NULL || err_len == 0) return;
    snprintf(err, err_len, "%s", message);
}

// Asks for 2 MB pages for a freshly allocated, untouched output buffer. A full-size
// photograph is tens of MB: in 4 KB pages its first touch costs thousands of page faults,
// a fifth of a whole `newsstand render` of a 2400×3600 JPEG. Only a hint: failure is fine.
static void prefer_huge_pages(void *buffer, size_t length) {
    const uintptr_t huge = (uintptr_t)2 << 20;
    uintptr_t start = ((uintptr_t)buffer + huge - 1) & ~(huge - 1);
    uintptr_t end = ((uintptr_t)buffer + length) & ~(huge - 1);
#ifdef MADV_HUGEPAGE
    if (end > start) (void)madvise((void *)start, end - start, MADV_HUGEPAGE);
#else
    (void)start; (void)end;
#endif
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

int ns_png_decode_libpng(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width,
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

// MARK: - PNG fast path
//
// Covers are nearly always 8-bit RGB or RGBA, not interlaced, without transparency keys
// or unusual gamma. For those, inflating the rows ourselves and undoing the filters with
// word-wide loops is about twice as fast as libpng's row-by-row machinery. Anything
// else returns NS_PNG_NOT_HANDLED before writing a pixel, and libpng decodes it.

#define NS_PNG_NOT_HANDLED (-1)

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

// One pixel's channels in 16-bit lanes: the Average and Paeth predictors depend on the
// pixel to the left, so rows are undone a pixel (not a byte) at a time.
typedef uint8_t ns_u8x4 __attribute__((vector_size(4)));
typedef int16_t ns_i16x4 __attribute__((vector_size(8)));

static inline ns_i16x4 load_pixel(const uint8_t *p, size_t bpp) {
    ns_u8x4 v;
    if (bpp == 4) memcpy(&v, p, 4);
    else v = (ns_u8x4){p[0], p[1], p[2], 0};
    return __builtin_convertvector(v, ns_i16x4);
}

static inline void store_pixel(uint8_t *p, ns_i16x4 v, size_t bpp) {
    ns_u8x4 bytes = __builtin_convertvector(v & 0xFF, ns_u8x4);
    if (bpp == 4) memcpy(p, &bytes, 4);
    else { p[0] = bytes[0]; p[1] = bytes[1]; p[2] = bytes[2]; }
}

static inline ns_i16x4 absolute(ns_i16x4 v) {
    ns_i16x4 negative = v < 0;
    return (v ^ negative) - negative;
}

// Undoes a row's filter (PNG filter types 0-4) in place; `prior` is the row above
// (all zero for the first row). 3 or 4 bytes per pixel.
static void unfilter_row(int filter, uint8_t *row, const uint8_t *prior, size_t length, size_t bpp) {
    size_t i;
    switch (filter) {
    case 1: {  // Sub: the pixel to the left stays in a register, a whole word per pixel
        // (byte-wise, every addition waited for the store of the byte it depends on).
        // For 3-byte pixels the word's top lane is the next pixel's first byte: it gets a
        // meaningless sum, which that pixel's own store overwrites (its word was loaded
        // before, so no load waits on a store it half overlaps). The last pixel writes only
        // its own bytes. Rows have slack for the loads past their end.
        size_t last = length - bpp;
        ns_u8x4 left = {0, 0, 0, 0}, value;
        memcpy(&value, row, 4);
        for (i = 0; i < last; i += bpp) {
            ns_u8x4 next;
            memcpy(&next, row + i + bpp, 4);
            value += left;
            memcpy(row + i, &value, 4);
            left = value;
            value = next;
        }
        value += left;
        memcpy(row + last, &value, bpp);
        break;
    }
    case 2:  // Up
        for (i = 0; i < length; i++) row[i] = (uint8_t)(row[i] + prior[i]);
        break;
    case 3: {  // Average
        ns_i16x4 left = {0, 0, 0, 0};
        for (i = 0; i < length; i += bpp) {
            ns_i16x4 value = load_pixel(row + i, bpp) + ((left + load_pixel(prior + i, bpp)) >> 1);
            left = value & 0xFF;
            store_pixel(row + i, left, bpp);
        }
        break;
    }
    case 4: {  // Paeth
        ns_i16x4 a = {0, 0, 0, 0}, c = {0, 0, 0, 0};
        for (i = 0; i < length; i += bpp) {
            ns_i16x4 b = load_pixel(prior + i, bpp);
            ns_i16x4 pa = absolute(b - c), pb = absolute(a - c), pc = absolute(a + b - c - c);
            ns_i16x4 use_a = (pa <= pb) & (pa <= pc);
            ns_i16x4 use_b = ~use_a & (pb <= pc);
            ns_i16x4 predictor = (a & use_a) | (b & use_b) | (c & ~(use_a | use_b));
            a = (load_pixel(row + i, bpp) + predictor) & 0xFF;
            store_pixel(row + i, a, bpp);
            c = b;
        }
        break;
    }
    default:  // None
        break;
    }
}

// RGB to RGBA, a whole 32-bit word per pixel (`in` must have a byte of slack at its end).
static void expand_rgb(uint8_t *restrict out, const uint8_t *restrict in, uint32_t width) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    for (uint32_t x = 0; x < width; x++) {
        uint32_t pixel;
        memcpy(&pixel, in + 3 * (size_t)x, 4);
        pixel = (pixel & 0x00FFFFFFu) | 0xFF000000u;  // A is the high byte
        memcpy(out + 4 * (size_t)x, &pixel, 4);
    }
#else
    for (uint32_t x = 0; x < width; x++) {
        out[4 * x] = in[3 * x];
        out[4 * x + 1] = in[3 * x + 1];
        out[4 * x + 2] = in[3 * x + 2];
        out[4 * x + 3] = 255;
    }
#endif
}

// Images whose filtered rows take at most this many bytes are inflated in one call by
// libdeflate (about twice as fast as zlib's streaming inflate, much more on flat
// artwork); larger ones are streamed a row at a time so that memory stays bounded.
#define NS_PNG_WHOLE_BUFFER_LIMIT ((size_t)48 << 20)

// The whole-buffer path: every IDAT checked and joined, inflated at once, rows undone in
// place. It only ever succeeds or declines (NS_PNG_NOT_HANDLED): for damaged data the
// streaming path below runs instead and says what is wrong, as it always did.
static int png_decode_whole(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width,
                            uint32_t height, size_t bpp, size_t compressed_size,
                            char *err, size_t err_len) {
    size_t length = (size_t)width * bpp, stride = length + 1;
    size_t raw_size = (size_t)height * stride;
    // The joined IDAT data, then the rows with slack for word-wide loads past the last
    // pixel, then a row of zeros standing above the first.
    uint8_t *buffer = malloc(compressed_size + raw_size + 8 + length + 8);
    if (buffer == NULL) { set_error(err, err_len, "out of memory"); return 1; }
    uint8_t *compressed = buffer, *raw = buffer + compressed_size, *zero_row = raw + raw_size + 8;
    memset(zero_row, 0, length + 8);
    size_t joined = 0, offset = 8 + 25;
    while (offset + 12 <= size) {
        uint32_t chunk_length = be32(data + offset);
        const uint8_t *type = data + offset + 4;
        if (memcmp(type, "IEND", 4) == 0) break;
        if (memcmp(type, "IDAT", 4) == 0) {
            if (libdeflate_crc32(0, type, chunk_length + 4) != be32(type + 4 + chunk_length)
                || chunk_length > compressed_size - joined) {
                free(buffer);
                return NS_PNG_NOT_HANDLED;
            }
            memcpy(compressed + joined, type + 4, chunk_length);
            joined += chunk_length;
        }
        offset += 12 + (size_t)chunk_length;
    }
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    if (inflater == NULL) { free(buffer); set_error(err, err_len, "out of memory"); return 1; }
    // NULL for the actual size: exactly raw_size bytes or a failure.
    enum libdeflate_result status = libdeflate_zlib_decompress(inflater, compressed, joined, raw, raw_size, NULL);
    libdeflate_free_decompressor(inflater);
    if (status != LIBDEFLATE_SUCCESS) { free(buffer); return NS_PNG_NOT_HANDLED; }
    memset(raw + raw_size, 0, 8);
    const uint8_t *prior = zero_row;
    for (uint32_t y = 0; y < height; y++) {
        uint8_t *row = raw + (size_t)y * stride;
        if (row[0] > 4) { free(buffer); return NS_PNG_NOT_HANDLED; }
        unfilter_row(row[0], row + 1, prior, length, bpp);
        uint8_t *out = rgba + (size_t)y * width * 4;
        if (bpp == 4) memcpy(out, row + 1, length);
        else expand_rgb(out, row + 1, width);
        prior = row + 1;
    }
    free(buffer);
    return 0;
}

static int png_fast_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width,
                           uint32_t height, int path, char *err, size_t err_len) {
    static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (size < 8 + 25 || memcmp(data, signature, 8) != 0) return NS_PNG_NOT_HANDLED;
    const uint8_t *ihdr = data + 8;
    if (be32(ihdr) != 13 || memcmp(ihdr + 4, "IHDR", 4) != 0) return NS_PNG_NOT_HANDLED;
    if (be32(ihdr + 8) != width || be32(ihdr + 12) != height) return NS_PNG_NOT_HANDLED;
    int depth = ihdr[16], colour = ihdr[17], interlace = ihdr[20];
    if (depth != 8 || (colour != 2 && colour != 6) || interlace != 0 || ihdr[18] != 0 || ihdr[19] != 0)
        return NS_PNG_NOT_HANDLED;
    if ((uint32_t)crc32(0, ihdr + 4, 17) != be32(ihdr + 21)) return NS_PNG_NOT_HANDLED;
    size_t bpp = colour == 6 ? 4 : 3;
    size_t length = (size_t)width * bpp;

    // First pass over the chunks: only the kinds we can honour exactly.
    size_t offset = 8 + 25;
    int seen_idat = 0, seen_end = 0;
    size_t compressed_size = 0;
    while (offset + 12 <= size) {
        uint32_t chunk_length = be32(data + offset);
        const uint8_t *type = data + offset + 4;
        if (chunk_length > 0x7FFFFFFF || chunk_length > size - offset - 12) return NS_PNG_NOT_HANDLED;
        if (memcmp(type, "IDAT", 4) == 0) {
            seen_idat = 1;
            compressed_size += chunk_length;
        } else if (memcmp(type, "IEND", 4) == 0) {
            seen_end = 1;
            break;
        } else if (memcmp(type, "tRNS", 4) == 0 || memcmp(type, "IHDR", 4) == 0) {
            return NS_PNG_NOT_HANDLED;
        } else if (memcmp(type, "gAMA", 4) == 0) {
            // libpng treats gamma within 5% of sRGB's as sRGB and converts anything else.
            if (chunk_length != 4) return NS_PNG_NOT_HANDLED;
            uint32_t gamma = be32(type + 4);
            if (gamma < 43290 || gamma > 47620) return NS_PNG_NOT_HANDLED;
        } else if (!(type[0] & 0x20) && memcmp(type, "PLTE", 4) != 0) {
            return NS_PNG_NOT_HANDLED;  // an unknown critical chunk: libpng says what it is
        }
        offset += 12 + (size_t)chunk_length;
    }
    if (!seen_idat || !seen_end) return NS_PNG_NOT_HANDLED;  // libpng explains the damage
    if (path != NS_PNG_PATH_STREAMED && (size_t)height * (length + 1) <= NS_PNG_WHOLE_BUFFER_LIMIT) {
        int whole = png_decode_whole(data, size, rgba, width, height, bpp, compressed_size, err, err_len);
        if (whole != NS_PNG_NOT_HANDLED || path == NS_PNG_PATH_WHOLE) return whole;
    }
    if (path == NS_PNG_PATH_WHOLE) return NS_PNG_NOT_HANDLED;

    // Each row: its filter byte, the pixels, and slack for word-wide loads past the last
    // pixel (expand_rgb and the Sub filter read up to 4 bytes beyond it).
    uint8_t *rows = calloc(2, length + 8);
    if (rows == NULL) { set_error(err, err_len, "out of memory"); return 1; }
    uint8_t *current = rows, *prior = rows + length + 8;
    z_stream stream;
    memset(&stream, 0, sizeof stream);
    if (inflateInit(&stream) != Z_OK) { free(rows); set_error(err, err_len, "out of memory"); return 1; }
    // Every IDAT chunk's CRC is checked below, which covers the data zlib's own Adler-32
    // would: skipping the second check saves a tenth of the decoding time.
    inflateValidate(&stream, 0);
    int result = 0;
    uint32_t y = 0;
    stream.next_out = current;
    stream.avail_out = (uInt)(length + 1);
    int finished = 0;
    offset = 8 + 25;
    while (!finished && offset + 12 <= size) {
        uint32_t chunk_length = be32(data + offset);
        const uint8_t *type = data + offset + 4;
        if (memcmp(type, "IEND", 4) == 0) break;
        if (memcmp(type, "IDAT", 4) == 0) {
            if ((uint32_t)crc32(0, type, chunk_length + 4) != be32(type + 4 + chunk_length)) {
                set_error(err, err_len, "IDAT: CRC error");
                result = 1;
                break;
            }
            stream.next_in = (Bytef *)(type + 4);
            stream.avail_in = chunk_length;
            while (stream.avail_in > 0 || stream.avail_out == 0) {
                int status = inflate(&stream, Z_NO_FLUSH);
                if (stream.avail_out == 0) {
                    int filter = current[0];
                    if (filter > 4) { set_error(err, err_len, "bad adaptive filter value"); result = 1; break; }
                    unfilter_row(filter, current + 1, prior + 1, length, bpp);
                    uint8_t *out = rgba + (size_t)y * width * 4;
                    const uint8_t *in = current + 1;
                    if (bpp == 4) {
                        memcpy(out, in, length);
                    } else {
                        expand_rgb(out, in, width);
                    }
                    uint8_t *swap = prior; prior = current; current = swap;
                    if (++y == height) { finished = 1; break; }
                    stream.next_out = current;
                    stream.avail_out = (uInt)(length + 1);
                }
                if (status == Z_STREAM_END) break;
                if (status != Z_OK) {
                    set_error(err, err_len, status == Z_DATA_ERROR ? "IDAT: invalid compressed data" : "IDAT: decompression failed");
                    result = 1;
                    break;
                }
            }
            if (result) break;
        }
        offset += 12 + (size_t)chunk_length;
    }
    inflateEnd(&stream);
    free(rows);
    if (result == 0 && y != height) {
        set_error(err, err_len, "Not enough image data");
        result = 1;
    }
    return result;
}

int ns_png_plausible(const uint8_t *data, size_t size, char *err, size_t err_len) {
    if (size < 8 + 25) { set_error(err, err_len, "file is truncated"); return 1; }
    const uint8_t *ihdr = data + 8;
    uint64_t width = be32(ihdr + 8), height = be32(ihdr + 12);
    int depth = ihdr[16], colour = ihdr[17];
    int channels = colour == 2 ? 3 : colour == 4 ? 2 : colour == 6 ? 4 : 1;
    uint64_t row_bytes = (width * (uint64_t)(depth * channels) + 7) / 8;
    uint64_t raw = height * (1 + row_bytes);
    uint64_t compressed = 0;
    size_t offset = 8;
    while (offset + 12 <= size) {
        uint32_t length = be32(data + offset);
        if (length > size - offset - 12) { compressed += size - offset - 12; break; }
        if (memcmp(data + offset + 4, "IDAT", 4) == 0) compressed += length;
        if (memcmp(data + offset + 4, "IEND", 4) == 0) break;
        offset += 12 + (size_t)length;
    }
    // Deflate cannot expand data by more than about 1032 times.
    if (compressed * 1100 + 4096 < raw) {
        snprintf(err, err_len, "%llu bytes of image data cannot hold %llu×%llu pixels (file truncated?)",
                 (unsigned long long)compressed, (unsigned long long)width, (unsigned long long)height);
        return 1;
    }
    return 0;
}

int ns_png_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width,
                  uint32_t height, char *err, size_t err_len) {
    return ns_png_decode_path(data, size, rgba, width, height, NS_PNG_PATH_ANY, err, err_len);
}

int ns_png_decode_path(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width,
                       uint32_t height, int path, char *err, size_t err_len) {
    int fast = png_fast_decode(data, size, rgba, width, height, path, err, err_len);
    if (fast != NS_PNG_NOT_HANDLED || path == NS_PNG_PATH_WHOLE) return fast;
    return ns_png_decode_libpng(data, size, rgba, width, height, err, err_len);
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
    prefer_huge_pages(rgba, (size_t)width * height * 4);
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
