/* Shared by the engine programs of benchmarks/pdf/crispness.py: arguments, the clock and
 * the PPM writer. Each program draws page PAGE of PDF into exactly W x H pixels (the page
 * stretched to that box: the script passes the fitted size, or 4x it for a reference),
 * writes OUT.ppm, then draws it REPEAT more times and prints the CPU milliseconds of the
 * first draw and the median of the others:  "first_ms median_ms". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { const char *pdf; int page, width, height; const char *out; int repeat; const char *variant; } Job;

static Job job_from(int argc, char **argv) {
    if (argc < 6) { fprintf(stderr, "usage: %s PDF PAGE W H OUT.ppm [REPEAT] [VARIANT]\n", argv[0]); exit(2); }
    Job job = { argv[1], atoi(argv[2]), atoi(argv[3]), atoi(argv[4]), argv[5], argc > 6 ? atoi(argv[6]) : 0,
                argc > 7 ? argv[7] : "" };
    return job;
}

static double cpu_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static int compare_doubles(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *values, int count) {
    if (count == 0) return 0;
    qsort(values, count, sizeof *values, compare_doubles);
    return count % 2 ? values[count / 2] : (values[count / 2 - 1] + values[count / 2]) / 2;
}

/* rgb: width*height*3 bytes. */
static void write_ppm(const char *path, const unsigned char *rgb, int width, int height) {
    FILE *file = fopen(path, "wb");
    if (!file) { perror(path); exit(1); }
    fprintf(file, "P6\n%d %d\n255\n", width, height);
    fwrite(rgb, 1, (size_t)width * height * 3, file);
    fclose(file);
}
