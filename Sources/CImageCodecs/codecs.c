#include "CImageCodecs.h"
int ns_codecs_version(void) { return 1; }
