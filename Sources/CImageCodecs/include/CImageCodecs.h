#ifndef NEWSSTAND_CIMAGECODECS_H
#define NEWSSTAND_CIMAGECODECS_H
// Filled in by the Imaging work.
int ns_codecs_version(void);
#endif
