#include "CSystemCrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct {
    void *(*md_ctx_new)(void);
    void (*md_ctx_free)(void *context);
    const void *(*md5)(void);
    const void *(*sha256)(void);
    int (*digest_init_ex)(void *context, const void *type, void *engine);
    int (*digest_update)(void *context, const void *bytes, size_t count);
    int (*digest_final_ex)(void *context, unsigned char *out, unsigned int *count);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure = "libcrypto was not loaded";
static char failure_text[512];
static volatile int loaded = 0;

static int find(void *library, void **slot, const char *name) {
    *slot = dlsym(library, name);
    if (*slot) return 1;
    snprintf(failure_text, sizeof failure_text, "libcrypto.so.3 lacks %s (OpenSSL 3 is needed)", name);
    failure = failure_text;
    return 0;
}

static void load(void) {
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure_text, sizeof failure_text, "digests need libcrypto (libcrypto.so.3, Debian's libssl3), which could not be loaded: %s",
                 why ? why : "not found");
        failure = failure_text;
        return;
    }
    loaded = 1;
    if (!find(library, (void **)&api.md_ctx_new, "EVP_MD_CTX_new")
        || !find(library, (void **)&api.md_ctx_free, "EVP_MD_CTX_free")
        || !find(library, (void **)&api.md5, "EVP_md5")
        || !find(library, (void **)&api.sha256, "EVP_sha256")
        || !find(library, (void **)&api.digest_init_ex, "EVP_DigestInit_ex")
        || !find(library, (void **)&api.digest_update, "EVP_DigestUpdate")
        || !find(library, (void **)&api.digest_final_ex, "EVP_DigestFinal_ex")) {
        return;
    }
    failure = NULL;
}

const char *csystemcrypto_load(void) {
    pthread_once(&once, load);
    return failure;
}

int csystemcrypto_is_loaded(void) {
    return loaded;
}

void *csystemcrypto_digest_new(csystemcrypto_algorithm algorithm) {
    if (csystemcrypto_load() != NULL) return NULL;
    const void *type = algorithm == CSYSTEMCRYPTO_SHA256 ? api.sha256() : api.md5();
    if (type == NULL) return NULL;
    void *context = api.md_ctx_new();
    if (context == NULL) return NULL;
    if (api.digest_init_ex(context, type, NULL) != 1) {
        api.md_ctx_free(context);
        return NULL;
    }
    return context;
}

void csystemcrypto_digest_update(void *digest, const void *bytes, size_t count) {
    api.digest_update(digest, bytes, count);
}

unsigned csystemcrypto_digest_final(void *digest, unsigned char *out) {
    unsigned int count = 0;
    if (api.digest_final_ex(digest, out, &count) != 1) return 0;
    return count;
}

void csystemcrypto_digest_free(void *digest) {
    api.md_ctx_free(digest);
}
