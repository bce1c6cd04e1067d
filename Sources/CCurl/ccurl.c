#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *easy);
    CURLcode (*easy_setopt)(CURL *easy, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *easy, CURLINFO info, ...);
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *line);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *easy);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms, int *ready);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    const char *(*multi_strerror)(CURLMcode code);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
} api;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure = "libcurl was not loaded";
static char failure_text[512];
static volatile int loaded = 0;

static int find(void *library, void **slot, const char *name) {
    *slot = dlsym(library, name);
    if (*slot) return 1;
    snprintf(failure_text, sizeof failure_text, "libcurl.so.4 lacks %s (libcurl 7.68 or later is needed for https)", name);
    failure = failure_text;
    return 0;
}

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure_text, sizeof failure_text, "https needs libcurl (libcurl.so.4, Debian's libcurl4), which could not be loaded: %s",
                 why ? why : "not found");
        failure = failure_text;
        return;
    }
    loaded = 1;
    if (!find(library, (void **)&api.global_init, "curl_global_init")
        || !find(library, (void **)&api.easy_init, "curl_easy_init")
        || !find(library, (void **)&api.easy_cleanup, "curl_easy_cleanup")
        || !find(library, (void **)&api.easy_setopt, "curl_easy_setopt")
        || !find(library, (void **)&api.easy_getinfo, "curl_easy_getinfo")
        || !find(library, (void **)&api.easy_strerror, "curl_easy_strerror")
        || !find(library, (void **)&api.slist_append, "curl_slist_append")
        || !find(library, (void **)&api.slist_free_all, "curl_slist_free_all")
        || !find(library, (void **)&api.multi_init, "curl_multi_init")
        || !find(library, (void **)&api.multi_add_handle, "curl_multi_add_handle")
        || !find(library, (void **)&api.multi_remove_handle, "curl_multi_remove_handle")
        || !find(library, (void **)&api.multi_cleanup, "curl_multi_cleanup")
        || !find(library, (void **)&api.multi_perform, "curl_multi_perform")
        || !find(library, (void **)&api.multi_poll, "curl_multi_poll")
        || !find(library, (void **)&api.multi_wakeup, "curl_multi_wakeup")
        || !find(library, (void **)&api.multi_strerror, "curl_multi_strerror")
        || !find(library, (void **)&api.multi_info_read, "curl_multi_info_read")) {
        return;
    }
    CURLcode code = api.global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(failure_text, sizeof failure_text, "libcurl did not start: %s", api.easy_strerror(code));
        failure = failure_text;
        return;
    }
    failure = NULL;
}

const char *ccurl_load(void) {
    pthread_once(&once, load);
    return failure;
}

int ccurl_is_loaded(void) { return loaded; }

CURL *ccurl_easy_init(void) { return api.easy_init(); }
void ccurl_easy_cleanup(CURL *easy) { api.easy_cleanup(easy); }
CURLcode ccurl_setopt_long(CURL *easy, CURLoption option, long value) { return api.easy_setopt(easy, option, value); }
CURLcode ccurl_setopt_pointer(CURL *easy, CURLoption option, void *value) { return api.easy_setopt(easy, option, value); }
CURLcode ccurl_setopt_data_function(CURL *easy, CURLoption option, curl_write_callback function) {
    return api.easy_setopt(easy, option, function);
}
CURLcode ccurl_getinfo_long(CURL *easy, CURLINFO info, long *value) { return api.easy_getinfo(easy, info, value); }
const char *ccurl_easy_strerror(CURLcode code) { return api.easy_strerror(code); }

struct curl_slist *ccurl_slist_append(struct curl_slist *list, const char *line) { return api.slist_append(list, line); }
void ccurl_slist_free_all(struct curl_slist *list) { api.slist_free_all(list); }

CURLM *ccurl_multi_init(void) { return api.multi_init(); }
CURLMcode ccurl_multi_add_handle(CURLM *multi, CURL *easy) { return api.multi_add_handle(multi, easy); }
CURLMcode ccurl_multi_remove_handle(CURLM *multi, CURL *easy) { return api.multi_remove_handle(multi, easy); }
CURLMcode ccurl_multi_cleanup(CURLM *multi) { return api.multi_cleanup(multi); }
CURLMcode ccurl_multi_perform(CURLM *multi, int *running) { return api.multi_perform(multi, running); }
CURLMcode ccurl_multi_poll(CURLM *multi, int timeout_ms) { return api.multi_poll(multi, NULL, 0, timeout_ms, NULL); }
CURLMcode ccurl_multi_wakeup(CURLM *multi) { return api.multi_wakeup(multi); }
const char *ccurl_multi_strerror(CURLMcode code) { return api.multi_strerror(code); }

int ccurl_multi_done(CURLM *multi, CURLcode *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = api.multi_info_read(multi, &left)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}
