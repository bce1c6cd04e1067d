// OpenSSL's libcrypto, for SHA-256 of downloaded assets (no CryptoKit on Linux).
// Only the EVP digest API is used: it is not deprecated in OpenSSL 3.
#include <openssl/evp.h>
