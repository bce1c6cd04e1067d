#ifndef NEWSSTAND_CSYSTEMCRYPTO_H
#define NEWSSTAND_CSYSTEMCRYPTO_H

// OpenSSL's libcrypto for MD5 and SHA-256 (no CryptoKit on Linux), loaded with dlopen the first
// time a digest is made: libcrypto's ~17,000 relocations were a millisecond of every command's
// start, and most commands never make a digest (benchmarks/HISTORY.md, "#31, startcost").
// Only the EVP digest API is called (not deprecated in OpenSSL 3), through a table filled by
// dlsym; its contexts stay opaque, so no OpenSSL header is needed.

#include <stddef.h>

/// The most bytes a digest here has (EVP_MAX_MD_SIZE).
#define CSYSTEMCRYPTO_MAX_DIGEST 64

typedef enum { CSYSTEMCRYPTO_MD5 = 0, CSYSTEMCRYPTO_SHA256 = 1 } csystemcrypto_algorithm;

/// Loads libcrypto.so.3 and finds its functions, once per process (any thread).
/// NULL when libcrypto is ready; otherwise why it is not (the same text every call).
const char *csystemcrypto_load(void);
/// 1 once `csystemcrypto_load` has loaded libcrypto into this process, 0 before.
int csystemcrypto_is_loaded(void);

/// A digest under way (an EVP_MD_CTX), loading libcrypto first if need be; NULL when libcrypto
/// is missing (`csystemcrypto_load` says why), out of memory, or lacks the algorithm (MD5 in a
/// FIPS build).
void *csystemcrypto_digest_new(csystemcrypto_algorithm algorithm);
void csystemcrypto_digest_update(void *digest, const void *bytes, size_t count);
/// Ends `digest`: its bytes into `out` (room for CSYSTEMCRYPTO_MAX_DIGEST), and their count.
unsigned csystemcrypto_digest_final(void *digest, unsigned char *out);
void csystemcrypto_digest_free(void *digest);

#endif
