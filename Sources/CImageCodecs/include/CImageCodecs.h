#ifndef NEWSSTAND_CIMAGECODECS_H
#define NEWSSTAND_CIMAGECODECS_H

// PNG and JPEG decoding into caller-owned RGBA8 buffers.
//
// Every function returns 0 on success and a non-zero value on failure, with a
// human-readable reason in `err` (always NUL-terminated). No function ever ends
// the process: libjpeg errors longjmp back to the caller of libjpeg inside this
// file; libpng is used through its simplified API, which reports errors; and our
// own PNG loop (8-bit RGB/RGBA) checks every length, CRC and zlib status.
//
// Decoding is two-phase so that the caller (Swift) owns the pixel memory and can
// refuse enormous images before anything is allocated: `*_info` parses only the
// header; `*_decode` fills a buffer of exactly width * height * 4 bytes.

#include <stddef.h>
#include <stdint.h>

#define NS_ERR_LEN 200

int ns_png_info(const uint8_t *data, size_t size, uint32_t *width, uint32_t *height,
                char *err, size_t err_len);
/// 8-bit RGB and RGBA files without interlacing, transparency key or unusual gamma are
/// decoded by our own loop (zlib + unfiltering); everything else by libpng.
int ns_png_decode(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width,
                  uint32_t height, char *err, size_t err_len);
/// 0 when the file's compressed image data could hold the pixels its header claims
/// (deflate expands at most ~1032×); checked before the pixel buffer is allocated.
int ns_png_plausible(const uint8_t *data, size_t size, char *err, size_t err_len);
/// ns_png_decode with the path chosen, for tests: NS_PNG_PATH_ANY is ns_png_decode;
/// NS_PNG_PATH_STREAMED inflates a row at a time with zlib, as for very large images;
/// NS_PNG_PATH_WHOLE only tries the whole-buffer libdeflate path and returns -1 where it
/// declines (anything but 8-bit RGB/RGBA, or damaged or surplus image data).
enum { NS_PNG_PATH_ANY = 0, NS_PNG_PATH_STREAMED = 1, NS_PNG_PATH_WHOLE = 2 };
int ns_png_decode_path(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width,
                       uint32_t height, int path, char *err, size_t err_len);
/// Always libpng's simplified API (tests compare the two).
int ns_png_decode_libpng(const uint8_t *data, size_t size, uint8_t *rgba, uint32_t width,
                         uint32_t height, char *err, size_t err_len);

/// `scale_num` / 8 is the DCT scaling factor (1...16); `out_*` receive the size of
/// the decoded picture at that scale, `width`/`height` the size stored in the file.
int ns_jpeg_info(const uint8_t *data, size_t size, int scale_num, uint32_t *width,
                 uint32_t *height, uint32_t *out_width, uint32_t *out_height,
                 char *err, size_t err_len);
int ns_jpeg_decode(const uint8_t *data, size_t size, int scale_num, uint8_t *rgba,
                   uint32_t width, uint32_t height, char *err, size_t err_len);

/// Writes an 8-bit RGBA PNG into a malloc'ed buffer (freed with ns_free);
/// used by tests to make fixtures and by tools.
int ns_png_encode(const uint8_t *rgba, uint32_t width, uint32_t height,
                  uint8_t **out, size_t *out_size, char *err, size_t err_len);
/// Writes a JPEG (quality 1...100; baseline, or progressive when `progressive` is
/// non-zero) into a malloc'ed buffer (ns_free).
int ns_jpeg_encode(const uint8_t *rgba, uint32_t width, uint32_t height, int quality,
                   int progressive, uint8_t **out, size_t *out_size, char *err, size_t err_len);
void ns_free(void *pointer);

#endif
